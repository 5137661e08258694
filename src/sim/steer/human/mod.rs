//! Popelová's steering library for human-like agents (seed 000): seven steerings returning a
//! [`SteeringOutput`] (force plus stop / deceleration requests and a boost vote) and the
//! weighted-mean [`PopelovaCombiner`] that turns them and the previous velocity into the next
//! velocity. Every steering's force is recorded under its own label.
//!
//! Units: 1 cm_UT = 0.01 m; a force of F N_UT holds an agent at F cm_UT/s, so forces are given in
//! m/s (1 N_UT = 0.01). Look-ahead counts ("Projection") are in the thesis's 250 ms ticks.
//! Other agents are seen when present and not hidden behind an obstacle (§2.1.1).

mod agent;
mod combiner;
mod leader_following;
mod obstacle_avoidance;
mod output;
mod path_following;
mod people_avoidance;
mod rays;
mod target_approaching;
mod walk_along;
mod wall_following;

pub use agent::steer_agent;
pub use combiner::{HumanDecision, PopelovaCombiner, previous_velocity_factor};
pub use leader_following::{Formation, LeaderFollowing, LeaderState};
pub use obstacle_avoidance::ObstacleAvoidance;
pub use output::{Side, SteeringOutput};
pub use path_following::{PathFollowing, PathState};
pub use people_avoidance::{Character, PeopleAvoidance};
pub use rays::{BodyRay, RayKind, cast_body_rays};
pub use target_approaching::{Breakpoint, DistanceFunction, TargetApproaching};
pub use walk_along::WalkAlong;
pub use wall_following::{WallFollowing, WallState};

use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

use crate::scene::Problems;
use crate::sim::Body;
use crate::sim::steer::SteeringContext;

/// The thesis's update tick, 250 ms.
pub const THESIS_TICK: f32 = 0.25;
/// The thesis's base walking speed, 220 cm_UT/s.
pub const WALK_SPEED: f32 = 2.2;

/// One of Popelová's seven steerings with its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

/// A steering's memory between ticks.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum HumanMemory {
    /// Nothing remembered.
    #[default]
    None,
    /// Path following's edge and last distance.
    Path(Option<PathState>),
    /// Wall following's state machine.
    Wall(WallState),
    /// Leader following's memory of the leader.
    Leader(LeaderState),
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

    /// The empty memory this steering starts with.
    pub fn initial_memory(&self) -> HumanMemory {
        match self {
            HumanSteering::PathFollowing(_) => HumanMemory::Path(None),
            HumanSteering::WallFollowing(_) => HumanMemory::Wall(WallState::default()),
            HumanSteering::LeaderFollowing(_) => HumanMemory::Leader(LeaderState::default()),
            _ => HumanMemory::None,
        }
    }

    /// The steering's output this tick, updating its `memory`.
    pub fn steer(&self, ctx: &SteeringContext, memory: &mut HumanMemory, rng: &mut Pcg32) -> SteeringOutput {
        match (self, memory) {
            (HumanSteering::ObstacleAvoidance(s), _) => s.steer(ctx, rng),
            (HumanSteering::PeopleAvoidance(s), _) => s.steer(ctx, rng),
            (HumanSteering::TargetApproaching(s), _) => s.steer(ctx),
            (HumanSteering::PathFollowing(s), HumanMemory::Path(state)) => s.steer(ctx, state),
            (HumanSteering::WallFollowing(s), HumanMemory::Wall(state)) => s.steer(ctx, state, rng),
            (HumanSteering::LeaderFollowing(s), HumanMemory::Leader(state)) => s.steer(ctx, state, rng),
            (HumanSteering::WalkAlong(s), _) => s.steer(ctx, rng),
            (s, m) => {
                // First tick (or a changed steering): start from the empty memory.
                *m = s.initial_memory();
                s.steer(ctx, m, rng)
            }
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

/// The present agent with scene id `id` if the line of sight to it is free of obstacles.
pub fn visible_agent<'a>(ctx: &'a SteeringContext, id: u32) -> Option<&'a Body> {
    ctx.bodies
        .iter()
        .find(|b| b.id == id && b.id != ctx.body.id && b.status.present())
        .filter(|b| sees(ctx, b))
}

/// True when no obstacle blocks the line of sight from the agent to `other`'s centre.
pub fn sees(ctx: &SteeringContext, other: &Body) -> bool {
    let to = other.position - ctx.position();
    let distance = to.length();
    distance == 0.0
        || ctx
            .statics
            .cast_ray(ctx.position(), to / distance, distance, ctx.time)
            .is_none()
}
