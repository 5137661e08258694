//! Steering behaviours and combiners (Reynolds' steering layer, Buckland ch. 3).
//!
//! Each behaviour is a variant of the scene's [`Behaviour`] (its parameters, defaults and
//! validation are in `scene::steering`) and its force lives in its own file here; it computes a
//! force from a [`SteeringContext`] (the agent, its neighbours, other agents by id, the
//! obstacles, its goal point), all read from the immutable snapshot of the previous tick, plus
//! the agent's own [`SteerState`] (wander target, seeded generator). The profile's [`Combiner`]
//! turns the weighted outputs into the one steering force, and every behaviour's own output is
//! kept, labelled, for the recording. Where the text is wrong (its §8 errata) the fix is
//! documented in the behaviour's file.
//!
//! [`Behaviour`]: crate::scene::steering::Behaviour
//! [`Combiner`]: crate::scene::steering::Combiner

mod alignment;
mod arrive;
mod behaviour;
mod cohesion;
mod combiner;
mod context;
mod eight_lanes;
mod evade;
mod flee;
mod flock_lanes;
mod hide;
pub mod human;
mod interpose;
mod leader_following;
mod local_space;
mod obstacle_avoidance;
mod obstacles;
mod offset_pursuit;
mod pursuit;
mod seek;
mod separation;
mod smoothing;
mod state;
pub mod stria;
mod tagged_sums;
mod tagging;
mod wall_avoidance;
mod wander;

pub use arrive::arrive_force;
pub use combiner::{CombinedSteering, CombinerInput, LabelledForce, accumulate_force};
pub use context::{AgentIndex, GoalPoint, SteeringContext};
pub use flock_lanes::{FlockLanes, FlockView, GATHER_BLOCK};
pub use local_space::LocalFrame;
pub use obstacles::{ObstacleCircle, SteeringObstacles};
pub use seek::seek_force;
pub use smoothing::HeadingSmoother;
pub use state::{SteerMemory, SteerState};
pub use tagged_sums::{KeptSums, TaggedMemo, TaggedSums, TaggedView};
