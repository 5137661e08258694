//! Stuck agents and deadlock: an unfinished agent is *stuck* once its speed has stayed below
//! [`STUCK_SPEED`] for [`STUCK_SECONDS`]; the crowd is *deadlocked* at the first tick in which at
//! least two unfinished agents are present and every one of them is stuck.
//!
//! "Unfinished" means present, goal-directed and not yet arrived (an arrived agent is at its goal,
//! an agent without a goal may stand still on purpose).

use std::collections::{BTreeMap, BTreeSet, HashSet};

use crate::record::Frame;
use crate::scene::{Goal, Scene};

/// Speed (m/s) below which an agent counts as standing still.
pub const STUCK_SPEED: f32 = 0.05;
/// Seconds of standing still after which an unfinished agent counts as stuck.
pub const STUCK_SECONDS: f32 = 5.0;

/// The placed agents of `scene` without a goal: they may stand still on purpose, so they are
/// never stuck.
pub fn goal_less_agents(scene: &Scene) -> HashSet<u32> {
    scene
        .agents
        .iter()
        .filter(|a| a.goal == Goal::None)
        .map(|a| a.id)
        .collect()
}

/// Tracks how long each agent has been standing still.
#[derive(Clone, Debug, Default)]
pub struct StuckDetector {
    still_since: BTreeMap<u32, f32>,
    ever_stuck: BTreeSet<u32>,
    deadlock_time: Option<f32>,
}

impl StuckDetector {
    /// Takes `frame` into account; `goal_directed(id)` tells whether the agent has a goal to reach.
    /// Returns how many agents are stuck in it.
    pub fn observe(&mut self, frame: &Frame, goal_directed: impl Fn(u32) -> bool) -> usize {
        let mut unfinished = 0usize;
        let mut stuck_now = 0usize;
        let mut present = HashSet::with_capacity(frame.agents.len());
        for a in frame.agents.iter().filter(|a| !a.arrived() && goal_directed(a.id)) {
            present.insert(a.id);
            unfinished += 1;
            if a.velocity.length() >= STUCK_SPEED {
                self.still_since.remove(&a.id);
                continue;
            }
            let since = *self.still_since.entry(a.id).or_insert(frame.time);
            if frame.time - since >= STUCK_SECONDS {
                self.ever_stuck.insert(a.id);
                stuck_now += 1;
            }
        }
        self.still_since.retain(|id, _| present.contains(id));
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
    use glam::Vec2;

    #[test]
    fn agents_still_for_long_enough_are_stuck_and_all_stuck_is_a_deadlock() {
        let mut detector = StuckDetector::default();
        // Ticks of 0.5 s: agent 0 stands from t = 0, agent 1 walks until t = 2 then stands.
        for tick in 0..=16u64 {
            let t = tick as f32 * 0.5;
            let v1 = if t <= 2.0 { Vec2::X } else { Vec2::ZERO };
            let agents = vec![moving(0, Vec2::ZERO, Vec2::ZERO, 0), moving(1, Vec2::Y, v1, 0)];
            let stuck_now = detector.observe(&frame(tick, agents, vec![]), |_| true);
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
        let mut detector = StuckDetector::default();
        for tick in 0..=20u64 {
            let agents = vec![moving(0, Vec2::ZERO, Vec2::ZERO, 0), moving(1, Vec2::Y, Vec2::ZERO, 0)];
            detector.observe(&frame(tick, agents, vec![]), |id| id == 1);
        }
        assert_eq!(detector.stuck_agents(), vec![1]);
        assert_eq!(detector.deadlock_time(), None, "one unfinished agent is not a deadlock");
    }
}
