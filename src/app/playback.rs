//! The timeline's store and cursor: a live run (a [`World`] appending frames to a
//! [`MemoryRecording`]) or a replayed `.crowdrec` file, the tick under the cursor, and the
//! play clock that advances it.
//!
//! "Playing" always moves the cursor forward one tick at a time: through recorded ticks when the
//! cursor is behind the newest one, and by simulating a new tick when it is at the newest tick of
//! a live run. So pausing, scrubbing back and pressing Run again replays up to the live edge and
//! then continues the simulation. Ticks are stepped on the UI thread, at most
//! [`MAX_TICKS_PER_FRAME`] per frame and within [`FRAME_BUDGET`] of wall time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::record::{Frame, FrameSource, MemoryRecording, RecordingError, RecordingHeader, RecordingReader};
use crate::scene::Scene;
use crate::sim::World;
use crate::sim::run::header_for;

/// Most ticks advanced in one UI frame.
pub const MAX_TICKS_PER_FRAME: u32 = 50;
/// Wall time one UI frame may spend simulating before the rest is left to the next frame.
pub const FRAME_BUDGET: Duration = Duration::from_millis(20);

/// How fast playing advances, relative to simulation time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    /// Half real time.
    Half,
    /// One simulated second per wall-clock second.
    #[default]
    RealTime,
    /// Twice real time.
    Double,
    /// Five times real time.
    Five,
    /// As many ticks as the frame budget allows.
    Fastest,
}

impl Speed {
    /// Every speed, slowest first (for the speed menu).
    pub const ALL: [Speed; 5] = [Speed::Half, Speed::RealTime, Speed::Double, Speed::Five, Speed::Fastest];

    /// The name shown in the speed menu.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Half => "0.5x",
            Speed::RealTime => "1x",
            Speed::Double => "2x",
            Speed::Five => "5x",
            Speed::Fastest => "fastest",
        }
    }

    /// Simulated seconds per wall-clock second, or `None` for [`Speed::Fastest`].
    fn factor(self) -> Option<f32> {
        match self {
            Speed::Half => Some(0.5),
            Speed::RealTime => Some(1.0),
            Speed::Double => Some(2.0),
            Speed::Five => Some(5.0),
            Speed::Fastest => None,
        }
    }
}

/// Where the frames come from.
enum Source {
    /// A simulation in progress and the frames it has produced (empty before the first tick).
    Live { world: World, recording: MemoryRecording },
    /// A recording file replayed on its own.
    File(RecordingReader),
}

/// A store of frames, the timeline cursor into it and the play clock.
pub struct Playback {
    source: Source,
    cursor: u64,
    playing: bool,
    speed: Speed,
    /// Ticks owed to the play clock (fractional remainder carried between frames).
    owed: f32,
    /// Smoothed wall time of one simulated tick, in milliseconds.
    step_ms: Option<f64>,
    /// The last frame decoded from a file, keyed by its tick.
    cached: Option<Frame>,
}

impl Playback {
    /// A live run of `scene`, not yet started (tick 0, nothing recorded).
    pub fn live(scene: Arc<Scene>) -> Playback {
        let world = World::new(scene);
        let recording = MemoryRecording::new(header_for(&world));
        Playback::with_source(Source::Live { world, recording }, 0)
    }

    /// A replay of an opened recording, cursor on its first tick.
    pub fn replay(reader: RecordingReader) -> Playback {
        let first = reader.first_tick();
        Playback::with_source(Source::File(reader), first)
    }

    fn with_source(source: Source, cursor: u64) -> Playback {
        Playback {
            source,
            cursor,
            playing: false,
            speed: Speed::default(),
            owed: 0.0,
            step_ms: None,
            cached: None,
        }
    }

    /// The recording header: scene, force labels, mind states, dt.
    pub fn header(&self) -> &RecordingHeader {
        match &self.source {
            Source::Live { recording, .. } => recording.header(),
            Source::File(reader) => reader.header(),
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
            Source::File(reader) => Some((reader.first_tick(), reader.last_tick())),
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

    /// True when a live run has ended (every agent done or the scene's duration reached).
    pub fn simulation_finished(&self) -> bool {
        match &self.source {
            Source::Live { world, .. } => world.all_done() || world.duration_reached(),
            Source::File(_) => true,
        }
    }

    /// True when there is a next tick to move to, recorded or still to simulate.
    pub fn can_advance(&self) -> bool {
        let behind = self.tick_range().is_some_and(|(_, last)| self.cursor < last);
        behind || !self.simulation_finished()
    }

    /// Starts playing from the cursor (nothing happens at the end of the run).
    pub fn play(&mut self) {
        self.playing = self.can_advance();
        self.owed = 0.0;
    }

    /// Stops playing; the cursor stays.
    pub fn pause(&mut self) {
        self.playing = false;
    }

    /// Pauses and advances exactly one tick, if there is one.
    pub fn step(&mut self) {
        self.pause();
        self.advance_one();
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
            Source::Live { world, .. } => {
                let scene = world.scene().clone();
                *self = Playback {
                    speed: self.speed,
                    ..Playback::live(scene)
                };
            }
            Source::File(reader) => {
                self.cursor = reader.first_tick();
                self.playing = false;
            }
        }
    }

    /// Advances the play clock by `frame_seconds` of wall time: moves the cursor as many ticks as
    /// the speed makes due (bounded per frame), and stops playing at the end of the run.
    pub fn advance(&mut self, frame_seconds: f32) {
        if !self.playing {
            return;
        }
        let due = match self.speed.factor() {
            Some(factor) => {
                self.owed += frame_seconds.max(0.0) * factor / self.header().dt;
                let due = (self.owed.floor() as u32).min(MAX_TICKS_PER_FRAME);
                self.owed = (self.owed - due as f32).min(1.0);
                due
            }
            None => MAX_TICKS_PER_FRAME,
        };
        let start = Instant::now();
        for _ in 0..due {
            if !self.advance_one() {
                self.playing = false;
                return;
            }
            if start.elapsed() > FRAME_BUDGET {
                break;
            }
        }
        if !self.can_advance() {
            self.playing = false;
        }
    }

    /// Moves the cursor one tick forward, simulating a new tick at the live edge of a live run
    /// (the first one also records tick 0). False when there is no next tick.
    fn advance_one(&mut self) -> bool {
        if let Some((_, last)) = self.tick_range()
            && self.cursor < last
        {
            self.cursor += 1;
            return true;
        }
        if self.simulation_finished() {
            return false;
        }
        let Source::Live { world, recording } = &mut self.source else {
            return false;
        };
        if recording.is_empty() {
            recording.push(world.snapshot_frame());
        }
        let start = Instant::now();
        let frame = world.step();
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        self.step_ms = Some(self.step_ms.map_or(ms, |avg| avg * 0.9 + ms * 0.1));
        self.cursor = frame.tick;
        recording.push(frame);
        true
    }

    /// Decodes the cursor's frame of a replayed file unless it is already at hand (a live run's
    /// frames are always in memory). Call before [`Playback::frame`].
    pub fn load_frame(&mut self) -> Result<(), RecordingError> {
        if let Source::File(reader) = &self.source
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
            Source::Live { recording, .. } => {
                let first = recording.tick_range().0;
                recording.frames().get(self.cursor.saturating_sub(first) as usize)
            }
            Source::File(_) => self.cached.as_ref().filter(|f| f.tick == self.cursor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::default_scene;

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
        // 0.5 s at real time with dt 0.1 is five ticks: three replayed, two simulated.
        p.advance(0.5);
        assert_eq!((p.cursor(), p.tick_range()), (7, Some((0, 7))));
        assert!(p.is_playing());
        p.reset();
        assert_eq!((p.cursor(), p.tick_range(), p.is_playing()), (0, None, false));
    }

    #[test]
    fn playing_stops_at_the_end_of_the_run() {
        let mut scene = default_scene();
        scene.settings.duration = 0.5;
        let mut p = Playback::live(Arc::new(scene));
        p.set_speed(Speed::Fastest);
        p.play();
        p.advance(0.0);
        assert_eq!(p.cursor(), 5);
        assert!(!p.is_playing());
        assert!(!p.can_advance());
        p.play();
        assert!(!p.is_playing(), "nothing left to play");
    }
}
