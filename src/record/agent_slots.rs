//! Dense slot numbers for the agents of a run's frames, so that whatever follows each agent
//! through a run (its metrics, its last state) lives in plain vectors indexed by slot instead of
//! maps keyed by id, looked up for every agent of every tick.

use rustc_hash::FxHashMap;

use super::frame::AgentSample;

/// Gives every agent id met in a run a slot: 0, 1, 2, … in the order the ids are first met.
///
/// The simulator writes a frame's agents in the same order tick after tick, so [`assign`]
/// matches each agent against the one at its index in the previous frame first and hashes only
/// where that differs (after an agent appears or leaves, or in frames of any other order).
///
/// [`assign`]: AgentSlots::assign
#[derive(Clone, Debug, Default)]
pub struct AgentSlots {
    slot_of: FxHashMap<u32, u32>,
    /// The agents' ids of the frame assigned last, in its order.
    frame_ids: Vec<u32>,
    /// Their slots.
    frame_slots: Vec<u32>,
}

impl AgentSlots {
    /// The slot of each of `agents`, in their order; ids not met before get the next slots.
    pub fn assign(&mut self, agents: &[AgentSample]) -> &[u32] {
        let matched = self.frame_ids.len().min(agents.len());
        self.frame_ids.resize(agents.len(), 0);
        self.frame_slots.resize(agents.len(), 0);
        for (i, agent) in agents.iter().enumerate() {
            if i < matched && self.frame_ids[i] == agent.id {
                continue;
            }
            self.frame_ids[i] = agent.id;
            self.frame_slots[i] = self.slot_or_new(agent.id);
        }
        &self.frame_slots
    }

    /// The slot of agent `id`, given it now if it has none.
    pub fn slot_or_new(&mut self, id: u32) -> u32 {
        let next = self.slot_of.len() as u32;
        *self.slot_of.entry(id).or_insert(next)
    }

    /// The slot of agent `id`, if it has one.
    pub fn slot(&self, id: u32) -> Option<u32> {
        self.slot_of.get(&id).copied()
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec2;

    use super::*;
    use crate::record::metrics::test_support::moving;

    fn agents(ids: &[u32]) -> Vec<AgentSample> {
        ids.iter().map(|&id| moving(id, Vec2::ZERO, Vec2::ZERO, 0)).collect()
    }

    #[test]
    fn slots_follow_first_meeting_and_stay_with_their_ids_whatever_the_order() {
        let mut slots = AgentSlots::default();
        assert_eq!(slots.assign(&agents(&[7, 3, 9])), [0, 1, 2]);
        assert_eq!(slots.assign(&agents(&[7, 3, 9])), [0, 1, 2], "the same order");
        assert_eq!(slots.assign(&agents(&[7, 9])), [0, 2], "3 left");
        assert_eq!(slots.assign(&agents(&[7, 9, 4])), [0, 2, 3], "4 appeared");
        assert_eq!(
            slots.assign(&agents(&[4, 3, 7, 9])),
            [3, 1, 0, 2],
            "another order, 3 back"
        );
        assert_eq!(slots.assign(&agents(&[])), [] as [u32; 0]);
        assert_eq!(slots.assign(&agents(&[9, 5])), [2, 4]);
        assert_eq!([7, 3, 9, 4, 5].map(|id| slots.slot(id)), [0, 1, 2, 3, 4].map(Some));
        assert_eq!(slots.slot(4), Some(3));
        assert_eq!(slots.slot(8), None);
        assert_eq!(slots.slot_or_new(8), 5);
        assert_eq!(slots.slot_or_new(7), 0);
    }

    #[test]
    fn ids_at_the_edge_of_the_range_get_slots_like_any_other() {
        let mut slots = AgentSlots::default();
        assert_eq!(slots.assign(&agents(&[u32::MAX, 0])), [0, 1]);
        assert_eq!(slots.assign(&agents(&[0, u32::MAX])), [1, 0]);
    }
}
