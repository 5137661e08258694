//! Background scan of a loaded recording: decodes every recorded frame in order on its own thread and
//! sends each tick's analysis (summary and events) to the timeline, so markers and whole-run
//! plots fill in while the user already scrubs.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver};

use crate::app::analysis::{Analyzer, TickSummary, TimelineEvent};
use crate::record::RecordingReader;

/// One tick's analysis.
pub type Scanned = (TickSummary, Vec<TimelineEvent>);

/// Starts scanning `reader`; the channel closes when the scan ends (at the last tick, at the first
/// unreadable frame, or as soon as the receiver is dropped).
pub fn spawn(reader: Arc<RecordingReader>) -> Receiver<Scanned> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("crowdlab-scan".into())
        .spawn(move || {
            let mut analyzer = Analyzer::default();
            let stride = usize::try_from(reader.stride()).unwrap_or(usize::MAX);
            for tick in (reader.first_tick()..=reader.last_tick()).step_by(stride) {
                let Ok(frame) = reader.frame_at(tick) else {
                    return;
                };
                if tx.send(analyzer.observe(&frame)).is_err() {
                    return;
                }
            }
        })
        .expect("cannot start the recording scan thread");
    rx
}
