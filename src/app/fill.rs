//! Triangulation of simple polygons (convex or not) by ear clipping, so the canvas can fill
//! concave obstacles (egui's own path fill is convex-only).

use glam::Vec2;

use crate::geom::polygon_area;

/// Index triples of triangles covering the simple polygon `points` (either winding). A degenerate
/// remainder (collinear or self-touching vertices) is closed with a fan so nothing is lost.
pub fn triangulate(points: &[Vec2]) -> Vec<[usize; 3]> {
    let mut triangles = Vec::with_capacity(points.len().saturating_sub(2));
    if points.len() < 3 {
        return triangles;
    }
    let winding = polygon_area(points).signum();
    let mut remaining: Vec<usize> = (0..points.len()).collect();
    while remaining.len() > 3 {
        let n = remaining.len();
        let ear = (0..n).find(|&i| {
            let (a, b, c) = (remaining[(i + n - 1) % n], remaining[i], remaining[(i + 1) % n]);
            let (pa, pb, pc) = (points[a], points[b], points[c]);
            let convex = (pb - pa).perp_dot(pc - pb) * winding > 0.0;
            convex
                && remaining
                    .iter()
                    .all(|&j| j == a || j == b || j == c || !in_triangle(points[j], pa, pb, pc))
        });
        match ear {
            Some(i) => {
                triangles.push([remaining[(i + n - 1) % n], remaining[i], remaining[(i + 1) % n]]);
                remaining.remove(i);
            }
            None => break,
        }
    }
    for k in 1..remaining.len() - 1 {
        triangles.push([remaining[0], remaining[k], remaining[k + 1]]);
    }
    triangles
}

/// True when `p` is inside or on triangle `abc` (either winding).
fn in_triangle(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool {
    let d1 = (b - a).perp_dot(p - a);
    let d2 = (c - b).perp_dot(p - b);
    let d3 = (a - c).perp_dot(p - c);
    let negative = d1 < 0.0 || d2 < 0.0 || d3 < 0.0;
    let positive = d1 > 0.0 || d2 > 0.0 || d3 > 0.0;
    !(negative && positive)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(points: &[Vec2], triangles: &[[usize; 3]]) -> f32 {
        triangles
            .iter()
            .map(|t| polygon_area(&[points[t[0]], points[t[1]], points[t[2]]]).abs())
            .sum()
    }

    #[test]
    fn concave_polygon_is_covered_exactly_in_either_winding() {
        // An L shape: area 3.
        let mut l = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        let t = triangulate(&l);
        assert_eq!(t.len(), 4);
        assert!((area(&l, &t) - 3.0).abs() < 1e-5);
        l.reverse();
        let t = triangulate(&l);
        assert!((area(&l, &t) - 3.0).abs() < 1e-5);
    }

    #[test]
    fn too_few_points_give_nothing() {
        assert!(triangulate(&[Vec2::ZERO, Vec2::X]).is_empty());
    }
}
