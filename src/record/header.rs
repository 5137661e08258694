//! The recording header: the scene the run came from, the compiled agent table, the label and
//! state tables and the recording stride.

use serde::{Deserialize, Serialize};

use super::agents::{AgentTable, ProfileEntry};
use super::frame::AgentSample;
use crate::scene::Scene;

/// Everything needed to interpret a recording's frames without any other file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordingHeader {
    /// The scene the recording was made from (seed included), so a recording replays alone and
    /// its static geometry can be drawn.
    pub scene: Scene,
    /// Every agent that can appear and the compiled profiles (what each agent *is*).
    pub agents: AgentTable,
    /// Names of the behaviour forces (index = `ForceSample::label`).
    pub labels: Vec<String>,
    /// Names of the mind states (index = `AgentSample::state`).
    pub states: Vec<String>,
    /// Tick length in seconds.
    pub dt: f32,
    /// Every how many ticks a frame was recorded (1 = every tick).
    pub record_every: u32,
}

impl RecordingHeader {
    /// The label of force kind `label`, or `"?"` for an index outside the table.
    pub fn label(&self, label: u16) -> &str {
        self.labels.get(label as usize).map_or("?", String::as_str)
    }

    /// The name of mind state `state`, or `"?"` for an index outside the table.
    pub fn state(&self, state: u16) -> &str {
        self.states.get(state as usize).map_or("?", String::as_str)
    }

    /// The compiled profile `sample` had at its tick.
    pub fn profile_of(&self, sample: &AgentSample) -> Option<&ProfileEntry> {
        self.agents.profile(sample.profile)
    }

    /// Body radius of `sample`'s agent at its tick (0 if its profile is unknown).
    pub fn radius_of(&self, sample: &AgentSample) -> f32 {
        self.profile_of(sample).map_or(0.0, |p| p.radius)
    }

    /// Speed cap of `sample`'s agent at its tick (0 if its profile is unknown).
    pub fn max_speed_of(&self, sample: &AgentSample) -> f32 {
        self.profile_of(sample).map_or(0.0, |p| p.max_speed)
    }
}
