//! The combined forbidden region of the cone methods (VO, RVO, ClearPath's FVO) and the search
//! for the permitted velocity nearest the preferred one, as ClearPath does it: every candidate
//! boundary edge is split where other edges and the max-speed circle cross it, each piece is
//! classified as outer (it bounds permitted velocities) or inner (it lies inside another
//! region), and the new velocity is the nearest point on an outer piece.
//!
//! Regions are convex polygons in velocity space, counter-clockwise (inside on the left of each
//! edge); an infinite cone is closed far outside the max-speed disc by edges that are never
//! candidates.

use glam::Vec2;

use crate::record::Constraint;

/// Margin (m/s) by which a velocity must be inside a region to count as forbidden, so that the
/// boundary itself is permitted (a grazing pass).
const INSIDE_MARGIN: f32 = 1e-5;

/// A forbidden convex region; `candidate[i]` says whether edge `i` (vertex `i` → `i + 1`) may
/// carry the new velocity.
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    /// Counter-clockwise vertices.
    pub vertices: Vec<Vec2>,
    /// Per edge: may the chosen velocity lie on it.
    pub candidate: Vec<bool>,
}

impl Region {
    /// A region whose every edge is a candidate.
    pub fn polygon(vertices: Vec<Vec2>) -> Region {
        let candidate = vec![true; vertices.len()];
        Region { vertices, candidate }
    }

    /// The edge leaving vertex `i`.
    pub fn edge(&self, i: usize) -> (Vec2, Vec2) {
        (self.vertices[i], self.vertices[(i + 1) % self.vertices.len()])
    }

    /// True when `v` lies strictly inside (more than the margin from every edge).
    pub fn contains(&self, v: Vec2) -> bool {
        (0..self.vertices.len()).all(|i| {
            let (a, b) = self.edge(i);
            let d = b - a;
            d.perp_dot(v - a) > INSIDE_MARGIN * d.length()
        })
    }
}

/// A piece of a candidate edge after splitting; `outer` when it bounds permitted velocities.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundaryPiece {
    /// Start.
    pub a: Vec2,
    /// End.
    pub b: Vec2,
    /// True when its points are in no other region and within max speed.
    pub outer: bool,
}

/// Parameters in (0, 1) where segment `p + t·d` crosses segment `q`–`q + e`.
fn crossing(p: Vec2, d: Vec2, q: Vec2, e: Vec2) -> Option<f32> {
    let denominator = d.perp_dot(e);
    if denominator.abs() <= f32::EPSILON * d.length() * e.length() {
        return None;
    }
    let t = (q - p).perp_dot(e) / denominator;
    let s = (q - p).perp_dot(d) / denominator;
    (t > 0.0 && t < 1.0 && (0.0..=1.0).contains(&s)).then_some(t)
}

/// Parameters in (0, 1) where segment `p + t·d` crosses the circle of `radius` about the origin.
fn circle_crossings(p: Vec2, d: Vec2, radius: f32, out: &mut Vec<f32>) {
    let a = d.length_squared();
    let b = p.dot(d);
    let c = p.length_squared() - radius * radius;
    let discriminant = b * b - a * c;
    if a > 0.0 && discriminant > 0.0 {
        let root = discriminant.sqrt();
        out.extend(
            [(-b - root) / a, (-b + root) / a]
                .into_iter()
                .filter(|t| *t > 0.0 && *t < 1.0),
        );
    }
}

/// Splits every candidate edge of `regions` and classifies the pieces (ClearPath's steps 3–6).
pub fn classify_boundary(regions: &[Region], max_speed: f32) -> Vec<BoundaryPiece> {
    let mut pieces = Vec::new();
    let mut cuts = Vec::new();
    for (r, region) in regions.iter().enumerate() {
        for i in 0..region.vertices.len() {
            if !region.candidate[i] {
                continue;
            }
            let (p, end) = region.edge(i);
            let d = end - p;
            cuts.clear();
            cuts.push(0.0);
            cuts.push(1.0);
            for (s, other) in regions.iter().enumerate() {
                if s == r {
                    continue;
                }
                for j in 0..other.vertices.len() {
                    let (q, q_end) = other.edge(j);
                    cuts.extend(crossing(p, d, q, q_end - q));
                }
            }
            circle_crossings(p, d, max_speed, &mut cuts);
            cuts.sort_by(f32::total_cmp);
            for w in cuts.windows(2) {
                if w[1] - w[0] <= f32::EPSILON {
                    continue;
                }
                let (a, b) = (p + d * w[0], p + d * w[1]);
                let mid = (a + b) * 0.5;
                let outer = mid.length() <= max_speed
                    && regions
                        .iter()
                        .enumerate()
                        .all(|(s, other)| s == r || !other.contains(mid));
                pieces.push(BoundaryPiece { a, b, outer });
            }
        }
    }
    pieces
}

/// The permitted velocity nearest `preferred` (clamped to the max-speed disc): `preferred` itself
/// when no region contains it, else the nearest point of an outer boundary piece; `None` when
/// no velocity within max speed is permitted. `debug` receives the regions and the pieces.
pub fn nearest_free(
    regions: &[Region],
    max_speed: f32,
    preferred: Vec2,
    debug: Option<&mut Vec<Constraint>>,
) -> Option<Vec2> {
    let preferred = crate::geom::truncate(preferred, max_speed);
    let free = !regions.iter().any(|r| r.contains(preferred));
    let pieces = if free && debug.is_none() {
        Vec::new()
    } else {
        classify_boundary(regions, max_speed)
    };
    if let Some(out) = debug {
        out.extend(regions.iter().map(|r| Constraint::Region {
            vertices: r.vertices.clone(),
        }));
        out.extend(pieces.iter().map(|p| Constraint::Edge {
            a: p.a,
            b: p.b,
            outer: p.outer,
        }));
    }
    if free {
        return Some(preferred);
    }
    pieces
        .iter()
        .filter(|p| p.outer)
        .map(|p| crate::geom::closest_point_on_segment(preferred, p.a, p.b))
        .min_by(|x, y| x.distance_squared(preferred).total_cmp(&y.distance_squared(preferred)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(min: (f32, f32), size: f32) -> Region {
        let m = Vec2::new(min.0, min.1);
        Region::polygon(vec![
            m,
            m + Vec2::new(size, 0.0),
            m + Vec2::new(size, size),
            m + Vec2::new(0.0, size),
        ])
    }

    #[test]
    fn overlapping_squares_split_edges_into_outer_and_inner_pieces() {
        // Two unit-ish squares overlapping in [1, 2] × [1, 2]; max speed large.
        let regions = [square((0.0, 0.0), 2.0), square((1.0, 1.0), 2.0)];
        let pieces = classify_boundary(&regions, 100.0);
        // Square 0's right edge x = 2 from y = 0 to 2 is cut at y = 1: the lower half is outer,
        // the upper half lies inside square 1.
        let right_edge: Vec<_> = pieces.iter().filter(|p| p.a.x == 2.0 && p.b.x == 2.0).collect();
        assert_eq!(right_edge.len(), 2);
        assert_eq!(
            (right_edge[0].a, right_edge[0].b),
            (Vec2::new(2.0, 0.0), Vec2::new(2.0, 1.0))
        );
        assert!(right_edge[0].outer);
        assert_eq!(
            (right_edge[1].a, right_edge[1].b),
            (Vec2::new(2.0, 1.0), Vec2::new(2.0, 2.0))
        );
        assert!(!right_edge[1].outer);
        assert_eq!(
            pieces.iter().filter(|p| !p.outer).count(),
            4,
            "one inner piece per crossing edge"
        );
    }

    #[test]
    fn pieces_beyond_max_speed_are_not_outer() {
        let pieces = classify_boundary(&[square((-1.0, -1.0), 4.0)], 2.0);
        let top = pieces.iter().filter(|p| p.a.y == 3.0).collect::<Vec<_>>();
        assert!(top.iter().all(|p| !p.outer), "the top edge y = 3 lies beyond 2 m/s");
        assert!(pieces.iter().any(|p| p.outer && p.a.y == -1.0));
    }

    #[test]
    fn nearest_free_velocity_is_on_the_outer_boundary() {
        let regions = [square((0.0, -1.0), 2.0)];
        assert_eq!(
            nearest_free(&regions, 5.0, Vec2::new(-1.0, 0.0), None),
            Some(Vec2::new(-1.0, 0.0))
        );
        let v = nearest_free(&regions, 5.0, Vec2::new(0.4, 0.2), None).unwrap();
        assert!((v - Vec2::new(0.0, 0.2)).length() < 1e-6, "{v}");
        // A region covering the whole disc leaves nothing.
        assert_eq!(
            nearest_free(&[square((-10.0, -10.0), 20.0)], 2.0, Vec2::ZERO, None),
            None
        );
    }
}
