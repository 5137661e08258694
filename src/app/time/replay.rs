//! A recording file as a frame source: the reader, the frame under the cursor decoded from it,
//! and the background scan that analyses every recorded frame.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};

use super::scan::{self, Scanned};
use super::source::Analysis;
use crate::record::{Frame, RecordingError, RecordingReader};

/// A `.crowdrec` file replayed on its own.
pub struct Replay {
    reader: Arc<RecordingReader>,
    /// The scan in progress (`None` once it has ended).
    scan: Option<Receiver<Scanned>>,
    /// The frame last decoded.
    cached: Option<Frame>,
}

impl Replay {
    /// A replay of `reader`, its frames scanned in the background (from `scan_copy`, a second
    /// reader of the same file, when given, so the scan does not evict the chunk being shown).
    pub fn new(reader: RecordingReader, scan_copy: Option<RecordingReader>) -> Replay {
        let reader = Arc::new(reader);
        let scan = scan::spawn(scan_copy.map_or_else(|| reader.clone(), Arc::new));
        Replay {
            reader,
            scan: Some(scan),
            cached: None,
        }
    }

    /// The file's reader.
    pub fn reader(&self) -> &RecordingReader {
        &self.reader
    }

    /// Takes in what the scan has analysed since the last call, adding it to `analysis`.
    pub fn poll(&mut self, analysis: &mut Analysis) {
        let Some(rx) = &self.scan else {
            return;
        };
        loop {
            match rx.try_recv() {
                Ok(scanned) => {
                    analysis.add(scanned.summary, scanned.events);
                    if let Some(metrics) = scanned.metrics {
                        analysis.set_metrics(metrics);
                    }
                }
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.scan = None;
                    return;
                }
            }
        }
    }

    /// Decodes the frame of `tick` unless it is the one at hand.
    pub fn load(&mut self, tick: u64) -> Result<(), RecordingError> {
        if self.cached.as_ref().is_none_or(|f| f.tick != tick) {
            self.cached = Some(self.reader.frame_at(tick)?);
        }
        Ok(())
    }

    /// The frame of `tick` if it is the one loaded by [`Replay::load`].
    pub fn frame(&self, tick: u64) -> Option<&Frame> {
        self.cached.as_ref().filter(|f| f.tick == tick)
    }
}
