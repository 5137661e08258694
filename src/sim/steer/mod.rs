//! Steering behaviours and combiners (Reynolds' steering layer, Buckland ch. 3).
//!
//! Each behaviour is a variant of [`Behaviour`] with its parameters and lives in its own file;
//! it computes a force from a [`SteeringContext`] (the agent, its neighbours, other agents by id,
//! the obstacles, its goal point), all read from the immutable snapshot of the previous tick, plus
//! the agent's own [`SteerState`] (wander target, seeded generator). A [`Combiner`] turns the
//! weighted outputs into the one steering force, and every behaviour's own output is kept,
//! labelled, for the recording. Where the text is wrong (its §8 errata) the fix is documented in
//! the behaviour's file.

mod alignment;
mod arrive;
mod behaviour;
mod cohesion;
mod combiner;
mod context;
mod evade;
mod flee;
mod flocking;
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
mod spec;
mod state;
pub mod stria;
mod tagging;
mod wall_avoidance;
mod wander;

pub use arrive::{Deceleration, arrive_force};
pub use behaviour::Behaviour;
pub use combiner::{CombinedSteering, Combiner, CombinerInput, LabelledForce, accumulate_force};
pub use context::{AgentIndex, GoalPoint, SteeringContext};
pub use flocking::FlockPreset;
pub use interpose::InterposeEnd;
pub use local_space::LocalFrame;
pub use obstacles::{ObstacleCircle, SteeringObstacles};
pub use seek::seek_force;
pub use separation::separation_from;
pub use smoothing::HeadingSmoother;
pub use spec::BehaviourSpec;
pub use state::{SteerMemory, SteerState};
pub use wall_avoidance::FeelerCombine;
