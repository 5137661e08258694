//! Where a profile's preferred velocity comes from, as written in a scene file: the steering
//! layer's result (the default) or, as in RVO2's examples, straight from the goal with an optional
//! random perturbation; with its validation. The velocity is computed by the simulator
//! (`sim::avoid`).

use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// How a profile forms its preferred velocity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum PreferredVelocity {
    /// Integrate the combined steering force for one tick.
    #[default]
    Steering,
    /// Head straight for the goal point at the preferred speed (slower within one second of it),
    /// plus a random vector of length ≤ `perturbation` m/s (RVO2's Blocks uses 1e-4 to break symmetry).
    TowardGoal {
        /// Largest length (m/s) of the random perturbation; 0 for none.
        perturbation: f32,
    },
}

impl PreferredVelocity {
    /// Reports invalid parameters under the field path `at`.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        if let PreferredVelocity::TowardGoal { perturbation } = self {
            problems.non_negative(format!("{at}.TowardGoal.perturbation"), *perturbation);
        }
    }
}
