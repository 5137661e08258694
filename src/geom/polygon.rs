//! Simple-polygon queries (vertices in either winding order, implicitly closed).

use super::segment::distance_to_segment;
use glam::Vec2;

/// The polygon's edges in vertex order, each as its two ends, the last closing it back to the
/// first vertex.
pub fn polygon_edges(vertices: &[Vec2]) -> impl Iterator<Item = (Vec2, Vec2)> + Clone + '_ {
    let next = vertices.iter().skip(1).chain(vertices.first());
    vertices.iter().copied().zip(next.copied())
}

/// Signed area (positive for counter-clockwise vertex order), by the shoelace formula.
pub fn polygon_area(vertices: &[Vec2]) -> f32 {
    polygon_edges(vertices).map(|(a, b)| a.perp_dot(b)).sum::<f32>() * 0.5
}

/// True when `p` lies inside the polygon (even–odd rule; points on an edge may go either way),
/// worked out in `f64` from the `f32` coordinates, so that a point a hair outside an edge (as a
/// body stopped at a wall can be) is not taken for one inside by `f32`'s rounding.
pub fn point_in_polygon(p: Vec2, vertices: &[Vec2]) -> bool {
    let (px, py) = (f64::from(p.x), f64::from(p.y));
    let mut inside = false;
    for (a, b) in polygon_edges(vertices) {
        let [ax, ay, bx, by] = [a.x, a.y, b.x, b.y].map(f64::from);
        if (ay > py) != (by > py) && px < (bx - ax) * (py - ay) / (by - ay) + ax {
            inside = !inside;
        }
    }
    inside
}

/// True when a circle of `radius` at `center` overlaps the polygon's area by more than
/// `tolerance` (centre inside, or an edge closer than `radius - tolerance`).
pub fn polygon_contains_circle_overlap(center: Vec2, radius: f32, vertices: &[Vec2], tolerance: f32) -> bool {
    if vertices.is_empty() {
        return false;
    }
    if point_in_polygon(center, vertices) {
        return true;
    }
    polygon_edges(vertices).any(|(a, b)| distance_to_segment(center, a, b) < radius - tolerance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_close_the_polygon_in_vertex_order() {
        let (a, b, c) = (Vec2::ZERO, Vec2::X, Vec2::Y);
        let edges: Vec<_> = polygon_edges(&[a, b, c]).collect();
        assert_eq!(edges, [(a, b), (b, c), (c, a)]);
        assert_eq!(polygon_edges(&[]).count(), 0);
    }

    fn square() -> Vec<Vec2> {
        vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(0.0, 2.0),
        ]
    }

    #[test]
    fn area_and_containment_of_a_square() {
        assert_eq!(polygon_area(&square()), 4.0);
        assert!(point_in_polygon(Vec2::new(1.0, 1.0), &square()));
        assert!(!point_in_polygon(Vec2::new(3.0, 1.0), &square()));
        assert!(polygon_contains_circle_overlap(
            Vec2::new(2.4, 1.0),
            0.5,
            &square(),
            0.0
        ));
        assert!(!polygon_contains_circle_overlap(
            Vec2::new(2.6, 1.0),
            0.5,
            &square(),
            0.0
        ));
    }
}
