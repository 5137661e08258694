//! Stuck agents and deadlock: an unfinished agent is *stuck* once its speed has stayed below
//! [`STUCK_SPEED`] for [`STUCK_SECONDS`]; the crowd is *deadlocked* at the first tick in which at
//! least two unfinished agents are present and every one of them is stuck.
//!
//! "Unfinished" means present, goal-directed and not yet arrived (an arrived agent is at its goal,
//! an agent without a goal may stand still on purpose).

use std::collections::BTreeSet;

use rustc_hash::FxHashSet;

use crate::record::Frame;
use crate::scene::{Goal, Scene};

/// Speed (m/s) below which an agent counts as standing still.
pub const STUCK_SPEED: f32 = 0.05;
/// Seconds of standing still after which an unfinished agent counts as stuck.
pub const STUCK_SECONDS: f32 = 5.0;

/// The placed agents of `scene` without a goal: they may stand still on purpose, so they are
/// never stuck.
pub fn goal_less_agents(scene: &Scene) -> FxHashSet<u32> {
    scene
        .agents
        .iter()
        .filter(|a| a.goal == Goal::None)
        .map(|a| a.id)
        .collect()
}

/// Since when an agent has stood still, as of one frame.
#[derive(Clone, Copy, Debug)]
struct Stillness {
    /// The number of the frame (counted by the detector) it was last seen still in; a streak
    /// seen last before the previous frame is broken.
    frame: u64,
    /// The simulation time the streak began at.
    since: f32,
    /// Whether the streak had made the agent stuck.
    stuck: bool,
}

/// Tracks how long each agent has been standing still.
#[derive(Clone, Debug, Default)]
pub struct StuckDetector {
    /// The streak of standing still of each agent, by slot (see [`AgentSlots`]).
    ///
    /// [`AgentSlots`]: crate::record::AgentSlots
    still: Vec<Option<Stillness>>,
    /// Frames observed.
    frames: u64,
    ever_stuck: BTreeSet<u32>,
    deadlock_time: Option<f32>,
}

impl StuckDetector {
    /// Takes `frame` into account, its agents having the slots `slots` (in their order);
    /// `goal_directed(slot)` tells whether the agent has a goal to reach. Returns how many agents
    /// are stuck in it.
    pub fn observe(&mut self, frame: &Frame, slots: &[u32], goal_directed: impl Fn(u32) -> bool) -> usize {
        self.frames += 1;
        let now = self.frames;
        let mut unfinished = 0usize;
        let mut stuck_now = 0usize;
        for (a, &slot) in frame.agents.iter().zip(slots) {
            if a.arrived() || !goal_directed(slot) {
                continue;
            }
            unfinished += 1;
            let slot = slot as usize;
            if self.still.len() <= slot {
                self.still.resize(slot + 1, None);
            }
            if a.velocity.length() >= STUCK_SPEED {
                self.still[slot] = None;
                continue;
            }
            // A streak goes on from the previous frame (or from this one, for an id met twice in it).
            let streak = self.still[slot].filter(|s| s.frame + 1 >= now);
            let since = streak.map_or(frame.time, |s| s.since);
            let stuck = frame.time - since >= STUCK_SECONDS;
            if stuck {
                stuck_now += 1;
                if !streak.is_some_and(|s| s.stuck) {
                    self.ever_stuck.insert(a.id);
                }
            }
            self.still[slot] = Some(Stillness {
                frame: now,
                since,
                stuck,
            });
        }
        if self.deadlock_time.is_none() && unfinished >= 2 && stuck_now == unfinished {
            self.deadlock_time = Some(frame.time);
        }
        stuck_now
    }

    /// Ids of the agents that were stuck at some point, ascending.
    pub fn stuck_agents(&self) -> Vec<u32> {
        self.ever_stuck.iter().copied().collect()
    }

    /// The first time the crowd was deadlocked, if ever.
    pub fn deadlock_time(&self) -> Option<f32> {
        self.deadlock_time
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{frame, moving};
    use super::*;
    use crate::record::AgentSlots;
    use glam::Vec2;

    /// Observes `frame` with the slots `slots` gives its agents.
    fn observe(
        detector: &mut StuckDetector,
        slots: &mut AgentSlots,
        frame: &Frame,
        goal_directed: impl Fn(u32) -> bool,
    ) -> usize {
        let frame_slots = slots.assign(&frame.agents).to_vec();
        detector.observe(frame, &frame_slots, goal_directed)
    }

    #[test]
    fn agents_still_for_long_enough_are_stuck_and_all_stuck_is_a_deadlock() {
        let (mut detector, mut slots) = (StuckDetector::default(), AgentSlots::default());
        // Ticks of 0.5 s: agent 0 stands from t = 0, agent 1 walks until t = 2 then stands.
        for tick in 0..=16u64 {
            let t = tick as f32 * 0.5;
            let v1 = if t <= 2.0 { Vec2::X } else { Vec2::ZERO };
            let agents = vec![moving(0, Vec2::ZERO, Vec2::ZERO, 0), moving(1, Vec2::Y, v1, 0)];
            let stuck_now = observe(&mut detector, &mut slots, &frame(tick, agents, vec![]), |_| true);
            // Agent 0 is stuck from t = 5 s, agent 1 from t = 7.5 s (still since 2.5 s).
            let expected = usize::from(t >= 5.0) + usize::from(t >= 7.5);
            assert_eq!(stuck_now, expected, "stuck at t = {t}");
            if t == 5.0 {
                assert_eq!(detector.stuck_agents(), vec![0]);
                assert_eq!(detector.deadlock_time(), None);
            }
        }
        assert_eq!(detector.stuck_agents(), vec![0, 1]);
        assert_eq!(
            detector.deadlock_time(),
            Some(7.5),
            "agent 1 still from 2.5 s, stuck at 7.5 s"
        );
    }

    #[test]
    fn agents_without_a_goal_are_never_stuck() {
        let (mut detector, mut slots) = (StuckDetector::default(), AgentSlots::default());
        for tick in 0..=20u64 {
            let agents = vec![moving(0, Vec2::ZERO, Vec2::ZERO, 0), moving(1, Vec2::Y, Vec2::ZERO, 0)];
            // Agent 1 has slot 1.
            observe(&mut detector, &mut slots, &frame(tick, agents, vec![]), |slot| {
                slot == 1
            });
        }
        assert_eq!(detector.stuck_agents(), vec![1]);
        assert_eq!(detector.deadlock_time(), None, "one unfinished agent is not a deadlock");
    }
}
