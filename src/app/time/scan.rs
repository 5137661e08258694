//! Background scan of a loaded recording: decodes every recorded frame in order on its own thread and
//! sends each tick's analysis (summary and events) to the timeline, and now and then the run's
//! metrics measured on the recorded frames, so markers, plots and the metrics panel fill in while
//! the user already scrubs.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver};

use crate::app::analysis::{Analyzer, TickSummary, TimelineEvent};
use crate::record::{Metrics, MetricsAccumulator, RecordingReader};

/// Recorded frames between two metrics the scan sends.
const METRICS_EVERY: u64 = 20;

/// One tick's analysis.
pub struct Scanned {
    /// The tick's whole-run numbers.
    pub summary: TickSummary,
    /// Events beginning at it.
    pub events: Vec<TimelineEvent>,
    /// The metrics of the frames scanned so far, every [`METRICS_EVERY`] frames and at the end.
    pub metrics: Option<Box<Metrics>>,
}

/// Starts scanning `reader`; the channel closes when the scan ends (at the last tick, at the first
/// unreadable frame, or as soon as the receiver is dropped).
pub fn spawn(reader: Arc<RecordingReader>) -> Receiver<Scanned> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("crowdlab-scan".into())
        .spawn(move || {
            let mut analyzer = Analyzer::default();
            let mut accumulator = MetricsAccumulator::new(&reader.header().scene);
            let stride = usize::try_from(reader.stride()).unwrap_or(usize::MAX);
            let (first, last) = (reader.first_tick(), reader.last_tick());
            for (n, tick) in (first..=last).step_by(stride).enumerate() {
                let Ok(frame) = reader.frame_at(tick) else {
                    return;
                };
                accumulator.observe(&frame);
                let (summary, events) = analyzer.observe(&frame, accumulator.stuck_now());
                let due = (n as u64).is_multiple_of(METRICS_EVERY) || tick + reader.stride() > last;
                let metrics = due.then(|| Box::new(accumulator.finish(tick, 0.0, 0.0)));
                if tx
                    .send(Scanned {
                        summary,
                        events,
                        metrics,
                    })
                    .is_err()
                {
                    return;
                }
            }
        })
        .expect("cannot start the recording scan thread");
    rx
}
