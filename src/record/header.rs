//! The recording header: the scene the run came from plus the label and state tables.

use serde::{Deserialize, Serialize};

use crate::scene::Scene;

/// Everything needed to interpret a recording's frames without any other file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordingHeader {
    /// The scene the recording was made from (seed included), so a recording replays alone.
    pub scene: Scene,
    /// Names of the behaviour forces (index = `ForceSample::label`).
    pub labels: Vec<String>,
    /// Names of the mind states (index = `AgentSample::state`).
    pub states: Vec<String>,
    /// Tick length in seconds.
    pub dt: f32,
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
}
