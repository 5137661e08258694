//! Where the preferred velocity comes from.
//!
//! By default it is the steering layer's result integrated for one tick (v + F/m·dt, truncated
//! to max speed). RVO2's examples instead set it straight from the goal every step; the
//! `TowardGoal` mode reproduces that: the vector to the goal point per second, at most the
//! profile's `preferred_speed` long — RVO2's "unit vector toward the goal, shorter within 1 m"
//! when the preferred speed is 1 m/s. The steering behaviours are still evaluated and recorded
//! in that mode, but they do not move the agent.

use glam::Vec2;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

use crate::geom::truncate;
use crate::scene::avoidance::PreferredVelocity;
use crate::sim::locomotion::preferred_velocity;
use crate::sim::{Body, ResolvedProfile};

impl PreferredVelocity {
    /// The preferred velocity of `body` this tick (`tick`, scene `seed`): the steering `force`
    /// integrated over `dt`, or the RVO2 goal velocity toward `goal`.
    #[allow(clippy::too_many_arguments)]
    pub fn velocity(
        &self,
        body: &Body,
        goal: Option<Vec2>,
        force: Vec2,
        profile: &ResolvedProfile,
        dt: f32,
        seed: u64,
        tick: u64,
    ) -> Vec2 {
        match *self {
            PreferredVelocity::Steering => preferred_velocity(body, force, profile, dt),
            PreferredVelocity::TowardGoal { perturbation } => toward_goal(
                body.position,
                goal,
                profile.preferred_speed,
                perturbation,
                &mut agent_rng(seed, body.id, tick),
            ),
        }
    }
}

/// RVO2's goal-directed preferred velocity: `goal − position` per second, at most `speed` long,
/// zero without a goal, plus the perturbation drawn from the agent's generator for this tick.
pub fn toward_goal(position: Vec2, goal: Option<Vec2>, speed: f32, perturbation: f32, rng: &mut Pcg32) -> Vec2 {
    let base = goal.map_or(Vec2::ZERO, |g| truncate(g - position, speed));
    if perturbation > 0.0 {
        let angle = rng.random::<f32>() * std::f32::consts::TAU;
        let length = rng.random::<f32>() * perturbation;
        base + Vec2::from_angle(angle) * length
    } else {
        base
    }
}

/// The generator of agent `id` at `tick`, seeded from the scene seed only (same at any thread count).
pub fn agent_rng(seed: u64, id: u32, tick: u64) -> Pcg32 {
    Pcg32::seed_from_u64(seed ^ (u64::from(id) << 32).wrapping_add(tick.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rvo2_unit_vector_toward_goal_shorter_within_one_metre() {
        let mut rng = agent_rng(1, 0, 0);
        let far = toward_goal(Vec2::ZERO, Some(Vec2::new(0.0, 10.0)), 1.0, 0.0, &mut rng);
        assert_eq!(far, Vec2::new(0.0, 1.0));
        let near = toward_goal(Vec2::ZERO, Some(Vec2::new(0.3, 0.4)), 1.0, 0.0, &mut rng);
        assert_eq!(near, Vec2::new(0.3, 0.4));
        assert_eq!(toward_goal(Vec2::ONE, None, 1.0, 0.0, &mut rng), Vec2::ZERO);
    }

    #[test]
    fn perturbation_is_bounded_and_reproducible() {
        let goal = Some(Vec2::new(5.0, 0.0));
        let a = toward_goal(Vec2::ZERO, goal, 1.0, 1e-4, &mut agent_rng(7, 3, 11));
        let b = toward_goal(Vec2::ZERO, goal, 1.0, 1e-4, &mut agent_rng(7, 3, 11));
        assert_eq!(a, b);
        assert!(a != Vec2::X && (a - Vec2::X).length() <= 1e-4);
    }
}
