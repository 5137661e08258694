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
#[cfg(test)]
mod test_rng;
pub mod validate;

/// The allocator of everything crowdlab runs. glibc's default hands large buffers back to the
/// kernel as soon as they are freed, so a GUI frame that rebuilds a 5,000-agent mesh paid for
/// fresh zeroed pages every time (21–25 ms a frame, 60 % of it page faults); mimalloc keeps them
/// (3.1 ms). It is built without asking the kernel for transparent huge pages (`no_thp`): with
/// them, every frame's freshly allocated draw lists faulted in 2 MB pages, each zeroed whole, 4 %
/// of the machine's time while a 10,000-agent crowd played in the window. See
/// `docs/performance.md` (Canvas, live runs and PNG export).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
