//! Parameters of Popelová's WALL FOLLOWING (§3.5, Table 3.5): wall force, force order, the
//! attractive / repulsive / concave / convex weights, *Just My Side*, *Front Collisions* and the
//! ray length, with their defaults and validation. The steering is computed by the simulator
//! (`sim::steer::human`).

use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// Parameters of wall following (Table 3.5; metres, forces in m/s = N_UT/100).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct WallFollowing {
    /// Wall Force F (thesis 0–1000 N_UT; 200 N_UT = 2.0).
    pub wall_force: f32,
    /// Force Order O, 1–10.
    pub force_order: f32,
    /// Weight of the attraction to the wall, 0–10.
    pub attractive_weight: f32,
    /// Weight of the repulsion from the wall, 0–10.
    pub repulsive_weight: f32,
    /// Weight of the concave-corner rotation, 0–10.
    pub concave_weight: f32,
    /// Weight of the convex-corner rotation, 0–10.
    pub convex_weight: f32,
    /// Ignore the rays of the side away from the followed wall.
    pub just_my_side: bool,
    /// Turn along a wall met head-on (basic state).
    pub front_collisions: bool,
    /// Length of the front and oblique rays in metres (side rays are half); not in the thesis.
    pub ray_length: f32,
}

impl Default for WallFollowing {
    fn default() -> Self {
        WallFollowing {
            wall_force: 2.0,
            force_order: 1.0,
            attractive_weight: 1.0,
            repulsive_weight: 1.0,
            concave_weight: 1.0,
            convex_weight: 1.0,
            just_my_side: false,
            front_collisions: true,
            ray_length: 3.0,
        }
    }
}

impl WallFollowing {
    /// Reports parameters outside the thesis's ranges.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        problems.non_negative(format!("{at}.wall_force"), self.wall_force);
        problems.within(format!("{at}.force_order"), self.force_order, 1.0, 10.0);
        for (name, w) in [
            ("attractive_weight", self.attractive_weight),
            ("repulsive_weight", self.repulsive_weight),
            ("concave_weight", self.concave_weight),
            ("convex_weight", self.convex_weight),
        ] {
            problems.within(format!("{at}.{name}"), w, 0.0, 10.0);
        }
        problems.positive(format!("{at}.ray_length"), self.ray_length);
    }
}
