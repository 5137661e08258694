//! Popelová's steering library for human-like agents (seed 000) as written in a scene file: the
//! seven steerings ([`HumanSteering`]) with their parameters, defaults and validation, and the
//! parameters of her weighted-mean combiner ([`PopelovaCombiner`]). The steerings and the
//! combiner are computed by the simulator (`sim::steer::human`).
//!
//! Units: 1 cm_UT = 0.01 m; a force of F N_UT holds an agent at F cm_UT/s, so forces are given in
//! m/s (1 N_UT = 0.01). Look-ahead counts ("Projection") are in the thesis's 250 ms ticks.

mod combiner;
mod leader_following;
mod obstacle_avoidance;
mod path_following;
mod people_avoidance;
mod target_approaching;
mod walk_along;
mod wall_following;

pub use combiner::PopelovaCombiner;
pub use leader_following::{Formation, LeaderFollowing, MAX_MEMORY};
pub use obstacle_avoidance::ObstacleAvoidance;
pub use path_following::PathFollowing;
pub use people_avoidance::{Character, PeopleAvoidance};
pub use target_approaching::{Breakpoint, DistanceFunction, TargetApproaching};
pub use walk_along::WalkAlong;
pub use wall_following::WallFollowing;

use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// The thesis's update tick, 250 ms.
pub const THESIS_TICK: f32 = 0.25;
/// The thesis's base walking speed, 220 cm_UT/s.
pub const WALK_SPEED: f32 = 2.2;

/// One of Popelová's seven steerings with its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum HumanSteering {
    /// Five-ray obstacle avoidance.
    ObstacleAvoidance(ObstacleAvoidance),
    /// Avoiding other agents.
    PeopleAvoidance(PeopleAvoidance),
    /// Pull to the goal, or distance → force functions.
    TargetApproaching(TargetApproaching),
    /// Corridor following along the agent's path.
    PathFollowing(PathFollowing),
    /// Ray-based wall following.
    WallFollowing(WallFollowing),
    /// Following a leader, basic or in formation.
    LeaderFollowing(LeaderFollowing),
    /// Walking side by side with a partner.
    WalkAlong(WalkAlong),
}

impl HumanSteering {
    /// The label under which the force is recorded.
    pub fn label(&self) -> &'static str {
        match self {
            HumanSteering::ObstacleAvoidance(_) => "obstacle avoidance (human)",
            HumanSteering::PeopleAvoidance(_) => "people avoidance",
            HumanSteering::TargetApproaching(_) => "target approaching",
            HumanSteering::PathFollowing(_) => "path following (human)",
            HumanSteering::WallFollowing(_) => "wall following",
            HumanSteering::LeaderFollowing(_) => "leader following (human)",
            HumanSteering::WalkAlong(_) => "walk along",
        }
    }

    /// How far the steering looks for other agents (0 if it ignores them).
    pub fn neighbour_radius(&self) -> f32 {
        match self {
            HumanSteering::PeopleAvoidance(p) => p.neighbour_radius(),
            _ => 0.0,
        }
    }

    /// Reports invalid parameters under the field path `at`.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        let at = format!("{at}.0");
        match self {
            HumanSteering::ObstacleAvoidance(s) => s.validate(&at, problems),
            HumanSteering::PeopleAvoidance(s) => s.validate(&at, problems),
            HumanSteering::TargetApproaching(s) => s.validate(&at, problems),
            HumanSteering::PathFollowing(s) => s.validate(&at, problems),
            HumanSteering::WallFollowing(s) => s.validate(&at, problems),
            HumanSteering::LeaderFollowing(s) => s.validate(&at, problems),
            HumanSteering::WalkAlong(s) => s.validate(&at, problems),
        }
    }
}
