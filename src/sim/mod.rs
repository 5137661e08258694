//! The simulator: a [`World`] built from a scene, stepped in fixed ticks, producing frames.

mod agent_tree;
mod body;
mod contact_grid;
mod grid;
pub mod locomotion;
pub mod mind;
mod non_penetration;
mod profile;
pub mod run;
mod statics;
pub mod steer;
mod world;

pub mod avoid;
pub mod nav;

pub use agent_tree::Neighbour;
pub use body::{Body, Status};
pub(crate) use contact_grid::ContactGrid;
pub use grid::NeighbourGrid;
pub use profile::ResolvedProfile;
pub use statics::{StaticGeometry, penetration_depth};
pub use world::{CONTACT_TOLERANCE, STATE_NAMES, World};
