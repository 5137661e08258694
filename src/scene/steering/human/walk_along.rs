//! Parameters of Popelová's WALK ALONG (§3.7, Table 3.7): the partner, partner force, ideal gap
//! and the *Give Way* and *Wait for Partner* extensions, with their defaults and validation. The
//! steering is computed by the simulator (`sim::steer::human`).

use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// Parameters of walk along (Table 3.7; metres, forces in m/s = N_UT/100).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WalkAlong {
    /// Scene id of the partner (who must run walk along with the same parameters).
    pub partner: u32,
    /// Partner Force F (thesis 0–1000 N_UT; 200 N_UT = 2.0).
    #[serde(default = "partner_force")]
    pub partner_force: f32,
    /// Ideal gap D in metres (100–250 cm close, 250–400 less close, > 400 dislike).
    #[serde(default = "partner_distance")]
    pub distance: f32,
    /// Step off the axis to resolve walking in single file.
    #[serde(default)]
    pub give_way: bool,
    /// Wait on the route for a partner far behind.
    #[serde(default)]
    pub wait_for_partner: bool,
}

fn partner_force() -> f32 {
    2.0
}
fn partner_distance() -> f32 {
    1.5
}

impl WalkAlong {
    /// Reports parameters outside the thesis's ranges.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        problems.non_negative(format!("{at}.partner_force"), self.partner_force);
        problems.within(format!("{at}.distance"), self.distance, 0.01, 20.0);
    }
}
