//! Parameters of Popelová's LEADER FOLLOWING (§3.6, Table 3.6): the leader, leader force,
//! distance, force distance and *Deceleration* of the basic type, and the formation type's angle,
//! memory and *Circumvention*, with their defaults and validation. The steering is computed by
//! the simulator (`sim::steer::human`).

use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// The formation type's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct Formation {
    /// Angle of the slot from the leader's heading, degrees: 90 right, −90 left, 180 behind.
    pub angle_deg: f32,
    /// Leader velocities averaged (0 = Memory off, at most 20).
    pub memory_size: usize,
    /// Run round the leader when it stands between the follower and its slot.
    pub circumvention: bool,
}

impl Default for Formation {
    fn default() -> Self {
        Formation {
            angle_deg: 180.0,
            memory_size: 5,
            circumvention: true,
        }
    }
}

/// Parameters of leader following (Table 3.6; metres, forces in m/s = N_UT/100).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderFollowing {
    /// Scene id of the leader.
    pub leader: u32,
    /// Leader Force F (thesis 0–1000 N_UT; 240 N_UT = 2.4 responsive, 200 smooth).
    #[serde(default = "leader_force")]
    pub leader_force: f32,
    /// Distance D from the leader in metres (thesis 30–2000 cm).
    #[serde(default = "leader_distance")]
    pub distance: f32,
    /// Extra distance at which the attraction equals F, metres (thesis 1–2000 cm; 50–150 cm).
    #[serde(default = "force_distance")]
    pub force_distance: f32,
    /// Formation type when given; basic type otherwise.
    #[serde(default)]
    pub formation: Option<Formation>,
    /// Basic type: brake instead of turning back when too close.
    #[serde(default)]
    pub deceleration: bool,
}

fn leader_force() -> f32 {
    2.4
}
fn leader_distance() -> f32 {
    2.0
}
fn force_distance() -> f32 {
    0.5
}

/// Largest Memory Size.
pub const MAX_MEMORY: usize = 20;

impl LeaderFollowing {
    /// Reports parameters outside the thesis's ranges.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        problems.non_negative(format!("{at}.leader_force"), self.leader_force);
        problems.within(format!("{at}.distance"), self.distance, 0.3, 20.0);
        problems.within(format!("{at}.force_distance"), self.force_distance, 0.01, 20.0);
        if let Some(f) = &self.formation {
            problems.within(format!("{at}.formation.angle_deg"), f.angle_deg, -180.0, 180.0);
            if f.memory_size > MAX_MEMORY {
                problems.push(
                    format!("{at}.formation.memory_size"),
                    format!("{} must be at most 20", f.memory_size),
                );
            }
        }
    }
}
