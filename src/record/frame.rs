//! One tick of a run: every present agent's recorded state, its labelled forces and the
//! contacts (overlaps) that exist after the tick.

use glam::Vec2;

use super::debug::AvoidanceDebug;

/// Flag bit: the agent has reached the end of its goal.
pub const FLAG_ARRIVED: u8 = 1;
/// Flag bit: the agent overlaps another agent or an obstacle by more than the contact tolerance.
pub const FLAG_COLLIDING: u8 = 2;

/// One agent's recorded state at the end of a tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AgentSample {
    /// Agent id (see the header's agent table).
    pub id: u32,
    /// Index of the agent's profile at this tick in the header's agent table (changes only by
    /// a conversion, which is also an [`AgentEvent`]).
    pub profile: u32,
    /// Position in metres.
    pub position: Vec2,
    /// Velocity in m/s.
    pub velocity: Vec2,
    /// Unit facing direction.
    pub heading: Vec2,
    /// The velocity steering asked for, before avoidance.
    pub preferred_velocity: Vec2,
    /// Combined steering force (after the combiner).
    pub steering: Vec2,
    /// Change avoidance made to the preferred velocity (chosen − preferred).
    pub avoidance: Vec2,
    /// Mind state index into the recording's state table.
    pub state: u16,
    /// [`FLAG_ARRIVED`], [`FLAG_COLLIDING`].
    pub flags: u8,
    /// First index of this agent's forces in [`Frame::forces`].
    pub force_start: u32,
    /// Number of this agent's forces.
    pub force_count: u16,
}

impl AgentSample {
    /// True when the agent has reached the end of its goal.
    pub fn arrived(&self) -> bool {
        self.flags & FLAG_ARRIVED != 0
    }

    /// True when the agent overlaps something after this tick.
    pub fn colliding(&self) -> bool {
        self.flags & FLAG_COLLIDING != 0
    }
}

/// One behaviour's recorded force.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ForceSample {
    /// Index into the recording's label table.
    pub label: u16,
    /// The weighted force the behaviour produced.
    pub force: Vec2,
    /// Share (0–1) of it the combiner kept.
    pub kept: f32,
}

/// What an agent is in contact with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContactWith {
    /// Another agent, by id.
    Agent(u32),
    /// A scene obstacle, by index in `Scene::obstacles`.
    Obstacle(u32),
}

/// An overlap deeper than the contact tolerance (each agent pair appears once, lower id first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The agent's id.
    pub agent: u32,
    /// What it overlaps.
    pub with: ContactWith,
    /// Penetration depth in metres.
    pub depth: f32,
}

/// Something that happened to an agent during a tick, besides moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentEvent {
    /// The agent appeared (its start time came).
    Appeared { agent: u32 },
    /// The agent reached the end of its goal.
    Arrived { agent: u32 },
    /// The agent left the run (removed on arrival, past its end time, out through an exit).
    Left { agent: u32 },
    /// A state machine converted the agent to another profile (indices in the agent table).
    ProfileChanged { agent: u32, from: u32, to: u32 },
}

impl AgentEvent {
    /// The id of the agent the event is about.
    pub fn agent(&self) -> u32 {
        match *self {
            AgentEvent::Appeared { agent }
            | AgentEvent::Arrived { agent }
            | AgentEvent::Left { agent }
            | AgentEvent::ProfileChanged { agent, .. } => agent,
        }
    }
}

/// The recorded state after one tick.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Frame {
    /// Tick number (0 = the initial state before any step).
    pub tick: u64,
    /// Simulation time in seconds.
    pub time: f32,
    /// Agents present in the scene, in id order of the scene.
    pub agents: Vec<AgentSample>,
    /// All agents' forces, sliced by [`AgentSample::force_start`] / `force_count`.
    pub forces: Vec<ForceSample>,
    /// Overlaps after the tick.
    pub contacts: Vec<Contact>,
    /// Avoidance explanations of the agents being debugged (usually none).
    pub debug: Vec<AvoidanceDebug>,
    /// What happened to agents during the tick, in agent order.
    pub events: Vec<AgentEvent>,
}

impl Frame {
    /// The forces recorded for `agent`.
    pub fn forces_of(&self, agent: &AgentSample) -> &[ForceSample] {
        let start = agent.force_start as usize;
        &self.forces[start..start + agent.force_count as usize]
    }

    /// The sample of the agent with `id`, if present this tick.
    pub fn agent(&self, id: u32) -> Option<&AgentSample> {
        self.agents.iter().find(|a| a.id == id)
    }
}
