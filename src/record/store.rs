//! Random access to the frames of a run, whether in memory (a live run) or in a file.

use super::file::{RecordingError, RecordingReader};
use super::frame::Frame;
use super::header::RecordingHeader;

/// Anything that can hand out frames by tick: the live run's in-memory frames or a file.
pub trait FrameSource: Send + Sync {
    /// Header of the recording.
    fn header(&self) -> &RecordingHeader;
    /// Ticks held, as an inclusive range `(first, last)`.
    fn tick_range(&self) -> (u64, u64);
    /// Ticks between two held frames (the header's `record_every`).
    fn stride(&self) -> u64 {
        u64::from(self.header().record_every.max(1))
    }
    /// The frame of `tick`.
    fn frame(&self, tick: u64) -> Result<Frame, RecordingError>;
}

impl FrameSource for RecordingReader {
    fn header(&self) -> &RecordingHeader {
        RecordingReader::header(self)
    }

    fn tick_range(&self) -> (u64, u64) {
        (self.first_tick(), self.last_tick())
    }

    fn frame(&self, tick: u64) -> Result<Frame, RecordingError> {
        self.frame_at(tick)
    }
}

/// The frames of a run held in memory (the GUI's live run), one every `record_every` ticks from
/// the first.
pub struct MemoryRecording {
    header: RecordingHeader,
    frames: Vec<Frame>,
}

impl MemoryRecording {
    /// An empty recording with `header`.
    pub fn new(header: RecordingHeader) -> MemoryRecording {
        MemoryRecording {
            header,
            frames: Vec::new(),
        }
    }

    /// Appends the next frame.
    pub fn push(&mut self, frame: Frame) {
        self.frames.push(frame);
    }

    /// Number of frames held.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// True when no frame has been recorded.
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The frames in tick order.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }
}

impl FrameSource for MemoryRecording {
    fn header(&self) -> &RecordingHeader {
        &self.header
    }

    fn tick_range(&self) -> (u64, u64) {
        let first = self.frames.first().map_or(0, |f| f.tick);
        (
            first,
            first + self.frames.len().saturating_sub(1) as u64 * self.stride(),
        )
    }

    fn frame(&self, tick: u64) -> Result<Frame, RecordingError> {
        let (first, last) = self.tick_range();
        let stride = self.stride();
        tick.checked_sub(first)
            .filter(|offset| offset % stride == 0)
            .and_then(|offset| self.frames.get((offset / stride) as usize))
            .cloned()
            .ok_or(RecordingError::NoSuchTick {
                file: "(live run)".into(),
                tick,
                last,
            })
    }
}
