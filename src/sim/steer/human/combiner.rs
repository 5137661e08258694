//! Popelová's combiner (§4.2): the weighted mean of the non-zero steering outputs and the previous
//! velocity,
//!   v_t = (a·v_{t−1} + Σ bᵢ·sᵢ) / k,  k = a + Σ_{sᵢ ≠ 0} bᵢ,  a = max(1, min(2, 3 − |v_{t−1}|/v_walk)),
//! so a constant force F alone settles at |v| = F, and running decays back to walking.
//! - A **stop request** from the only active steering adds the stop vector −a·v_{t−1}, which
//!   cancels the weighted old velocity; with other active steerings it is ignored (§4.3.2).
//! - A **deceleration** share s adds −s·a·v_{t−1} (negative s accelerates). Request vectors are
//!   added unweighted, so a stop cancels the motion exactly whatever the steering's weight.
//! - **Speed boost** (§4.3.1): when every steering votes for it and 0 < |v_t| < v_walk, v_t is
//!   raised to v_walk.
//! - The result is multiplied by the velocity multiplier.
//! - The speed-scaling function f of §2.2 "forbids small walking speeds"; its curve is not given
//!   (§7.13), so a moving agent is simply kept at `min_speed` at least (a stop is exact zero).
//!   Without it an agent braked by a wall would crawl; with it, it slides along the wall.
//!
//! The formula is one update per 250 ms tick; with another scene dt the velocity moves the share
//! min(1, dt / tick) of the way to v_t, so dt = 0.25 s reproduces the thesis exactly.

use glam::Vec2;

use super::output::SteeringOutput;
use crate::scene::steering::human::PopelovaCombiner;

/// The combined decision: the new velocity and, after a stop, the point to face.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HumanDecision {
    /// Velocity for the next tick, m/s.
    pub velocity: Vec2,
    /// Where to look after stopping.
    pub face: Option<Vec2>,
}

/// a = max(1, min(2, 3 − |v|/v_walk)).
pub fn previous_velocity_factor(speed: f32, walk_speed: f32) -> f32 {
    (3.0 - speed / walk_speed).clamp(1.0, 2.0)
}

impl PopelovaCombiner {
    /// Combines `(weight, output)` pairs given the previous velocity `v`, for a tick of `dt`.
    pub fn combine(&self, v: Vec2, outputs: &[(f32, SteeringOutput)], dt: f32) -> HumanDecision {
        let a = previous_velocity_factor(v.length(), self.walk_speed);
        let active: Vec<&(f32, SteeringOutput)> = outputs.iter().filter(|(_, o)| o.is_active()).collect();
        let lone_stop = match active.as_slice() {
            [(_, o)] => o.stop,
            _ => None,
        };
        let mut sum = v * a;
        let mut k = a;
        for (b, o) in &active {
            sum += o.force * *b;
            k += b;
            let share = if lone_stop.is_some() { 1.0 } else { o.deceleration };
            sum -= v * (a * share);
        }
        let mut target = sum / k;
        let speed = target.length();
        if outputs.iter().all(|(_, o)| o.boost) && speed > 0.0 && speed < self.walk_speed {
            target *= self.walk_speed / speed;
        }
        target *= self.velocity_multiplier;
        let velocity = if lone_stop.is_some() {
            target
        } else {
            let blended = v + (target - v) * (dt / self.tick).min(1.0);
            let speed = blended.length();
            if speed > 0.0 && speed < self.min_speed {
                blended * (self.min_speed / speed)
            } else {
                blended
            }
        };
        HumanDecision {
            velocity,
            face: lone_stop.flatten(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn force(x: f32, y: f32) -> SteeringOutput {
        SteeringOutput {
            force: Vec2::new(x, y),
            ..SteeringOutput::default()
        }
    }

    #[test]
    fn a_factor_is_two_at_walking_speed_and_one_when_running() {
        assert_eq!(previous_velocity_factor(0.0, 2.2), 2.0);
        assert_eq!(previous_velocity_factor(2.2, 2.2), 2.0);
        assert!((previous_velocity_factor(3.3, 2.2) - 1.5).abs() < 1e-6);
        assert_eq!(previous_velocity_factor(4.4, 2.2), 1.0);
        assert_eq!(previous_velocity_factor(9.0, 2.2), 1.0);
    }

    #[test]
    fn weighted_mean_of_non_zero_outputs() {
        let c = PopelovaCombiner::default();
        // v = (2.2, 0): a = 2; outputs (0, 3)·1 and a zero one (not counted): k = 3.
        let out = c.combine(
            Vec2::new(2.2, 0.0),
            &[(1.0, force(0.0, 3.0)), (5.0, force(0.0, 0.0))],
            0.25,
        );
        assert!((out.velocity - Vec2::new(4.4 / 3.0, 1.0)).length() < 1e-5);
        // A single constant force settles at |v| = F.
        let mut v = Vec2::ZERO;
        for _ in 0..200 {
            v = c.combine(v, &[(1.0, force(1.0, 0.0))], 0.25).velocity;
        }
        assert!((v.x - 1.0).abs() < 1e-4);
    }

    #[test]
    fn lone_stop_vector_cancels_motion_and_faces() {
        let c = PopelovaCombiner::default();
        let out = c.combine(Vec2::new(1.5, 0.5), &[(2.0, SteeringOutput::stop(Some(Vec2::Y)))], 0.1);
        assert_eq!(out.velocity, Vec2::ZERO);
        assert_eq!(out.face, Some(Vec2::Y));
        let busy = c.combine(
            Vec2::new(1.5, 0.0),
            &[(1.0, SteeringOutput::stop(None)), (1.0, force(0.0, 1.0))],
            0.25,
        );
        assert!(
            busy.velocity.length() > 0.5,
            "a stop with other active steerings is ignored"
        );
    }

    #[test]
    fn deceleration_slows_and_boost_restores_walking_speed() {
        let c = PopelovaCombiner::default();
        let braking = SteeringOutput {
            deceleration: 0.5,
            ..SteeringOutput::default()
        };
        let out = c.combine(Vec2::new(2.0, 0.0), &[(1.0, braking)], 0.25);
        // a = 2.0909…; (a·2 − 0.5·a·2)/(a + 1) = a/(a + 1).
        let a = previous_velocity_factor(2.0, 2.2);
        assert!((out.velocity.x - a / (a + 1.0)).abs() < 1e-5);
        let agree = SteeringOutput::force(Vec2::new(0.5, 0.0));
        let boosted = c.combine(Vec2::ZERO, &[(1.0, agree)], 0.25);
        assert!((boosted.velocity.length() - 2.2).abs() < 1e-5);
    }

    #[test]
    fn shorter_ticks_move_part_of_the_way() {
        let c = PopelovaCombiner::default();
        let full = c.combine(Vec2::ZERO, &[(1.0, force(3.0, 0.0))], 0.25).velocity;
        let part = c.combine(Vec2::ZERO, &[(1.0, force(3.0, 0.0))], 0.125).velocity;
        assert!((part - full * 0.5).length() < 1e-6);
    }
}
