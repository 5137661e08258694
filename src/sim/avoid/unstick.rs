//! The stuck-agent remedy ([`Unstick`]): an agent that avoidance has held still short of its
//! goal for a while sidesteps, its preferred velocity turned to the right for a moment, and
//! re-plans its route. The decision reads only the agent's own velocity and memory, and its one
//! random draw comes from the agent's seeded generator, so runs stay bit-identical.

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use crate::scene::avoidance::Unstick;

/// Longest extra sidestep, as a fraction of `hold`, drawn per sidestep so neighbours stuck
/// together do not all turn back at the same tick.
const HOLD_JITTER: f32 = 0.5;

/// An agent's record of standing still, owned by the agent.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StallMemory {
    /// Seconds the agent has stood still so far.
    still: f32,
    /// Seconds left of the current sidestep (0 when not sidestepping).
    sidestep: f32,
}

/// What the remedy decided for one tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sidestep {
    /// The preferred velocity to avoid with.
    pub preferred: Vec2,
    /// True on the tick the agent became stuck: its route should be re-planned.
    pub replan: bool,
}

impl Unstick {
    /// The preferred velocity of an agent that would like `preferred` (cruising speed
    /// `preferred_speed`), `seeking` a goal it has not reached, where `moves(speed)` tells
    /// whether it or one of its neighbours walks at least `speed` (a deadlock holds them all
    /// still; asked only when it matters): `preferred`
    /// turned clockwise by `turn_deg` while it sidesteps, unchanged otherwise. `memory` is the
    /// agent's own; `rng` its generator (one draw when a sidestep starts).
    #[allow(clippy::too_many_arguments)]
    pub fn sidestep(
        &self,
        memory: &mut StallMemory,
        preferred: Vec2,
        moves: impl FnOnce(f32) -> bool,
        preferred_speed: f32,
        seeking: bool,
        dt: f32,
        rng: &mut Pcg32,
    ) -> Sidestep {
        let unchanged = Sidestep {
            preferred,
            replan: false,
        };
        if !self.enabled() || !seeking {
            *memory = StallMemory::default();
            return unchanged;
        }
        let turned = || Vec2::from_angle(-self.turn_deg.to_radians()).rotate(preferred);
        if memory.sidestep > 0.0 {
            memory.sidestep -= dt;
            return Sidestep {
                preferred: turned(),
                replan: false,
            };
        }
        if !moves(self.slow_fraction * preferred_speed) {
            memory.still += dt;
        } else {
            memory.still = 0.0;
        }
        if memory.still < self.after {
            return unchanged;
        }
        memory.still = 0.0;
        memory.sidestep = self.hold * (1.0 + HOLD_JITTER * rng.random::<f32>()) - dt;
        Sidestep {
            preferred: turned(),
            replan: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    const DT: f32 = 0.1;

    /// Runs `ticks` ticks at `speed`, returning the last decision.
    fn run(unstick: &Unstick, memory: &mut StallMemory, speed: f32, ticks: usize, seeking: bool) -> Sidestep {
        let mut rng = Pcg32::seed_from_u64(3);
        let mut last = None;
        for _ in 0..ticks {
            last = Some(unstick.sidestep(memory, Vec2::X, |s| speed >= s, 1.0, seeking, DT, &mut rng));
        }
        last.unwrap()
    }

    #[test]
    fn an_agent_held_still_turns_right_and_replans_once_then_walks_on() {
        let unstick = Unstick::default();
        let mut memory = StallMemory::default();
        let waiting = run(&unstick, &mut memory, 0.0, 19, true);
        assert_eq!(waiting.preferred, Vec2::X, "not stuck before {} s", unstick.after);
        let stuck = run(&unstick, &mut memory, 0.0, 1, true);
        assert!(stuck.replan);
        assert!((stuck.preferred - Vec2::new(0.0, -1.0)).length() < 1e-6, "{stuck:?}");
        let holding = run(&unstick, &mut memory, 0.0, 14, true);
        assert!(
            !holding.replan && holding.preferred.y < -0.99,
            "still sidestepping: {holding:?}"
        );
        let after = run(&unstick, &mut memory, 0.0, 8, true);
        assert_eq!(after.preferred, Vec2::X, "a sidestep ends within 1.5 × hold: {after:?}");
    }

    #[test]
    fn walking_arrived_or_switched_off_agents_are_left_alone() {
        let mut memory = StallMemory::default();
        let slow_but_moving = run(&Unstick::default(), &mut memory, 0.05, 100, true);
        assert_eq!(slow_but_moving.preferred, Vec2::X);
        let arrived = run(&Unstick::default(), &mut memory, 0.0, 100, false);
        assert_eq!(arrived.preferred, Vec2::X);
        let off = Unstick {
            after: 0.0,
            ..Unstick::default()
        };
        assert_eq!(run(&off, &mut memory, 0.0, 100, true).preferred, Vec2::X);
    }
}
