//! The frame source of the window ([`Frames`]): a live run or a replayed file, and the analysis
//! of its recorded ticks. It answers which ticks exist, hands out the frame of a tick, says
//! whether the run is finished, and (for the time cursor, through [`TickSource`]) asks the
//! live run's worker for more ticks. It holds no cursor.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::control::TickSource;
use super::live::LiveRun;
use super::replay::Replay;
use crate::app::analysis::{TickSummary, TimelineEvent};
use crate::record::{Frame, FrameSource, Metrics, RecordingError, RecordingHeader, RecordingReader};
use crate::scene::Scene;

/// The whole-run analysis of the ticks received so far, in tick order.
#[derive(Default)]
pub struct Analysis {
    summaries: Vec<TickSummary>,
    events: Vec<TimelineEvent>,
    metrics: Option<Box<Metrics>>,
}

impl Analysis {
    /// Adds the analysis of the next recorded tick.
    pub fn add(&mut self, summary: TickSummary, events: Vec<TimelineEvent>) {
        self.summaries.push(summary);
        self.events.extend(events);
    }

    /// Replaces the run's metrics with a newer snapshot.
    pub fn set_metrics(&mut self, metrics: Box<Metrics>) {
        self.metrics = Some(metrics);
    }
}

/// Where the frames come from.
enum Kind {
    Live(Box<LiveRun>),
    File(Replay),
}

/// The recorded frames of a live run or a file, with their analysis.
pub struct Frames {
    kind: Kind,
    analysis: Analysis,
    /// Tells these frames from every other `Frames` of the process.
    serial: u64,
}

impl Frames {
    /// A live run of `scene`, not yet started (nothing recorded).
    pub fn live(scene: Arc<Scene>) -> Frames {
        Frames::with(Kind::Live(Box::new(LiveRun::new(scene))))
    }

    /// A replay of an opened recording, its events found by a background scan (of `scan_copy`,
    /// a second reader of the same file, when given).
    pub fn replay(reader: RecordingReader, scan_copy: Option<RecordingReader>) -> Frames {
        Frames::with(Kind::File(Replay::new(reader, scan_copy)))
    }

    fn with(kind: Kind) -> Frames {
        static MADE: AtomicU64 = AtomicU64::new(0);
        Frames {
            kind,
            analysis: Analysis::default(),
            serial: MADE.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// A number that no other `Frames` of this process has: a tick's frame in the `Frames` of
    /// one serial is always the same frame (a live run's frames are not changed once recorded,
    /// and a file's are read from the same file).
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// A fresh live run of the same scene, nothing recorded (`None` for a file).
    pub fn restarted(&self) -> Option<Frames> {
        match &self.kind {
            Kind::Live(live) => Some(Frames::live(live.scene().clone())),
            Kind::File(_) => None,
        }
    }

    /// The recording header: scene, force labels, mind states, dt.
    pub fn header(&self) -> &RecordingHeader {
        self.source().header()
    }

    /// True for a live run (as opposed to a replayed file).
    pub fn is_live(&self) -> bool {
        matches!(self.kind, Kind::Live(_))
    }

    /// The recorded ticks `(first, newest)`, or `None` before a live run's first tick.
    pub fn tick_range(&self) -> Option<(u64, u64)> {
        match &self.kind {
            Kind::Live(live) => live.tick_range(),
            Kind::File(file) => Some(file.reader().tick_range()),
        }
    }

    /// Ticks between two recorded frames (the header's `record_every`).
    pub fn stride(&self) -> u64 {
        self.source().stride()
    }

    /// True when no tick will be added: a file, or a live run that has ended (every agent done
    /// or the scene's duration reached).
    pub fn is_finished(&self) -> bool {
        match &self.kind {
            Kind::Live(live) => live.is_finished(),
            Kind::File(_) => true,
        }
    }

    /// Smoothed wall time of one simulated tick in milliseconds, once a live run has simulated one.
    pub fn step_ms(&self) -> Option<f64> {
        match &self.kind {
            Kind::Live(live) => live.step_ms(),
            Kind::File(_) => None,
        }
    }

    /// Whole-run numbers of every tick analysed so far (all received ticks of a live run; a
    /// file's ticks as its background scan reaches them).
    pub fn summaries(&self) -> &[TickSummary] {
        &self.analysis.summaries
    }

    /// The run's metrics (the summary and per-agent numbers of `crowdlab run --metrics`) as of
    /// the latest snapshot: a live run's worker sends them as it goes, a file's scan as it reads.
    pub fn metrics(&self) -> Option<&Metrics> {
        self.analysis.metrics.as_deref()
    }

    /// Event markers found so far, in tick order.
    pub fn events(&self) -> &[TimelineEvent] {
        &self.analysis.events
    }

    /// Takes in what the worker or the file scan has delivered since the last call.
    pub fn poll(&mut self) {
        match &mut self.kind {
            Kind::Live(live) => live.poll(&mut self.analysis),
            Kind::File(file) => file.poll(&mut self.analysis),
        }
    }

    /// Makes the frame of `tick` available to [`Frames::frame`]: decodes it from a file unless
    /// it is at hand (a live run's frames are always in memory).
    pub fn load(&mut self, tick: u64) -> Result<(), RecordingError> {
        match &mut self.kind {
            Kind::Live(_) => Ok(()),
            Kind::File(file) => file.load(tick),
        }
    }

    /// The frame of `tick`: a live run's if received, a file's if loaded by [`Frames::load`].
    pub fn frame(&self, tick: u64) -> Option<&Frame> {
        match &self.kind {
            Kind::Live(live) => live.frame(tick),
            Kind::File(file) => file.frame(tick),
        }
    }

    /// Random access to every recorded frame (trails, plots, exports): the live recording or
    /// the file.
    pub fn source(&self) -> &dyn FrameSource {
        match &self.kind {
            Kind::Live(live) => live.recording(),
            Kind::File(file) => file.reader(),
        }
    }

    /// Records the avoidance constraints of agent `id` in the ticks a live run simulates from now
    /// on (`None` stops); a replayed file shows whatever it recorded.
    pub fn set_debug_agent(&mut self, id: Option<u32>) {
        if let Kind::Live(live) = &mut self.kind {
            live.set_debug_agent(id);
        }
    }
}

impl TickSource for Frames {
    fn tick_range(&self) -> Option<(u64, u64)> {
        Frames::tick_range(self)
    }

    fn stride(&self) -> u64 {
        Frames::stride(self)
    }

    fn dt(&self) -> f32 {
        self.header().dt
    }

    fn is_complete(&self) -> bool {
        self.is_finished()
    }

    fn request_until(&mut self, tick: Option<u64>) {
        if let Kind::Live(live) = &mut self.kind {
            live.run_until(tick);
        }
    }

    fn produce_next(&mut self) {
        if let Kind::Live(live) = &mut self.kind {
            live.produce_next(&mut self.analysis);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::time::{Loop, Speed, TimeCommand, TimeControl};
    use crate::scene::default_scene;

    /// A live run of the default scene lasting `duration` seconds, recording every `stride` ticks.
    fn live(duration: f32, stride: u32) -> (Frames, TimeControl) {
        let mut scene = default_scene();
        scene.settings.duration = duration;
        scene.settings.record_every = stride;
        let frames = Frames::live(Arc::new(scene));
        let time = TimeControl::new(&frames);
        (frames, time)
    }

    /// Plays until the cursor reaches `tick` or stops, feeding the clock slices of wall time.
    fn play_until(frames: &mut Frames, time: &mut TimeControl, tick: u64) {
        for _ in 0..100_000 {
            if time.tick() >= tick || !time.is_playing() {
                return;
            }
            frames.poll();
            time.advance(0.01, frames);
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        panic!("cursor stuck at {}", time.tick());
    }

    #[test]
    fn stepping_records_tick_zero_then_one_recorded_frame_at_a_time() {
        let (mut frames, mut time) = live(60.0, 2);
        assert_eq!(frames.tick_range(), None);
        assert!(frames.frame(0).is_none());
        time.apply(TimeCommand::StepForward, &mut frames);
        assert_eq!((time.tick(), frames.tick_range()), (2, Some((0, 2))));
        assert_eq!(frames.frame(2).map(|f| f.tick), Some(2));
        assert!(frames.frame(1).is_none(), "tick 1 is not recorded");
        time.apply(TimeCommand::StepForward, &mut frames);
        assert_eq!((time.tick(), frames.tick_range()), (4, Some((0, 4))));
        assert_eq!(frames.summaries().len(), 3, "one summary per recorded frame");
    }

    #[test]
    fn playing_replays_recorded_ticks_before_simulating_new_ones() {
        let (mut frames, mut time) = live(60.0, 1);
        for _ in 0..5 {
            time.apply(TimeCommand::StepForward, &mut frames);
        }
        time.apply(TimeCommand::SeekTo(2), &mut frames);
        assert_eq!(frames.frame(time.tick()).map(|f| f.tick), Some(2));
        time.apply(TimeCommand::Play, &mut frames);
        time.advance(0.2, &mut frames);
        time.advance(0.1, &mut frames);
        assert_eq!((time.tick(), frames.tick_range()), (5, Some((0, 5))), "replayed");
        assert!(!time.is_following());
        play_until(&mut frames, &mut time, 8);
        assert!(time.is_following() && time.tick() >= 8);
        assert!(frames.tick_range().unwrap().1 >= 8);
        let frames = frames.restarted().expect("a live run restarts");
        assert_eq!(frames.tick_range(), None);
    }

    #[test]
    fn a_run_ending_between_recorded_ticks_stops_playing_or_loops() {
        let (mut frames, mut time) = live(0.5, 2);
        time.apply(TimeCommand::SetSpeed(Speed::Fastest), &mut frames);
        time.apply(TimeCommand::Play, &mut frames);
        play_until(&mut frames, &mut time, u64::MAX);
        assert_eq!((time.tick(), frames.tick_range()), (4, Some((0, 4))));
        assert!(frames.is_finished() && time.at_end(&frames));
        time.apply(TimeCommand::Play, &mut frames);
        assert!(!time.is_playing(), "nothing left to play");
        time.apply(TimeCommand::SetLoop(Loop::All), &mut frames);
        time.apply(TimeCommand::Play, &mut frames);
        assert_eq!((time.tick(), time.is_playing()), (0, true), "the loop starts again");
    }
}
