//! Popelová's steering library for human-like agents (seed 000), the algorithms: the seven
//! steerings of a scene's [`HumanSteering`] return a [`SteeringOutput`] (force plus stop /
//! deceleration requests and a boost vote), and the weighted-mean combiner
//! (`PopelovaCombiner::combine`, in `combiner.rs`) turns them and the
//! previous velocity into the next velocity. Every steering's force is recorded under its own
//! label. The parameters, their defaults and validation are in `scene::steering::human`.
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
pub use combiner::{HumanDecision, previous_velocity_factor};
pub use leader_following::LeaderState;
pub use output::{Side, SteeringOutput};
pub use path_following::PathState;
pub use rays::{BodyRay, RayKind, cast_body_rays};
pub use wall_following::WallState;

use rand_pcg::Pcg32;

use crate::scene::steering::human::HumanSteering;
use crate::sim::Body;
use crate::sim::steer::SteeringContext;

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
