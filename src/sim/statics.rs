//! The scene's obstacles prepared for queries: body–obstacle penetration depth, with a
//! bounding-box pre-test. Moving non-reactive circles are placed at `centre + velocity · t`.

use glam::Vec2;

use crate::geom::{RayHit, closest_point_on_segment, nearer, point_in_polygon, ray_circle, ray_segment};
use crate::scene::Obstacle;

/// One obstacle and its axis-aligned bounding box (for static shapes).
struct Entry {
    shape: Obstacle,
    min: Vec2,
    max: Vec2,
}

/// All obstacles of a scene, ready for contact queries.
pub struct StaticGeometry {
    entries: Vec<Entry>,
}

impl StaticGeometry {
    /// Prepares the scene's obstacles.
    pub fn new(obstacles: &[Obstacle]) -> StaticGeometry {
        let entries = obstacles
            .iter()
            .map(|o| {
                let (min, max) = match o {
                    Obstacle::Circle { center, radius } => {
                        (*center - Vec2::splat(*radius), *center + Vec2::splat(*radius))
                    }
                    Obstacle::Polygon { vertices } => vertices.iter().fold(
                        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
                        |(lo, hi), v| (lo.min(*v), hi.max(*v)),
                    ),
                    Obstacle::Wall { a, b } => (a.min(*b), a.max(*b)),
                    Obstacle::MovingCircle { .. } => (Vec2::splat(f32::NEG_INFINITY), Vec2::splat(f32::INFINITY)),
                };
                Entry {
                    shape: o.clone(),
                    min,
                    max,
                }
            })
            .collect();
        StaticGeometry { entries }
    }

    /// Every obstacle that a disc of `radius` at `p` penetrates at time `t`, as
    /// (obstacle index, depth in metres), depth > `tolerance`.
    pub fn penetrations(&self, p: Vec2, radius: f32, t: f32, tolerance: f32) -> impl Iterator<Item = (u32, f32)> + '_ {
        self.entries.iter().enumerate().filter_map(move |(i, e)| {
            if p.x + radius < e.min.x || p.x - radius > e.max.x || p.y + radius < e.min.y || p.y - radius > e.max.y {
                return None;
            }
            let depth = penetration_depth(&e.shape, p, radius, t);
            (depth > tolerance).then_some((i as u32, depth))
        })
    }
}

impl StaticGeometry {
    /// The nearest obstacle hit of the ray from `origin` along unit `dir`, at most `length` long,
    /// at time `t` (moving circles placed then). Polygons and walls are hit on their edges.
    pub fn cast_ray(&self, origin: Vec2, dir: Vec2, length: f32, t: f32) -> Option<RayHit> {
        let end = origin + dir * length;
        let (lo, hi) = (origin.min(end), origin.max(end));
        self.entries
            .iter()
            .filter(|e| !(hi.x < e.min.x || lo.x > e.max.x || hi.y < e.min.y || lo.y > e.max.y))
            .fold(None, |best, e| {
                nearer(best, ray_shape(&e.shape, origin, dir, length, t))
            })
    }
}

/// The first hit of a ray with one obstacle shape at time `t`.
fn ray_shape(shape: &Obstacle, origin: Vec2, dir: Vec2, length: f32, t: f32) -> Option<RayHit> {
    match shape {
        Obstacle::Circle { center, radius } => ray_circle(origin, dir, length, *center, *radius),
        Obstacle::MovingCircle {
            center,
            radius,
            velocity,
        } => ray_circle(origin, dir, length, *center + *velocity * t, *radius),
        Obstacle::Wall { a, b } => ray_segment(origin, dir, length, *a, *b),
        Obstacle::Polygon { vertices } => {
            let n = vertices.len();
            (0..n).fold(None, |best, i| {
                nearer(
                    best,
                    ray_segment(origin, dir, length, vertices[i], vertices[(i + 1) % n]),
                )
            })
        }
    }
}

/// How deep a disc of `radius` at `p` reaches into `shape` at time `t` (≤ 0 when apart).
pub fn penetration_depth(shape: &Obstacle, p: Vec2, radius: f32, t: f32) -> f32 {
    match shape {
        Obstacle::Circle { center, radius: r } => r + radius - p.distance(*center),
        Obstacle::MovingCircle {
            center,
            radius: r,
            velocity,
        } => r + radius - p.distance(*center + *velocity * t),
        Obstacle::Wall { a, b } => radius - p.distance(closest_point_on_segment(p, *a, *b)),
        Obstacle::Polygon { vertices } => {
            let n = vertices.len();
            let edge_distance = (0..n)
                .map(|i| p.distance(closest_point_on_segment(p, vertices[i], vertices[(i + 1) % n])))
                .fold(f32::INFINITY, f32::min);
            if point_in_polygon(p, vertices) {
                radius + edge_distance
            } else {
                radius - edge_distance
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_of_each_shape() {
        let circle = Obstacle::Circle {
            center: Vec2::ZERO,
            radius: 1.0,
        };
        assert!((penetration_depth(&circle, Vec2::new(1.2, 0.0), 0.3, 0.0) - 0.1).abs() < 1e-6);
        let moving = Obstacle::MovingCircle {
            center: Vec2::ZERO,
            radius: 1.0,
            velocity: Vec2::new(1.0, 0.0),
        };
        assert!((penetration_depth(&moving, Vec2::new(2.2, 0.0), 0.3, 1.0) - 0.1).abs() < 1e-6);
        let square = Obstacle::Polygon {
            vertices: vec![
                Vec2::ZERO,
                Vec2::new(2.0, 0.0),
                Vec2::new(2.0, 2.0),
                Vec2::new(0.0, 2.0),
            ],
        };
        assert!((penetration_depth(&square, Vec2::new(1.0, 1.0), 0.5, 0.0) - 1.5).abs() < 1e-6);
        assert!((penetration_depth(&square, Vec2::new(3.0, 1.0), 0.5, 0.0) + 0.5).abs() < 1e-6);
        let wall = Obstacle::Wall {
            a: Vec2::ZERO,
            b: Vec2::new(0.0, 4.0),
        };
        assert!((penetration_depth(&wall, Vec2::new(0.2, 1.0), 0.25, 0.0) - 0.05).abs() < 1e-6);
        let geometry = StaticGeometry::new(&[circle, wall]);
        let hits: Vec<_> = geometry.penetrations(Vec2::new(0.1, 1.05), 0.25, 0.0, 1e-3).collect();
        assert_eq!(hits.len(), 2);
    }

    #[test]
    fn rays_find_the_nearest_shape_and_its_outward_normal() {
        let geometry = StaticGeometry::new(&[
            Obstacle::Polygon {
                vertices: vec![
                    Vec2::new(4.0, -1.0),
                    Vec2::new(6.0, -1.0),
                    Vec2::new(6.0, 1.0),
                    Vec2::new(4.0, 1.0),
                ],
            },
            Obstacle::Wall {
                a: Vec2::new(8.0, -5.0),
                b: Vec2::new(8.0, 5.0),
            },
            Obstacle::MovingCircle {
                center: Vec2::new(0.0, -10.0),
                radius: 0.5,
                velocity: Vec2::new(0.0, 5.0),
            },
        ]);
        let hit = geometry.cast_ray(Vec2::ZERO, Vec2::X, 10.0, 0.0).unwrap();
        assert!((hit.distance - 4.0).abs() < 1e-6);
        assert_eq!(hit.normal, -Vec2::X);
        let wall = geometry.cast_ray(Vec2::new(0.0, 3.0), Vec2::X, 10.0, 0.0).unwrap();
        assert!((wall.distance - 8.0).abs() < 1e-6);
        assert!(geometry.cast_ray(Vec2::ZERO, -Vec2::Y, 5.0, 0.0).is_none());
        let moving = geometry.cast_ray(Vec2::ZERO, -Vec2::Y, 5.0, 1.0).unwrap();
        assert!((moving.distance - 4.5).abs() < 1e-6);
    }
}
