//! crowdlab: scene editor, crowd/steering simulator and trajectory analyser.
//!
//! Data flow (DESIGN.md): scene file → [`scene::Scene`] → [`sim::World`] → [`record::Frame`]s →
//! `.crowdrec` recording → [`draw::DrawList`] → GUI canvas or PNG; recording → skeleton XML,
//! metrics.

#[cfg(feature = "gui")]
pub mod app;
pub mod atomic_file;
pub mod cli;
pub mod crash;
pub mod draw;
pub mod export;
pub mod geom;
#[cfg(test)]
mod layers;
pub mod limits;
pub mod record;
pub mod scene;
pub mod sim;
pub mod validate;
