//! The compiled agent table a recording carries in its header: every agent that can appear in
//! the run (placed and spawned alike) with what it *is* — profile, body radius, speed cap, agent
//! type, goal — and the compiled profiles with their force labels and sensing range. Drawing,
//! exporting and analysing read this table and never go back to the scene or the simulator to
//! guess it.

use std::collections::HashMap;

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::scene::Goal;

/// A profile as the simulator compiled it (flocking presets expanded, units resolved).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileEntry {
    /// The profile's name in the scene.
    pub name: String,
    /// Body radius in metres.
    pub radius: f32,
    /// Speed cap in m/s.
    pub max_speed: f32,
    /// The largest neighbour radius its behaviours and avoidance method look at (0 = none).
    pub sensing_radius: f32,
    /// Recording label index of each behaviour, in the order its forces are recorded.
    pub force_labels: Vec<u16>,
}

/// One agent that can appear in the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentEntry {
    /// The agent's id (u32 end to end).
    pub id: u32,
    /// Index of its profile at the start of the run in [`AgentTable::profiles`]; a conversion
    /// later in the run is recorded in the frames ([`crate::record::AgentSample::profile`]).
    pub profile: u32,
    /// Agent type name (the state machine driving it), if any.
    pub agent_type: Option<String>,
    /// Its goal (a placed agent's own, a spawned agent's group's).
    pub goal: Goal,
    /// True when a spawn group created it (not placed in the scene).
    pub spawned: bool,
    /// Where it is scheduled to appear, metres (a spawned agent whose place is taken then
    /// appears at another slot of its gate: the frames give where it did).
    pub position: Vec2,
    /// Simulation time (s) at which it is scheduled to appear (a spawned agent whose place is
    /// taken waits: its `Appeared` event gives when it did).
    pub start_time: f32,
}

/// Every agent and compiled profile of a run, with a lookup by id.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct AgentTable {
    /// The compiled profiles, indexed like the scene's profiles.
    pub profiles: Vec<ProfileEntry>,
    /// Every agent that can appear, in simulation order (placed, then spawned).
    pub agents: Vec<AgentEntry>,
    #[serde(skip)]
    by_id: HashMap<u32, usize>,
}

impl PartialEq for AgentTable {
    fn eq(&self, other: &AgentTable) -> bool {
        self.profiles == other.profiles && self.agents == other.agents
    }
}

impl AgentTable {
    /// The table of `agents` over `profiles`, indexed by id.
    pub fn new(profiles: Vec<ProfileEntry>, agents: Vec<AgentEntry>) -> AgentTable {
        let mut table = AgentTable {
            profiles,
            agents,
            by_id: HashMap::new(),
        };
        table.reindex();
        table
    }

    /// Rebuilds the id lookup (after deserialising).
    pub fn reindex(&mut self) {
        self.by_id = self.agents.iter().enumerate().map(|(i, a)| (a.id, i)).collect();
    }

    /// Why the table cannot describe its run: a duplicate id or a profile index out of range.
    pub fn check(&self) -> Result<(), String> {
        if self.by_id.len() != self.agents.len() {
            return Err("the agent table lists an agent id twice".into());
        }
        if let Some(a) = self.agents.iter().find(|a| a.profile as usize >= self.profiles.len()) {
            return Err(format!(
                "agent {} has profile {} but the table holds {} profile(s)",
                a.id,
                a.profile,
                self.profiles.len()
            ));
        }
        Ok(())
    }

    /// The entry of agent `id`.
    pub fn agent(&self, id: u32) -> Option<&AgentEntry> {
        self.by_id.get(&id).map(|&i| &self.agents[i])
    }

    /// Compiled profile number `index`.
    pub fn profile(&self, index: u32) -> Option<&ProfileEntry> {
        self.profiles.get(index as usize)
    }

    /// The name of profile `index`, or `"?"` outside the table.
    pub fn profile_name(&self, index: u32) -> &str {
        self.profile(index).map_or("?", |p| p.name.as_str())
    }

    /// Number of agents that can appear in the run.
    pub fn len(&self) -> usize {
        self.agents.len()
    }

    /// True when the run has no agent at all.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }
}
