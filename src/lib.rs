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
pub mod interrupt;
pub mod keep_awake;
#[cfg(test)]
mod layers;
pub mod limits;
pub mod record;
pub mod scene;
pub mod shares;
pub mod sim;
#[cfg(test)]
mod test_rng;
pub mod validate;
pub mod workers;

/// The allocator of everything crowdlab runs. glibc's default hands large buffers back to the
/// kernel as soon as they are freed, so a GUI frame that rebuilds a 5,000-agent mesh paid for
/// fresh zeroed pages every time (21–25 ms a frame, 60 % of it page faults); mimalloc keeps them
/// (3.1 ms). See `docs/performance.md` (Canvas, live runs and PNG export).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
