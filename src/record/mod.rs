//! Recordings: frames of a run, the `.crowdrec` file format and metrics.

mod agent_slots;
mod agents;
mod codec;
mod debug;
mod file;
mod frame;
mod header;
mod metrics;
mod store;

pub use agent_slots::AgentSlots;
pub use agents::{AgentEntry, AgentTable, ProfileEntry};
pub use codec::quantise;
pub use debug::{AvoidanceDebug, Constraint};
pub use file::{RecordingError, RecordingReader, RecordingWriter};
pub use frame::{AgentEvent, AgentSample, Contact, ContactWith, FLAG_ARRIVED, FLAG_COLLIDING, ForceSample, Frame};
pub use header::RecordingHeader;
pub use metrics::{
    AgentMetrics, AreaSample, AreaSeries, CompositeScores, Crossing, CrowdMetrics, LineFlow, Metrics,
    MetricsAccumulator, STUCK_SECONDS, STUCK_SPEED, SteerBenchAgent, SummaryMetrics,
};
pub use store::{FrameSource, MemoryRecording};

/// The metric tests' made-up frames, for the timeline's analysis tests too.
#[cfg(all(test, feature = "gui"))]
pub(crate) use metrics::test_support;
