//! Bodies against obstacles: the exact overlap test, each obstacle's bounding box, and the
//! obstacles indexed once by those boxes so that checking every body of a scene (validation, the
//! spawn layout) takes time near-linear in bodies plus obstacles instead of their product.
//! A moving circle has no fixed box: every query tests it (their number is limited, see
//! [`crate::limits::MAX_MOVING_OBSTACLES`]).

use glam::Vec2;

use super::model::Obstacle;
use crate::geom::BoxIndex;

/// True when a body of `radius` at `p` at time `time` overlaps `obstacle` by more than
/// `tolerance` metres.
pub fn overlaps_obstacle(obstacle: &Obstacle, p: Vec2, radius: f32, time: f32, tolerance: f32) -> bool {
    match obstacle {
        Obstacle::Circle { center, radius: r } => p.distance(*center) < r + radius - tolerance,
        Obstacle::MovingCircle {
            center,
            radius: r,
            velocity,
        } => p.distance(*center + *velocity * time) < r + radius - tolerance,
        Obstacle::Polygon { vertices } => crate::geom::polygon_contains_circle_overlap(p, radius, vertices, tolerance),
        Obstacle::Wall { a, b } => crate::geom::distance_to_segment(p, *a, *b) < radius - tolerance,
    }
}

impl Obstacle {
    /// The axis-aligned box (min, max) the obstacle occupies; a moving circle's is the whole
    /// plane (it can be anywhere during a run).
    pub fn bounding_box(&self) -> (Vec2, Vec2) {
        match self {
            Obstacle::Circle { center, radius } => (*center - *radius, *center + *radius),
            Obstacle::Polygon { vertices } => vertices
                .iter()
                .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(*v), hi.max(*v))
                }),
            Obstacle::Wall { a, b } => (a.min(*b), a.max(*b)),
            Obstacle::MovingCircle { .. } => (Vec2::NEG_INFINITY, Vec2::INFINITY),
        }
    }
}

/// A scene's obstacles indexed by bounding box for body overlap queries.
pub struct ObstacleIndex<'a> {
    obstacles: &'a [Obstacle],
    boxes: BoxIndex,
}

impl<'a> ObstacleIndex<'a> {
    /// Indexes `obstacles` (built once, queried for every body).
    pub fn new(obstacles: &'a [Obstacle]) -> ObstacleIndex<'a> {
        ObstacleIndex {
            obstacles,
            boxes: BoxIndex::new(obstacles.iter().map(Obstacle::bounding_box).collect()),
        }
    }

    /// The indices (ascending) of the obstacles a body of `radius` at `p` at time `time`
    /// overlaps by more than `tolerance` metres, as [`overlaps_obstacle`] decides; none for a
    /// body at a non-finite point.
    pub fn overlapping(&self, p: Vec2, radius: f32, time: f32, tolerance: f32) -> Vec<usize> {
        if !p.is_finite() {
            return Vec::new();
        }
        // A margin of a few rounding steps keeps every obstacle the exact test could accept.
        let reach = radius.max(0.0) + (p.abs().max_element() + radius.abs()) * 1e-6 + 1e-6;
        let mut near = Vec::new();
        self.boxes.query(p - reach, p + reach, &mut near);
        near.into_iter()
            .map(|i| i as usize)
            .filter(|&i| overlaps_obstacle(&self.obstacles[i], p, radius, time, tolerance))
            .collect()
    }
}
