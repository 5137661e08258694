//! The scene's obstacles as the avoidance methods see them: polygon and wall outlines as RVO2
//! obstacle vertices (counter-clockwise, each with its outgoing edge direction and convexity),
//! static circles, and moving non-reactive circles placed at `centre + velocity · t`.
//!
//! Edges are found by a linear scan with a bounding-box test: scenes hold tens of edges, not
//! thousands, so a tree (RVO2's obstacle k-d tree) would not pay for itself yet.

use glam::Vec2;

use super::neighbours::Mover;
use crate::geom::polygon_area;
use crate::scene::Obstacle;

/// One vertex of an obstacle outline and the edge leaving it (RVO2's `Obstacle`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObstacleVertex {
    /// Position in metres.
    pub point: Vec2,
    /// Index of the next vertex (end of this vertex's edge).
    pub next: usize,
    /// Index of the previous vertex.
    pub prev: usize,
    /// Unit direction from this vertex to the next.
    pub unit_dir: Vec2,
    /// True when the outline turns left (or is a wall end) here.
    pub convex: bool,
    /// Index of the scene obstacle the vertex belongs to.
    pub obstacle: u32,
}

/// All obstacles of a scene, prepared once.
#[derive(Clone, Debug, Default)]
pub struct AvoidObstacles {
    /// Outline vertices of polygons (counter-clockwise) and walls (two vertices, both directions).
    pub vertices: Vec<ObstacleVertex>,
    /// Bounding box (min, max) of the edge leaving each vertex.
    edge_boxes: Vec<(Vec2, Vec2)>,
    /// Static discs (centre, radius).
    circles: Vec<(Vec2, f32)>,
    /// Moving discs (centre at t = 0, radius, velocity).
    moving: Vec<(Vec2, f32, Vec2)>,
}

impl AvoidObstacles {
    /// Prepares `obstacles` (assumed valid).
    pub fn new(obstacles: &[Obstacle]) -> AvoidObstacles {
        let mut out = AvoidObstacles::default();
        for (k, o) in obstacles.iter().enumerate() {
            match o {
                Obstacle::Circle { center, radius } => out.circles.push((*center, *radius)),
                Obstacle::MovingCircle {
                    center,
                    radius,
                    velocity,
                } => out.moving.push((*center, *radius, *velocity)),
                Obstacle::Wall { a, b } => out.add_outline(&[*a, *b], k as u32),
                Obstacle::Polygon { vertices } => {
                    let mut ccw = vertices.clone();
                    if polygon_area(&ccw) < 0.0 {
                        ccw.reverse();
                    }
                    out.add_outline(&ccw, k as u32);
                }
            }
        }
        out.edge_boxes = out
            .vertices
            .iter()
            .map(|v| {
                let q = out.vertices[v.next].point;
                (v.point.min(q), v.point.max(q))
            })
            .collect();
        out
    }

    /// RVO2's `addObstacle`: links the outline and marks convex vertices.
    fn add_outline(&mut self, points: &[Vec2], obstacle: u32) {
        let first = self.vertices.len();
        let n = points.len();
        for (i, &p) in points.iter().enumerate() {
            let next = points[(i + 1) % n];
            let prev = points[(i + n - 1) % n];
            self.vertices.push(ObstacleVertex {
                point: p,
                next: first + (i + 1) % n,
                prev: first + (i + n - 1) % n,
                unit_dir: (next - p).normalize(),
                convex: n == 2 || left_of(prev, p, next) >= 0.0,
                obstacle,
            });
        }
    }

    /// Edges (by start vertex) within `range` of `position` that face it (the agent is on
    /// their right, i.e. outside), nearest first — RVO2's obstacle neighbours.
    pub fn edges_near(&self, position: Vec2, range: f32, out: &mut Vec<(f32, usize)>) {
        out.clear();
        let range_sq = range * range;
        for (i, v) in self.vertices.iter().enumerate() {
            let (lo, hi) = self.edge_boxes[i];
            if position.x + range < lo.x
                || position.x - range > hi.x
                || position.y + range < lo.y
                || position.y - range > hi.y
            {
                continue;
            }
            let q = self.vertices[v.next].point;
            let side = left_of(v.point, q, position);
            if side < 0.0 && side * side / (q - v.point).length_squared() < range_sq {
                let dist_sq = dist_sq_point_segment(v.point, q, position);
                if dist_sq < range_sq {
                    out.push((dist_sq, i));
                }
            }
        }
        out.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }

    /// Static circles whose surface lies within `range` of `position`, as non-reactive movers.
    pub fn circles_near(&self, position: Vec2, range: f32, out: &mut Vec<Mover>) {
        for &(center, radius) in &self.circles {
            if center.distance(position) - radius < range {
                out.push(Mover::obstacle(center, radius, Vec2::ZERO));
            }
        }
    }

    /// Moving circles (placed at time `t`) whose surface lies within `range` of `position`.
    pub fn moving_near(&self, position: Vec2, range: f32, t: f32, out: &mut Vec<Mover>) {
        for &(center, radius, velocity) in &self.moving {
            let c = center + velocity * t;
            if c.distance(position) - radius < range {
                out.push(Mover::obstacle(c, radius, velocity));
            }
        }
    }
}

/// RVO2's `leftOf`: > 0 when `c` lies left of the directed line `a`→`b`.
pub fn left_of(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    (a - c).perp_dot(b - a)
}

/// Squared distance from `c` to segment `a`–`b`.
pub fn dist_sq_point_segment(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    let r = (c - a).dot(b - a) / (b - a).length_squared();
    if r < 0.0 {
        (c - a).length_squared()
    } else if r > 1.0 {
        (c - b).length_squared()
    } else {
        (c - (a + (b - a) * r)).length_squared()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clockwise_polygons_are_reversed_and_walls_have_two_sides() {
        let square = Obstacle::Polygon {
            vertices: vec![Vec2::ZERO, Vec2::new(0.0, 1.0), Vec2::ONE, Vec2::new(1.0, 0.0)],
        };
        let wall = Obstacle::Wall {
            a: Vec2::new(5.0, 0.0),
            b: Vec2::new(5.0, 4.0),
        };
        let o = AvoidObstacles::new(&[square, wall]);
        assert_eq!(o.vertices.len(), 6);
        assert!(o.vertices.iter().all(|v| v.convex));
        assert_eq!(
            o.vertices[0].point,
            Vec2::new(1.0, 0.0),
            "reversed to counter-clockwise"
        );
        assert_eq!(o.vertices[0].unit_dir, Vec2::new(0.0, 1.0));
        let mut near = Vec::new();
        o.edges_near(Vec2::new(0.5, -1.0), 2.0, &mut near);
        assert_eq!(
            near.iter().map(|e| e.1).collect::<Vec<_>>(),
            vec![3],
            "only the bottom edge faces an agent below"
        );
        o.edges_near(Vec2::new(6.0, 2.0), 2.0, &mut near);
        assert_eq!(near.len(), 1, "only the wall side facing the agent");
        assert_eq!(o.vertices[near[0].1].point, Vec2::new(5.0, 0.0));
    }
}
