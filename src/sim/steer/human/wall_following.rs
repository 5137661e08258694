//! WALL FOLLOWING (Popelová §3.5), with body rays only: front, oblique at ±30°, side rays at ±90°
//! (half length). Each hitting ray adds an attraction against the normal, F·(D/R)^O (zero for the
//! front ray), and once it is a third immersed a repulsion along the normal,
//! F·max(0, 2(R⅔ − D)/R⅔)^O (D = distance to the hit, R⅔ = ⅔R); the two balance at D = R/2.
//! A state machine (basic / left / right) remembers the side of the wall:
//! - basic → the side whose side or oblique ray hits (both sides → right); no left ↔ right;
//! - strongly concave corner (in state S neither S ray hits) → rotation towards S, and after more
//!   than 10 consecutive ones back to basic;
//! - strongly convex corner (front and S oblique ray hit) → rotation away from S.
//!
//! Rotation vectors have magnitude ¾F × the corner weight. The thesis gives none; ¾ is calibrated
//! on its §6.1.2 and §6.1.4 outcomes: with all weights 1 the agent keeps circling a building it
//! should leave (B), with Attractive and Concave 0.8 it detaches towards the target (C). At F the
//! rotation round an outer corner pulled C back onto the wall too; the window is about 0.7–0.8.
//! *Just My Side* ignores the other side's rays; *Front Collisions* applies obstacle avoidance's
//! fix in the basic state. Attractive / Repulsive / Concave / Convex weights scale their parts.

use glam::Vec2;
use rand_pcg::Pcg32;

use super::output::{Side, SteeringOutput, motion_direction};
use super::rays::{BodyRay, RayKind, cast_body_rays};
use crate::scene::steering::human::WallFollowing;
use crate::sim::steer::SteeringContext;

/// The wall-following state machine: which side the wall is on and the concave-corner count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WallState {
    /// `None` = basic state.
    pub side: Option<Side>,
    /// Consecutive concave-corner detections.
    pub concave_count: u32,
}

/// Concave detections after which the state returns to basic.
const MAX_CONCAVE: u32 = 10;
/// Angle of the oblique rays.
const OBLIQUE_DEG: f32 = 30.0;
/// Magnitude of a corner rotation vector as a fraction of Wall Force (before the corner weight).
const CORNER_ROTATION: f32 = 0.75;

impl WallFollowing {
    /// The steering output for this tick, updating `state`.
    pub fn steer(&self, ctx: &SteeringContext, state: &mut WallState, rng: &mut Pcg32) -> SteeringOutput {
        let rays = cast_body_rays(ctx, OBLIQUE_DEG, self.ray_length, 0.0);
        let dir = motion_direction(ctx.velocity(), ctx.body.heading);
        self.from_rays(&rays, dir, state, rng)
    }

    /// The output for cast `rays` and motion direction `dir`, updating `state`.
    pub fn from_rays(&self, rays: &[BodyRay], dir: Vec2, state: &mut WallState, rng: &mut Pcg32) -> SteeringOutput {
        let hits = |kind: RayKind| rays.iter().any(|r| r.kind == kind && r.hit.is_some());
        let side_hit = |s: Side| hits(RayKind::Oblique(s)) || hits(RayKind::Lateral(s));
        if state.side.is_none() {
            state.side = match (side_hit(Side::Left), side_hit(Side::Right)) {
                (_, true) => Some(Side::Right),
                (true, false) => Some(Side::Left),
                (false, false) => None,
            };
        }
        let mut force = Vec2::ZERO;
        for ray in rays.iter().filter(|r| r.hit.is_some()) {
            if self.just_my_side && state.side.is_some() && ray.side().is_some() && ray.side() != state.side {
                continue;
            }
            force += self.ray_force(ray, dir, state.side.is_none(), rng);
        }
        if let Some(s) = state.side {
            if !side_hit(s) {
                force += s.unit(dir) * (CORNER_ROTATION * self.wall_force * self.concave_weight);
                state.concave_count += 1;
                if state.concave_count > MAX_CONCAVE {
                    *state = WallState::default();
                }
            } else {
                state.concave_count = 0;
                if hits(RayKind::Front) && hits(RayKind::Oblique(s)) {
                    force += s.opposite().unit(dir) * (CORNER_ROTATION * self.wall_force * self.convex_weight);
                }
            }
        }
        SteeringOutput {
            force,
            boost: !hits(RayKind::Front),
            ..SteeringOutput::default()
        }
    }

    /// Attraction plus repulsion of one hitting ray (with the frontal fix in the basic state).
    fn ray_force(&self, ray: &BodyRay, dir: Vec2, basic: bool, rng: &mut Pcg32) -> Vec2 {
        let hit = ray.hit.expect("hitting ray");
        let (attraction, repulsion) = self.magnitudes(ray.kind, hit.distance, ray.length);
        let p = hit.normal * (repulsion - attraction);
        let frontal = p.length_squared() > 0.0 && dir.angle_to(p).abs().to_degrees() >= 177.0;
        if basic && self.front_collisions && !matches!(ray.kind, RayKind::Lateral(_)) && frontal {
            let side = Side::of(dir, Vec2::ZERO, -hit.normal).unwrap_or_else(|| Side::random(rng));
            return p + side.unit(dir) * (p.length() * 0.5);
        }
        p
    }

    /// (attraction, repulsion) magnitudes, weights applied, at distance `d` along a ray of `r`.
    pub fn magnitudes(&self, kind: RayKind, d: f32, r: f32) -> (f32, f32) {
        let o = self.force_order;
        let attraction = if kind == RayKind::Front {
            0.0
        } else {
            self.wall_force * (d / r).powf(o) * self.attractive_weight
        };
        let r23 = r * 2.0 / 3.0;
        let repulsion = self.wall_force * (2.0 * (r23 - d) / r23).max(0.0).powf(o) * self.repulsive_weight;
        (attraction, repulsion)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::RayHit;
    use rand::SeedableRng;

    #[test]
    fn attraction_and_repulsion_balance_at_half_the_ray() {
        let wf = WallFollowing {
            force_order: 2.0,
            ..WallFollowing::default()
        };
        let (a, r) = wf.magnitudes(RayKind::Oblique(Side::Left), 1.5, 3.0);
        assert!((a - r).abs() < 1e-5 && (a - 0.5).abs() < 1e-5);
        assert_eq!(
            wf.magnitudes(RayKind::Lateral(Side::Left), 2.5, 3.0).1,
            0.0,
            "no repulsion before ⅓"
        );
        assert_eq!(
            wf.magnitudes(RayKind::Front, 1.0, 3.0).0,
            0.0,
            "front ray never attracts"
        );
    }

    #[test]
    fn state_machine_takes_the_wall_side_and_turns_round_a_concave_corner() {
        let wf = WallFollowing::default();
        let mut rng = Pcg32::seed_from_u64(3);
        let mut state = WallState::default();
        let side_ray = |hit: bool| BodyRay {
            kind: RayKind::Lateral(Side::Left),
            dir: Vec2::Y,
            length: 1.5,
            hit: hit.then_some(RayHit {
                distance: 0.75,
                point: Vec2::new(0.0, 0.75),
                normal: -Vec2::Y,
            }),
        };
        let along = wf.from_rays(&[side_ray(true)], Vec2::X, &mut state, &mut rng);
        assert_eq!(state.side, Some(Side::Left));
        assert!(along.force.y.abs() < 1e-5, "balanced at half the side ray");
        let corner = wf.from_rays(&[side_ray(false)], Vec2::X, &mut state, &mut rng);
        assert!(
            (corner.force - Vec2::new(0.0, 1.5)).length() < 1e-5,
            "rotation of ¾F towards the wall side"
        );
        for _ in 0..MAX_CONCAVE {
            wf.from_rays(&[side_ray(false)], Vec2::X, &mut state, &mut rng);
        }
        assert_eq!(
            state,
            WallState::default(),
            "back to basic after more than 10 concave corners"
        );
    }
}
