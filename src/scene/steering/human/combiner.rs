//! Parameters of Popelová's weighted-mean combiner (§4.2): the base walking speed, the velocity
//! multiplier, the thesis's tick and the slowest walking speed, with their defaults and
//! validation. The combination itself is computed by the simulator (`sim::steer::human`).

use serde::{Deserialize, Serialize};

use super::{THESIS_TICK, WALK_SPEED};
use crate::scene::Problems;

/// Parameters of the weighted-mean combiner.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct PopelovaCombiner {
    /// Base walking speed v_walk in m/s (thesis 220 cm_UT/s).
    pub walk_speed: f32,
    /// Global velocity multiplier set by the decision layer.
    pub velocity_multiplier: f32,
    /// Length of the thesis's update tick in seconds (250 ms).
    pub tick: f32,
    /// Slowest walking speed f allows, m/s (0 = no floor).
    pub min_speed: f32,
}

impl Default for PopelovaCombiner {
    fn default() -> Self {
        PopelovaCombiner {
            walk_speed: WALK_SPEED,
            velocity_multiplier: 1.0,
            tick: THESIS_TICK,
            min_speed: 0.5,
        }
    }
}

impl PopelovaCombiner {
    /// Reports non-positive speeds and ticks.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        problems.positive(format!("{at}.walk_speed"), self.walk_speed);
        problems.non_negative(format!("{at}.velocity_multiplier"), self.velocity_multiplier);
        problems.positive(format!("{at}.tick"), self.tick);
        problems.non_negative(format!("{at}.min_speed"), self.min_speed);
    }
}
