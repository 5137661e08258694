//! The steering part of a profile as written in a scene file: the behaviours with their
//! parameters and defaults ([`Behaviour`], [`BehaviourSpec`]), the method that combines them
//! ([`Combiner`]), Popelová's human steerings ([`human`]) and Stria's forces ([`stria`]), each with
//! its validation. The simulator (`sim::steer`) computes the forces and combines them.

mod behaviour;
mod combiner;
pub mod defaults;
mod flocking;
pub mod human;
mod options;
mod spec;
pub mod stria;

pub use behaviour::Behaviour;
pub use combiner::Combiner;
pub use flocking::FlockPreset;
pub use options::{Deceleration, FeelerCombine, InterposeEnd};
pub use spec::BehaviourSpec;
