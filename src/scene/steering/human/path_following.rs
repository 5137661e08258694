//! Parameters of Popelová's PATH FOLLOWING (§3.4, Table 3.4): path force, corridor half-width,
//! projection and regulation, with their defaults and validation. Basic behaviour is `projection`
//! 5 and `regulation` 0; the recommended extended setting is Distance 400 cm, Projection 15,
//! Regulation 50 N_UT. The steering is computed by the simulator (`sim::steer::human`).

use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// Parameters of path following (Table 3.4; metres, forces in m/s = N_UT/100).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct PathFollowing {
    /// Path Force F (thesis 0–1000 N_UT; 200 N_UT = 2.0).
    pub path_force: f32,
    /// Corridor half-width D in metres (thesis 0–1000 cm; 400 cm).
    pub distance: f32,
    /// Look-ahead in 250 ms ticks (0–50; 5 basic, 15 for smoothness).
    pub projection: f32,
    /// Regulation force along the edge (thesis 0–2000 N_UT; 50 N_UT = 0.5; 0 = basic).
    pub regulation: f32,
}

impl Default for PathFollowing {
    fn default() -> Self {
        PathFollowing {
            path_force: 2.0,
            distance: 4.0,
            projection: 15.0,
            regulation: 0.5,
        }
    }
}

impl PathFollowing {
    /// Reports parameters outside the thesis's ranges.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        problems.non_negative(format!("{at}.path_force"), self.path_force);
        problems.non_negative(format!("{at}.distance"), self.distance);
        problems.within(format!("{at}.projection"), self.projection, 0.0, 50.0);
        problems.non_negative(format!("{at}.regulation"), self.regulation);
    }
}
