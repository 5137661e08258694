//! Settings of imported IndAlgoTest elements that crowdlab does not simulate yet, kept in the
//! scene so that `crowdlab export-scene --iascene` writes them back unchanged.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What an IndAlgoTest scene + configuration carried beyond crowdlab's own model.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndAlgoKeep {
    /// `.iaconf` reaction distance (m) per agent id: the distance beyond both radii within which
    /// IndAlgoTest builds velocity obstacles. Not used by crowdlab's simulation (no profile field
    /// for it exists yet); kept for the export back.
    #[serde(default)]
    pub react_distance: BTreeMap<u32, f32>,
    /// IndAlgoTest element index of each obstacle, keyed by its position in `Scene::obstacles`.
    #[serde(default)]
    pub obstacle_index: BTreeMap<u32, u32>,
    /// `.iaconf` active time span `(start, end)` in seconds per obstacle element index. Not
    /// simulated (crowdlab obstacles exist for the whole run); kept for the export back.
    #[serde(default)]
    pub obstacle_time_span: BTreeMap<u32, (f32, f32)>,
}
