//! OBSTACLE AVOIDANCE (Popelová §3.1): five body rays; each hitting ray i pushes along the wall
//! normal with |pᵢ| = W·F·(2D/R)^O (W = 1 front, 0.8 oblique, 0.5 side; D immersed length, R ray
//! length, O Force Order), so at half immersion |pᵢ| = W·F. With *body-wide rays* each ray is a
//! disc of the body's radius swept along it: thin rays from the centre pass beside a corner in the
//! 15°–90° gap between an oblique and a side ray, and the body then clips it (§6.1.3, §6.2.1).
//! - *Front Collisions*: when the front or an oblique ray hits with pᵢ at 177°–180° to the
//!   velocity, a rotation vector of ½|pᵢ| is added on the side to which the velocity leans off the
//!   inward normal (random when exactly perpendicular), so the agent turns along the wall instead
//!   of bouncing back.
//! - *Tree Collisions*: when exactly one ray, an oblique one, hits and pᵢ points into that ray's
//!   half-plane, pᵢ is mirrored across the velocity axis so a thin obstacle is passed on the near side.

use glam::Vec2;
use rand_pcg::Pcg32;

use super::output::{Side, SteeringOutput, motion_direction};
use super::rays::{BodyRay, RayKind, cast_body_rays};
use crate::scene::steering::human::ObstacleAvoidance;
use crate::sim::steer::SteeringContext;

/// Angle between the oblique rays and the front ray.
const OBLIQUE_DEG: f32 = 15.0;
/// Lower bound of the frontal-collision band (177°–180°).
const FRONTAL_DEG: f32 = 177.0;

impl ObstacleAvoidance {
    /// The steering output for this tick.
    pub fn steer(&self, ctx: &SteeringContext, rng: &mut Pcg32) -> SteeringOutput {
        let width = if self.body_wide_rays { ctx.body.radius } else { 0.0 };
        let rays = cast_body_rays(ctx, OBLIQUE_DEG, self.ray_length, width);
        let dir = motion_direction(ctx.velocity(), ctx.body.heading);
        self.combine_rays(&rays, dir, rng)
    }

    /// Sums the per-ray forces of the hitting `rays` for an agent moving along unit `dir`.
    pub fn combine_rays(&self, rays: &[BodyRay], dir: Vec2, rng: &mut Pcg32) -> SteeringOutput {
        let hits: Vec<&BodyRay> = rays.iter().filter(|r| r.hit.is_some()).collect();
        if hits.is_empty() {
            return SteeringOutput::force(Vec2::ZERO);
        }
        let lone_oblique = hits.len() == 1 && matches!(hits[0].kind, RayKind::Oblique(_));
        let mut force = Vec2::ZERO;
        for ray in hits {
            let hit = ray.hit.expect("filtered");
            let mut p = hit.normal * self.ray_force(ray);
            if self.front_collisions && !matches!(ray.kind, RayKind::Lateral(_)) && is_frontal(p, dir) {
                let side = Side::of(dir, Vec2::ZERO, -hit.normal).unwrap_or_else(|| Side::random(rng));
                p += side.unit(dir) * (p.length() * 0.5);
            }
            if self.tree_collisions && lone_oblique && same_half_plane(p, ray.dir, dir) {
                p = mirror(p, dir);
            }
            force += p;
        }
        SteeringOutput {
            force,
            ..SteeringOutput::default()
        }
    }

    /// |pᵢ| = W·F·(2D/R)^O for a hitting ray.
    pub fn ray_force(&self, ray: &BodyRay) -> f32 {
        let immersion = ray.hit.map_or(0.0, |h| h.immersion(ray.length));
        ray_weight(ray.kind) * self.repulsive_force * (2.0 * immersion / ray.length).powf(self.force_order)
    }
}

/// W: 1 for the front ray, 0.8 oblique, 0.5 side.
fn ray_weight(kind: RayKind) -> f32 {
    match kind {
        RayKind::Front => 1.0,
        RayKind::Oblique(_) => 0.8,
        RayKind::Lateral(_) => 0.5,
    }
}

/// True when `p` is within 3° of straight against `dir`.
fn is_frontal(p: Vec2, dir: Vec2) -> bool {
    p.length_squared() > 0.0 && dir.angle_to(p).abs().to_degrees() >= FRONTAL_DEG
}

/// True when `p` and `ray` point into the same half-plane of the line along `dir`.
fn same_half_plane(p: Vec2, ray: Vec2, dir: Vec2) -> bool {
    dir.perp_dot(p) * dir.perp_dot(ray) > 0.0
}

/// `p` mirrored across the axis along unit `dir`.
fn mirror(p: Vec2, dir: Vec2) -> Vec2 {
    dir * (2.0 * p.dot(dir)) - p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::RayHit;
    use rand::SeedableRng;

    fn ray(kind: RayKind, dir: Vec2, distance: f32, normal: Vec2) -> BodyRay {
        BodyRay {
            kind,
            dir,
            length: 3.0,
            hit: Some(RayHit {
                distance,
                point: dir * distance,
                normal,
            }),
        }
    }

    fn basic() -> ObstacleAvoidance {
        ObstacleAvoidance {
            front_collisions: false,
            tree_collisions: false,
            ..ObstacleAvoidance::default()
        }
    }

    #[test]
    fn half_immersion_gives_weight_times_force() {
        let oa = ObstacleAvoidance {
            force_order: 3.0,
            ..basic()
        };
        for (kind, w) in [
            (RayKind::Front, 1.0),
            (RayKind::Oblique(Side::Left), 0.8),
            (RayKind::Lateral(Side::Right), 0.5),
        ] {
            let r = ray(kind, Vec2::X, 1.5, -Vec2::X);
            assert!((oa.ray_force(&r) - w * 2.4).abs() < 1e-5, "{kind:?}");
        }
        let near = ray(RayKind::Front, Vec2::X, 0.75, -Vec2::X);
        assert!(
            (basic().ray_force(&near) - 2.4 * 1.5).abs() < 1e-5,
            "linear order grows nearer"
        );
    }

    #[test]
    fn front_collision_adds_a_half_rotation_towards_the_approach_side() {
        let mut rng = Pcg32::seed_from_u64(1);
        // Heading +x at a wall whose normal leans 1° so that the velocity is 179° from it, to its left.
        let normal = -Vec2::from_angle(-1f32.to_radians());
        let wall = [ray(RayKind::Front, Vec2::X, 1.5, normal)];
        let plain = basic().combine_rays(&wall, Vec2::X, &mut rng).force;
        assert!((plain - normal * 2.4).length() < 1e-5);
        let fc = ObstacleAvoidance {
            front_collisions: true,
            ..basic()
        };
        let turned = fc.combine_rays(&wall, Vec2::X, &mut rng).force;
        assert!(
            ((turned - plain) - Vec2::new(0.0, 1.2)).length() < 1e-5,
            "left rotation of half |p|: {turned}"
        );
    }

    #[test]
    fn lone_oblique_hit_on_a_tree_is_mirrored() {
        let mut rng = Pcg32::seed_from_u64(1);
        let left = Vec2::from_angle(15f32.to_radians());
        // The tree's normal at the hit points up-left (same half-plane as the left ray).
        let tree = [ray(RayKind::Oblique(Side::Left), left, 1.5, Vec2::new(-0.6, 0.8))];
        let basic_force = basic().combine_rays(&tree, Vec2::X, &mut rng).force;
        assert!(basic_force.y > 0.0, "basic: pushed further left, round the far side");
        let trees = ObstacleAvoidance {
            tree_collisions: true,
            ..basic()
        };
        let mirrored = trees.combine_rays(&tree, Vec2::X, &mut rng).force;
        assert!(mirrored.y < 0.0 && (mirrored.x - basic_force.x).abs() < 1e-5);
    }
}
