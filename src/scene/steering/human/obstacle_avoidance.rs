//! Parameters of Popelová's OBSTACLE AVOIDANCE (§3.1, Table 3.1): the repulsive force, its order,
//! the *Front Collisions* and *Tree Collisions* extensions and the ray length, with their defaults
//! and validation. The five-ray steering is computed by the simulator (`sim::steer::human`).

use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// Parameters of obstacle avoidance (Table 3.1, forces in m/s = N_UT/100).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct ObstacleAvoidance {
    /// Repulsive Force F, 0–20 (thesis 0–2000 N_UT; recommended 240 N_UT = 2.4).
    pub repulsive_force: f32,
    /// Force Order O, 1–10 (1 = linear).
    pub force_order: f32,
    /// Turn along the wall on frontal hits.
    pub front_collisions: bool,
    /// Pass thin round obstacles on the near side.
    pub tree_collisions: bool,
    /// Length of the front and oblique rays in metres (side rays are half); not in the thesis.
    pub ray_length: f32,
    /// Sweep discs of the body's radius along the rays instead of thin lines, so a corner in the
    /// gap between two rays is still seen (not in the thesis; default off).
    pub body_wide_rays: bool,
}

impl Default for ObstacleAvoidance {
    fn default() -> Self {
        ObstacleAvoidance {
            repulsive_force: 2.4,
            force_order: 1.0,
            front_collisions: true,
            tree_collisions: true,
            ray_length: 3.0,
            body_wide_rays: false,
        }
    }
}

impl ObstacleAvoidance {
    /// Reports parameters outside the thesis's ranges.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        problems.non_negative(format!("{at}.repulsive_force"), self.repulsive_force);
        problems.within(format!("{at}.force_order"), self.force_order, 1.0, 10.0);
        problems.positive(format!("{at}.ray_length"), self.ray_length);
    }
}
