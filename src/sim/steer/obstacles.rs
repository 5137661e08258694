//! The scene's obstacles as the steering behaviours see them (decision documented here):
//! - **circles** for obstacle avoidance and hide: every `Circle`, every `MovingCircle` at the
//!   snapshot's time, and every `Polygon` by its bounding circle (centre of its bounding box,
//!   radius to the farthest vertex) — Buckland's behaviours are defined for circles only;
//! - **walls** for wall avoidance: every `Wall` segment and every edge of every `Polygon`, so a
//!   polygon is both avoided early (its circle) and kept off precisely (its edges).

use glam::Vec2;

use crate::geom::polygon_edges;
use crate::scene::Obstacle;

/// A disc obstacle, possibly moving with constant velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObstacleCircle {
    /// Centre at time 0.
    pub center: Vec2,
    /// Radius in metres.
    pub radius: f32,
    /// Velocity in m/s (zero for static shapes).
    pub velocity: Vec2,
}

impl ObstacleCircle {
    /// The centre at simulation time `t`.
    pub fn center_at(&self, t: f32) -> Vec2 {
        self.center + self.velocity * t
    }
}

/// Circles and wall segments derived once from a scene's obstacles.
#[derive(Clone, Debug, Default)]
pub struct SteeringObstacles {
    /// Discs for obstacle avoidance and hiding.
    pub circles: Vec<ObstacleCircle>,
    /// Segments `(a, b)` for wall avoidance.
    pub walls: Vec<(Vec2, Vec2)>,
}

impl SteeringObstacles {
    /// Derives circles and walls from `obstacles`.
    pub fn new(obstacles: &[Obstacle]) -> SteeringObstacles {
        let mut out = SteeringObstacles::default();
        for o in obstacles {
            match o {
                Obstacle::Circle { center, radius } => out.circles.push(ObstacleCircle {
                    center: *center,
                    radius: *radius,
                    velocity: Vec2::ZERO,
                }),
                Obstacle::MovingCircle {
                    center,
                    radius,
                    velocity,
                } => out.circles.push(ObstacleCircle {
                    center: *center,
                    radius: *radius,
                    velocity: *velocity,
                }),
                Obstacle::Wall { a, b } => out.walls.push((*a, *b)),
                Obstacle::Polygon { vertices } => {
                    let (lo, hi) = vertices.iter().fold(
                        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
                        |(lo, hi), v| (lo.min(*v), hi.max(*v)),
                    );
                    let center = (lo + hi) * 0.5;
                    let radius = vertices.iter().map(|v| v.distance(center)).fold(0.0, f32::max);
                    out.circles.push(ObstacleCircle {
                        center,
                        radius,
                        velocity: Vec2::ZERO,
                    });
                    out.walls.extend(polygon_edges(vertices));
                }
            }
        }
        out
    }

    /// Every circle as (centre at time `t`, radius).
    pub fn circles_at(&self, t: f32) -> impl Iterator<Item = (Vec2, f32)> + '_ {
        self.circles.iter().map(move |c| (c.center_at(t), c.radius))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygons_become_a_bounding_circle_and_edges() {
        let square = Obstacle::Polygon {
            vertices: vec![
                Vec2::ZERO,
                Vec2::new(2.0, 0.0),
                Vec2::new(2.0, 2.0),
                Vec2::new(0.0, 2.0),
            ],
        };
        let o = SteeringObstacles::new(&[square]);
        assert_eq!(o.circles[0].center, Vec2::ONE);
        assert!((o.circles[0].radius - 2f32.sqrt()).abs() < 1e-6);
        assert_eq!(o.walls.len(), 4);
        assert_eq!(o.walls[3], (Vec2::new(0.0, 2.0), Vec2::ZERO));
    }
}
