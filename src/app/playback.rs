//! The timeline's store and cursor: a live run (a [`SimWorker`] stepping the world on its own
//! thread, its frames appended to a [`MemoryRecording`]) or a replayed `.crowdrec` file, the tick
//! under the cursor, and the play clock that advances it.
//!
//! "Playing" moves the cursor forward at the chosen speed: through recorded ticks when the cursor
//! is behind the newest one, and, at the live edge of a live run, by asking the worker for the
//! ticks the clock makes due (all it can, at the fastest speed). The cursor never passes the
//! newest frame received, so a simulation slower than the clock simply shows each tick as it
//! arrives. Pausing stops the worker after its current tick; frames still in flight are kept.

use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::Duration;

use super::analysis::{TickSummary, TimelineEvent};
use super::scan::{self, Scanned};
use super::sim_worker::{SimWorker, Ticked};
use crate::record::{Frame, FrameSource, MemoryRecording, RecordingError, RecordingHeader, RecordingReader};
use crate::scene::Scene;
use crate::sim::run::{Run, RunLimit};

/// Most ticks the play clock moves the cursor in one UI frame (replay at the fastest speed).
pub const MAX_TICKS_PER_FRAME: u64 = 50;
/// Longest wait for the worker to deliver a single step before giving up on it.
const STEP_TIMEOUT: Duration = Duration::from_secs(60);

/// How fast playing advances, relative to simulation time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    /// A tenth of real time.
    Tenth,
    /// A quarter of real time.
    Quarter,
    /// Half real time.
    Half,
    /// One simulated second per wall-clock second.
    #[default]
    RealTime,
    /// Twice real time.
    Double,
    /// Five times real time.
    Five,
    /// Ten times real time.
    Ten,
    /// As fast as possible: the simulation never waits for the clock; a replay moves
    /// [`MAX_TICKS_PER_FRAME`] ticks per UI frame.
    Fastest,
}

impl Speed {
    /// Every speed, slowest first (for the speed menu).
    pub const ALL: [Speed; 8] = [
        Speed::Tenth,
        Speed::Quarter,
        Speed::Half,
        Speed::RealTime,
        Speed::Double,
        Speed::Five,
        Speed::Ten,
        Speed::Fastest,
    ];

    /// The name shown in the speed menu.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Tenth => "0.1x",
            Speed::Quarter => "0.25x",
            Speed::Half => "0.5x",
            Speed::RealTime => "1x",
            Speed::Double => "2x",
            Speed::Five => "5x",
            Speed::Ten => "10x",
            Speed::Fastest => "fastest",
        }
    }

    /// Simulated seconds per wall-clock second, or `None` for [`Speed::Fastest`].
    fn factor(self) -> Option<f32> {
        match self {
            Speed::Tenth => Some(0.1),
            Speed::Quarter => Some(0.25),
            Speed::Half => Some(0.5),
            Speed::RealTime => Some(1.0),
            Speed::Double => Some(2.0),
            Speed::Five => Some(5.0),
            Speed::Ten => Some(10.0),
            Speed::Fastest => None,
        }
    }
}

/// Where the frames come from.
enum Source {
    /// A simulation in progress on its worker and the frames received (empty before the first tick).
    Live {
        scene: Arc<Scene>,
        worker: SimWorker,
        recording: MemoryRecording,
        finished: bool,
    },
    /// A recording file replayed on its own, with the background scan of its events.
    File {
        reader: Arc<RecordingReader>,
        scan: Option<Receiver<Scanned>>,
    },
}

/// A store of frames, the timeline cursor into it and the play clock.
pub struct Playback {
    source: Source,
    cursor: u64,
    playing: bool,
    looping: bool,
    speed: Speed,
    /// Ticks owed to the play clock (fractional remainder carried between frames).
    owed: f32,
    /// Smoothed wall time of one simulated tick, in milliseconds.
    step_ms: Option<f64>,
    /// The last frame decoded from a file, keyed by its tick.
    cached: Option<Frame>,
    /// Whole-run numbers of the ticks analysed so far, in tick order.
    summaries: Vec<TickSummary>,
    /// Event markers found so far, in tick order.
    events: Vec<TimelineEvent>,
}

impl Playback {
    /// A live run of `scene`, not yet started (tick 0, nothing recorded).
    pub fn live(scene: Arc<Scene>) -> Playback {
        let run = Run::new(scene.clone(), RunLimit::default());
        let recording = MemoryRecording::new(run.header());
        let worker = SimWorker::spawn(run);
        Playback::with_source(
            Source::Live {
                scene,
                worker,
                recording,
                finished: false,
            },
            0,
        )
    }

    /// A replay of an opened recording, cursor on its first tick; its events are found by a
    /// background scan (of `scan_copy`, a second reader of the same file, when given, so the scan
    /// does not evict the frames the canvas is showing).
    pub fn replay(reader: RecordingReader, scan_copy: Option<RecordingReader>) -> Playback {
        let first = reader.first_tick();
        let reader = Arc::new(reader);
        let scan = scan::spawn(scan_copy.map_or_else(|| reader.clone(), Arc::new));
        Playback::with_source(
            Source::File {
                reader,
                scan: Some(scan),
            },
            first,
        )
    }

    fn with_source(source: Source, cursor: u64) -> Playback {
        Playback {
            source,
            cursor,
            playing: false,
            looping: false,
            speed: Speed::default(),
            owed: 0.0,
            step_ms: None,
            cached: None,
            summaries: Vec::new(),
            events: Vec::new(),
        }
    }

    /// The recording header: scene, force labels, mind states, dt.
    pub fn header(&self) -> &RecordingHeader {
        match &self.source {
            Source::Live { recording, .. } => recording.header(),
            Source::File { reader, .. } => reader.header(),
        }
    }

    /// True for a live run (as opposed to a replayed file).
    pub fn is_live(&self) -> bool {
        matches!(self.source, Source::Live { .. })
    }

    /// The recorded ticks as an inclusive range, or `None` before a live run's first tick.
    pub fn tick_range(&self) -> Option<(u64, u64)> {
        match &self.source {
            Source::Live { recording, .. } if recording.is_empty() => None,
            Source::Live { recording, .. } => Some(recording.tick_range()),
            Source::File { reader, .. } => Some((reader.first_tick(), reader.last_tick())),
        }
    }

    /// The tick under the timeline cursor.
    pub fn cursor(&self) -> u64 {
        self.cursor
    }

    /// Simulation time of the cursor tick, in seconds.
    pub fn cursor_time(&self) -> f32 {
        self.cursor as f32 * self.header().dt
    }

    /// True while the play clock is advancing the cursor.
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// True when playing past the end starts again from the first tick.
    pub fn is_looping(&self) -> bool {
        self.looping
    }

    /// Turns looping on or off.
    pub fn set_looping(&mut self, looping: bool) {
        self.looping = looping;
    }

    /// The chosen play speed.
    pub fn speed(&self) -> Speed {
        self.speed
    }

    /// Chooses the play speed.
    pub fn set_speed(&mut self, speed: Speed) {
        self.speed = speed;
    }

    /// Smoothed wall time of one simulated tick in milliseconds, once a tick has been simulated.
    pub fn step_ms(&self) -> Option<f64> {
        self.step_ms
    }

    /// Whole-run numbers of every tick analysed so far (all received ticks of a live run; a
    /// file's ticks as its background scan reaches them).
    pub fn summaries(&self) -> &[TickSummary] {
        &self.summaries
    }

    /// Event markers found so far, in tick order.
    pub fn events(&self) -> &[TimelineEvent] {
        &self.events
    }

    /// True when a live run has ended (every agent done or the scene's duration reached).
    pub fn simulation_finished(&self) -> bool {
        match &self.source {
            Source::Live { finished, .. } => *finished,
            Source::File { .. } => true,
        }
    }

    /// True when there is a next tick to move to, recorded or still to simulate.
    pub fn can_advance(&self) -> bool {
        let behind = self.tick_range().is_some_and(|(_, last)| self.cursor < last);
        behind || !self.simulation_finished()
    }

    /// Takes in what the worker or the file scan has delivered since the last call.
    pub fn poll(&mut self) {
        match &mut self.source {
            Source::Live {
                worker,
                recording,
                finished,
                ..
            } => {
                while let Some(ticked) = worker.try_recv() {
                    take(
                        ticked,
                        recording,
                        finished,
                        &mut self.step_ms,
                        &mut self.summaries,
                        &mut self.events,
                    );
                }
            }
            Source::File { scan: Some(rx), .. } => {
                let mut done = false;
                loop {
                    match rx.try_recv() {
                        Ok((summary, events)) => {
                            self.summaries.push(summary);
                            self.events.extend(events);
                        }
                        Err(std::sync::mpsc::TryRecvError::Empty) => break,
                        Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                            done = true;
                            break;
                        }
                    }
                }
                if done && let Source::File { scan, .. } = &mut self.source {
                    *scan = None;
                }
            }
            Source::File { scan: None, .. } => {}
        }
    }

    /// Starts playing from the cursor; at the end of the run it starts from the first tick when
    /// looping, else nothing happens.
    pub fn play(&mut self) {
        self.poll();
        if !self.can_advance()
            && self.looping
            && let Some((first, _)) = self.tick_range()
        {
            self.cursor = first;
        }
        self.playing = self.can_advance();
        self.owed = 0.0;
    }

    /// Stops playing (and the simulation, after its current tick); the cursor stays.
    pub fn pause(&mut self) {
        self.playing = false;
        if let Source::Live { worker, .. } = &mut self.source {
            worker.run_to(0);
        }
    }

    /// Records the avoidance constraints of agent `id` in the ticks a live run simulates from now
    /// on (`None` stops); a replayed file shows whatever it recorded.
    pub fn set_debug_agent(&mut self, id: Option<u32>) {
        if let Source::Live { worker, .. } = &mut self.source {
            worker.debug_agent(id);
        }
    }

    /// Pauses and advances exactly one tick, if there is one: the next recorded tick, or at the
    /// live edge one newly simulated tick (waiting for the worker to deliver it).
    pub fn step(&mut self) {
        self.pause();
        self.poll();
        if let Some((_, last)) = self.tick_range()
            && self.cursor < last
        {
            self.cursor += 1;
            return;
        }
        let Source::Live {
            worker,
            recording,
            finished,
            ..
        } = &mut self.source
        else {
            return;
        };
        if *finished {
            return;
        }
        let wanted = if recording.is_empty() {
            1
        } else {
            recording.tick_range().1 + 1
        };
        worker.run_to(wanted);
        while !*finished && (recording.is_empty() || recording.tick_range().1 < wanted) {
            let Some(ticked) = worker.recv_timeout(STEP_TIMEOUT) else {
                break;
            };
            take(
                ticked,
                recording,
                finished,
                &mut self.step_ms,
                &mut self.summaries,
                &mut self.events,
            );
        }
        worker.run_to(0);
        if let Some((_, last)) = self.tick_range() {
            self.cursor = wanted.min(last);
        }
    }

    /// Pauses and moves one tick back, if the cursor is not on the first recorded tick.
    pub fn step_back(&mut self) {
        self.seek(self.cursor.saturating_sub(1));
    }

    /// Pauses and moves the cursor to `tick`, clamped to the recorded ticks.
    pub fn seek(&mut self, tick: u64) {
        self.pause();
        if let Some((first, last)) = self.tick_range() {
            self.cursor = tick.clamp(first, last);
        }
    }

    /// Pauses and goes back to the start: a live run is discarded and rebuilt from its scene
    /// (nothing recorded), a replayed file rewinds to its first tick.
    pub fn reset(&mut self) {
        match &self.source {
            Source::Live { scene, .. } => {
                let scene = scene.clone();
                *self = Playback {
                    speed: self.speed,
                    looping: self.looping,
                    ..Playback::live(scene)
                };
            }
            Source::File { reader, .. } => {
                self.cursor = reader.first_tick();
                self.playing = false;
            }
        }
    }

    /// Advances the play clock by `frame_seconds` of wall time: takes in delivered frames, moves
    /// the cursor as many ticks as the speed makes due (never past the newest frame), asks the
    /// worker for the ticks still to simulate, and stops (or loops) at the end of the run.
    pub fn advance(&mut self, frame_seconds: f32) {
        self.poll();
        if !self.playing {
            return;
        }
        let dt = self.header().dt;
        let due = match self.speed.factor() {
            Some(factor) => {
                self.owed += frame_seconds.max(0.0) * factor / dt;
                let due = (self.owed.floor() as u64).min(MAX_TICKS_PER_FRAME);
                self.owed = (self.owed - due as f32).min(1.0);
                due
            }
            None => MAX_TICKS_PER_FRAME,
        };
        let wanted = self.cursor.saturating_add(due);
        let fastest = self.speed.factor().is_none();
        if let Source::Live {
            worker,
            finished: false,
            ..
        } = &mut self.source
        {
            let target = if fastest { u64::MAX } else { wanted.max(worker.target()) };
            worker.run_to(target);
        }
        let Some((first, last)) = self.tick_range() else {
            return;
        };
        self.cursor = if fastest && self.is_live() {
            last
        } else {
            wanted.min(last)
        };
        if self.cursor >= last && self.simulation_finished() {
            if self.looping {
                self.cursor = first;
            } else {
                self.playing = false;
            }
        }
    }

    /// Decodes the cursor's frame of a replayed file unless it is already at hand (a live run's
    /// frames are always in memory). Call before [`Playback::frame`].
    pub fn load_frame(&mut self) -> Result<(), RecordingError> {
        if let Source::File { reader, .. } = &self.source
            && self.cached.as_ref().is_none_or(|f| f.tick != self.cursor)
        {
            self.cached = Some(reader.frame_at(self.cursor)?);
        }
        Ok(())
    }

    /// The frame under the cursor: `None` before a live run's first tick, or for a replayed file
    /// whose frame has not been loaded with [`Playback::load_frame`].
    pub fn frame(&self) -> Option<&Frame> {
        match &self.source {
            Source::Live { recording, .. } => live_frame(recording, self.cursor),
            Source::File { .. } => self.cached.as_ref().filter(|f| f.tick == self.cursor),
        }
    }

    /// The frames source for readers that need other ticks than the cursor's (trails, plots,
    /// exports): the live recording or the file.
    pub fn source(&self) -> &dyn FrameSource {
        match &self.source {
            Source::Live { recording, .. } => recording,
            Source::File { reader, .. } => reader.as_ref(),
        }
    }

    /// A live run's frame of `tick` without copying it, if recorded (`None` for files).
    pub fn live_frame(&self, tick: u64) -> Option<&Frame> {
        match &self.source {
            Source::Live { recording, .. } => live_frame(recording, tick),
            Source::File { .. } => None,
        }
    }
}

fn live_frame(recording: &MemoryRecording, tick: u64) -> Option<&Frame> {
    let first = recording.frames().first()?.tick;
    recording.frames().get(tick.checked_sub(first)? as usize)
}

/// Files a frame delivered by the worker.
fn take(
    ticked: Ticked,
    recording: &mut MemoryRecording,
    finished: &mut bool,
    step_ms: &mut Option<f64>,
    summaries: &mut Vec<TickSummary>,
    events: &mut Vec<TimelineEvent>,
) {
    if let Some(ms) = ticked.step_ms {
        *step_ms = Some(step_ms.map_or(ms, |avg| avg * 0.9 + ms * 0.1));
    }
    *finished |= ticked.last;
    summaries.push(ticked.summary);
    events.extend(ticked.events);
    recording.push(ticked.frame);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::default_scene;

    /// Plays until the cursor reaches `tick`, feeding the clock small slices of wall time.
    fn play_until(p: &mut Playback, tick: u64) {
        for _ in 0..100_000 {
            if p.cursor() >= tick || !p.is_playing() {
                return;
            }
            p.advance(0.01);
            std::thread::sleep(Duration::from_millis(1));
        }
        panic!("cursor stuck at {}", p.cursor());
    }

    #[test]
    fn step_records_tick_zero_then_one_tick_at_a_time() {
        let mut p = Playback::live(Arc::new(default_scene()));
        assert_eq!(p.tick_range(), None);
        assert!(p.frame().is_none());
        p.step();
        assert_eq!(p.tick_range(), Some((0, 1)));
        assert_eq!(p.cursor(), 1);
        assert_eq!(p.frame().map(|f| f.tick), Some(1));
        p.step();
        assert_eq!((p.cursor(), p.tick_range()), (2, Some((0, 2))));
        assert_eq!(p.summaries().len(), 3);
    }

    #[test]
    fn playing_replays_recorded_ticks_before_simulating_new_ones() {
        let mut p = Playback::live(Arc::new(default_scene()));
        for _ in 0..5 {
            p.step();
        }
        p.seek(2);
        assert_eq!(p.frame().map(|f| f.tick), Some(2));
        p.play();
        // 0.3 s at real time with dt 0.1 is three ticks, all replayed.
        p.advance(0.3);
        assert_eq!((p.cursor(), p.tick_range()), (5, Some((0, 5))));
        play_until(&mut p, 8);
        assert!(p.cursor() >= 8 && p.tick_range().unwrap().1 >= 8);
        assert!(p.is_playing());
        p.reset();
        assert_eq!((p.cursor(), p.tick_range(), p.is_playing()), (0, None, false));
    }

    #[test]
    fn playing_stops_at_the_end_of_the_run_or_loops() {
        let mut scene = default_scene();
        scene.settings.duration = 0.5;
        let mut p = Playback::live(Arc::new(scene));
        p.set_speed(Speed::Fastest);
        p.play();
        play_until(&mut p, u64::MAX);
        assert_eq!(p.cursor(), 5);
        assert!(!p.is_playing());
        assert!(!p.can_advance());
        p.play();
        assert!(!p.is_playing(), "nothing left to play");
        p.set_looping(true);
        p.play();
        assert_eq!(p.cursor(), 0, "looping starts again from the first tick");
        assert!(p.is_playing());
    }
}
