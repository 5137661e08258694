//! The time cursor ([`TimeControl`], after rerun's `TimeControl`): the tick shown, whether it is
//! playing or following the live edge, the loop and the speed. It changes only through the
//! [`TimeCommand`]s given to [`TimeControl::apply`] and moves on its own only in
//! [`TimeControl::advance`]. It sees the frames through [`TickSource`], so it is tested here with a
//! fake source, without any GUI.
//!
//! Pacing is by wall time: while playing, a fractional play head moves `speed × elapsed / dt`
//! ticks per UI frame and the cursor shows the recorded tick at or before it. Behind the newest
//! tick that replays the recording. Past the newest tick of a live run the cursor *follows* the
//! live edge: every frame it asks the source for the ticks up to one recorded frame past the head,
//! so the simulation runs at the clock's pace. When the simulation cannot keep up, the head waits
//! at most [`LEAD_SECONDS`] of play past the newest tick (the worker always has work queued and
//! no debt builds up), the cursor shows each tick as it arrives, and
//! [`TimeControl::is_simulation_bound`] says so next to the measured rate.

use super::command::{Loop, Speed, TimeCommand};

/// Longest wall time one UI frame feeds to the play clock (after a stall the cursor does not jump).
pub const MAX_FRAME_SECONDS: f64 = 0.25;
/// Recorded frames a replay moves per UI frame at [`Speed::Fastest`].
pub const FASTEST_FRAMES: u64 = 50;
/// How far ahead of the newest tick of a live run the play head may run, in wall seconds of play.
const LEAD_SECONDS: f64 = 0.25;
/// Wall time over which the play rate is measured.
const RATE_WINDOW: f64 = 0.5;
/// Slack when the play head is cut to a tick, so that `0.3 s / 0.1 s` is three ticks.
const SNAP_EPSILON: f64 = 1e-6;

/// What the time cursor reads and asks of the frames it moves over.
pub trait TickSource {
    /// The recorded ticks `(first, newest)`, or `None` before a live run's first frame.
    fn tick_range(&self) -> Option<(u64, u64)>;
    /// Ticks between two recorded frames (1 when every tick is recorded).
    fn stride(&self) -> u64;
    /// Simulated seconds per tick.
    fn dt(&self) -> f32;
    /// True when no tick will be recorded any more (a file; a live run that has ended).
    fn is_complete(&self) -> bool;
    /// Asks for the ticks up to `tick` to be recorded in the background (a live run simulates
    /// towards it); `None` stops after the tick in progress. A file has nothing to do.
    fn request_until(&mut self, tick: Option<u64>);
    /// Records the next frame after the newest (a live run simulates it), waiting for it.
    fn produce_next(&mut self);
}

/// Whether the cursor moves by itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlayState {
    /// The cursor stays where it is.
    #[default]
    Paused,
    /// The cursor replays recorded ticks at the chosen speed.
    Playing,
    /// The cursor is at the newest tick of a live run, which is simulated at the chosen speed.
    Following,
}

/// The time cursor: the tick shown, play state, speed and loop. See the module docs.
#[derive(Clone, Debug, Default)]
pub struct TimeControl {
    tick: u64,
    /// The play head in (fractional) ticks; equal to `tick` unless playing.
    head: f64,
    state: PlayState,
    speed: Speed,
    looping: Loop,
    /// True when the last [`TimeControl::advance`] held the head back for the simulation.
    simulation_bound: bool,
    meter: RateMeter,
}

impl TimeControl {
    /// A paused cursor on the first recorded tick of `source` (tick 0 before a live run's first
    /// frame), at real-time speed, not looping.
    pub fn new(source: &dyn TickSource) -> TimeControl {
        let tick = source.tick_range().map_or(0, |(first, _)| first);
        TimeControl {
            tick,
            head: tick as f64,
            ..TimeControl::default()
        }
    }

    /// A paused cursor on the new `source`, keeping this cursor's speed and looping (a loop range
    /// of the old frames becomes the whole run).
    pub fn restarted(&self, source: &dyn TickSource) -> TimeControl {
        let looping = match self.looping {
            Loop::Range { .. } => Loop::All,
            other => other,
        };
        TimeControl {
            speed: self.speed,
            looping,
            ..TimeControl::new(source)
        }
    }

    /// The tick shown.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Whether the cursor moves by itself.
    pub fn state(&self) -> PlayState {
        self.state
    }

    /// True while playing (replaying or following the live edge).
    pub fn is_playing(&self) -> bool {
        self.state != PlayState::Paused
    }

    /// True while the cursor follows the newest tick of a live run as it is simulated.
    pub fn is_following(&self) -> bool {
        self.state == PlayState::Following
    }

    /// The chosen play speed.
    pub fn speed(&self) -> Speed {
        self.speed
    }

    /// What playing does at the end.
    pub fn looping(&self) -> Loop {
        self.looping
    }

    /// True when the cursor waited for the simulation in the last frame: the live run is slower
    /// than the chosen speed.
    pub fn is_simulation_bound(&self) -> bool {
        self.simulation_bound
    }

    /// Simulated seconds the cursor moved per wall second, measured over the last half second of
    /// playing (`None` until measured).
    pub fn measured_speed(&self) -> Option<f64> {
        self.meter.rate
    }

    /// True when [`TimeCommand::Play`] would move the cursor: ticks lie ahead, recorded or still
    /// to simulate, or a loop starts again.
    pub fn can_play(&self, source: &dyn TickSource) -> bool {
        !source.is_complete()
            || self.loop_bounds(source).is_some()
            || source.tick_range().is_some_and(|(_, newest)| self.tick < newest)
    }

    /// True when [`TimeCommand::StepForward`] would move the cursor.
    pub fn can_step_forward(&self, source: &dyn TickSource) -> bool {
        !source.is_complete() || after(source, self.tick).is_some()
    }

    /// True when [`TimeCommand::StepBack`] would move the cursor.
    pub fn can_step_back(&self, source: &dyn TickSource) -> bool {
        before(source, self.tick).is_some()
    }

    /// True when the cursor is on the last tick of a run that will not grow any more.
    pub fn at_end(&self, source: &dyn TickSource) -> bool {
        source.is_complete() && source.tick_range().is_some_and(|(_, newest)| self.tick >= newest)
    }

    /// The loop's first and last tick as it applies to `source` now: the whole run once it is
    /// complete, or the loop range clipped to what can be recorded; `None` when not looping.
    pub fn loop_bounds(&self, source: &dyn TickSource) -> Option<(u64, u64)> {
        let (first, newest) = source.tick_range()?;
        match self.looping {
            Loop::Off => None,
            Loop::All => source.is_complete().then_some((first, newest)),
            Loop::Range { start, end } => {
                let start = at_or_before(source, start)?;
                let end = if source.is_complete() { end.min(newest) } else { end };
                (start <= end).then_some((start, end))
            }
        }
    }

    /// Carries out `command`, asking `source` to start or stop simulating when it must.
    pub fn apply(&mut self, command: TimeCommand, source: &mut dyn TickSource) {
        match command {
            TimeCommand::Play => self.play(source),
            TimeCommand::Pause => self.pause(source),
            TimeCommand::TogglePlay if self.is_playing() => self.pause(source),
            TimeCommand::TogglePlay => self.play(source),
            TimeCommand::StepForward => {
                self.pause(source);
                if after(source, self.tick).is_none() && !source.is_complete() {
                    source.produce_next();
                }
                if let Some(tick) = after(source, self.tick) {
                    self.move_to(tick);
                }
            }
            TimeCommand::StepBack => {
                self.pause(source);
                if let Some(tick) = before(source, self.tick) {
                    self.move_to(tick);
                }
            }
            TimeCommand::SeekTo(tick) => self.seek(at_or_before(source, tick), source),
            TimeCommand::JumpToStart => self.seek(source.tick_range().map(|(first, _)| first), source),
            TimeCommand::JumpToEnd => self.seek(source.tick_range().map(|(_, newest)| newest), source),
            TimeCommand::SetSpeed(speed) => {
                self.speed = speed;
                self.meter = RateMeter::default();
            }
            TimeCommand::SetLoop(Loop::Range { start, end }) => {
                self.looping = Loop::Range {
                    start: start.min(end),
                    end: start.max(end),
                }
            }
            TimeCommand::SetLoop(looping) => self.looping = looping,
        }
    }

    /// Moves a playing cursor by `seconds` of wall time (at most `MAX_FRAME_SECONDS`, 0.25 s): through
    /// the recorded ticks, then (a live run) following the live edge and asking `source` for the
    /// ticks that are due; at the end it stops, or starts the loop again.
    pub fn advance(&mut self, seconds: f64, source: &mut dyn TickSource) {
        self.simulation_bound = false;
        if self.state == PlayState::Paused {
            return;
        }
        let seconds = seconds.clamp(0.0, MAX_FRAME_SECONDS);
        let stride = source.stride().max(1);
        let complete = source.is_complete();
        let range = source.tick_range();
        let (first, newest) = (range.map_or(0, |r| r.0), range.map(|r| r.1));
        let on_grid = |head: f64| {
            let tick = (head + SNAP_EPSILON).floor() as u64;
            first + tick.saturating_sub(first) / stride * stride
        };
        let ticks_per_second = self.speed.factor().map(|f| f / f64::from(source.dt()));
        let before = self.tick;
        match ticks_per_second {
            Some(rate) => self.head += seconds * rate,
            None if self.is_following() => self.head = self.head.max(newest.map_or(0, |n| n + stride) as f64),
            None => self.head += (FASTEST_FRAMES * stride) as f64,
        }
        let mut due = on_grid(self.head);
        if let Some((start, end)) = self.loop_bounds(source)
            && due > end
        {
            self.seek(Some(start), source);
            self.meter.record(seconds, 0.0);
            return;
        }
        let at_edge = newest.is_none_or(|n| due > n);
        if at_edge && complete {
            self.pause(source);
            self.move_to(newest.unwrap_or(self.tick));
            return;
        }
        if at_edge {
            self.state = PlayState::Following;
        }
        if self.is_following() {
            if let Some(rate) = ticks_per_second {
                let lead = ((LEAD_SECONDS * rate).ceil() as u64).max(stride);
                let limit = (newest.unwrap_or(0) + lead) as f64;
                if self.head > limit {
                    self.head = limit;
                    self.simulation_bound = true;
                }
                due = on_grid(self.head);
            }
            source.request_until(Some(ticks_per_second.map_or(u64::MAX, |_| due + stride)));
        }
        self.tick = newest.map_or(self.tick, |n| due.min(n));
        let moved = self.tick.saturating_sub(before) as f64 * f64::from(source.dt());
        self.meter.record(seconds, moved);
    }

    /// Starts playing from the cursor; from outside the loop range at its start, and at the end
    /// of a complete run at the loop's start (or not at all when not looping).
    fn play(&mut self, source: &mut dyn TickSource) {
        if self.is_playing() {
            return;
        }
        let bounds = self.loop_bounds(source);
        if let Some((start, end)) = bounds
            && !(start..=end).contains(&self.tick)
        {
            self.move_to(start);
        } else if source.is_complete() && source.tick_range().is_none_or(|(_, newest)| self.tick >= newest) {
            match bounds {
                Some((start, _)) => self.move_to(start),
                None => return,
            }
        }
        self.state = PlayState::Playing;
        self.meter = RateMeter::default();
    }

    /// Stops playing and the simulation.
    fn pause(&mut self, source: &mut dyn TickSource) {
        self.state = PlayState::Paused;
        self.head = self.tick as f64;
        source.request_until(None);
    }

    /// Moves the cursor to `tick` (if any); a cursor following the live edge goes on replaying
    /// from there and the simulation stops.
    fn seek(&mut self, tick: Option<u64>, source: &mut dyn TickSource) {
        let Some(tick) = tick else {
            return;
        };
        if self.is_following() {
            self.state = PlayState::Playing;
            source.request_until(None);
        }
        self.move_to(tick);
    }

    fn move_to(&mut self, tick: u64) {
        self.tick = tick;
        self.head = tick as f64;
    }
}

/// The recorded tick at or before `tick` (the first one when `tick` is earlier), `None` before
/// anything is recorded.
fn at_or_before(source: &dyn TickSource, tick: u64) -> Option<u64> {
    let (first, newest) = source.tick_range()?;
    let stride = source.stride().max(1);
    Some(first + (tick.clamp(first, newest) - first) / stride * stride)
}

/// The recorded tick after `tick`, if recorded.
fn after(source: &dyn TickSource, tick: u64) -> Option<u64> {
    let (first, newest) = source.tick_range()?;
    let stride = source.stride().max(1);
    let next = if tick < first {
        first
    } else {
        first + ((tick - first) / stride + 1) * stride
    };
    (next <= newest).then_some(next)
}

/// The recorded tick before `tick`, if any.
fn before(source: &dyn TickSource, tick: u64) -> Option<u64> {
    let (first, _) = source.tick_range()?;
    (tick > first).then(|| at_or_before(source, tick - 1)).flatten()
}

/// Simulated seconds per wall second, measured over [`RATE_WINDOW`].
#[derive(Clone, Debug, Default)]
struct RateMeter {
    wall: f64,
    simulated: f64,
    rate: Option<f64>,
}

impl RateMeter {
    /// Adds a frame of `wall` seconds in which the cursor moved `simulated` seconds.
    fn record(&mut self, wall: f64, simulated: f64) {
        self.wall += wall;
        self.simulated += simulated;
        if self.wall >= RATE_WINDOW {
            self.rate = Some(self.simulated / self.wall);
            self.wall = 0.0;
            self.simulated = 0.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames without any GUI or simulation: a file (complete) or a live run that records
    /// whatever was asked for when [`Fake::deliver`] is called, and ends at tick `end`.
    struct Fake {
        first: u64,
        newest: Option<u64>,
        stride: u64,
        end: u64,
        file: bool,
        requested: Option<u64>,
    }

    impl Fake {
        fn file(first: u64, last: u64, stride: u64) -> Fake {
            Fake {
                first,
                newest: Some(last),
                stride,
                end: last,
                file: true,
                requested: None,
            }
        }

        fn live(stride: u64, end: u64) -> Fake {
            Fake {
                first: 0,
                newest: None,
                stride,
                end,
                file: false,
                requested: None,
            }
        }

        /// The worker catches up with the request.
        fn deliver(&mut self) {
            if let Some(t) = self.requested {
                self.record_to(t);
            }
        }

        fn record_to(&mut self, tick: u64) {
            let tick = (tick / self.stride * self.stride).min(self.end);
            self.newest = Some(self.newest.map_or(tick, |n| n.max(tick)));
        }
    }

    impl TickSource for Fake {
        fn tick_range(&self) -> Option<(u64, u64)> {
            self.newest.map(|n| (self.first, n))
        }
        fn stride(&self) -> u64 {
            self.stride
        }
        fn dt(&self) -> f32 {
            0.1
        }
        fn is_complete(&self) -> bool {
            self.file || self.newest.is_some_and(|n| n >= self.end)
        }
        fn request_until(&mut self, tick: Option<u64>) {
            self.requested = tick;
        }
        fn produce_next(&mut self) {
            let next = self.newest.map_or(self.stride, |n| n + self.stride);
            self.record_to(next);
        }
    }

    fn run(time: &mut TimeControl, source: &mut Fake, commands: &[TimeCommand]) -> u64 {
        for &c in commands {
            time.apply(c, source);
        }
        time.tick()
    }

    #[test]
    fn commands_move_the_cursor_over_recorded_frames_only() {
        use TimeCommand::*;
        let mut file = Fake::file(4, 24, 2);
        let mut time = TimeControl::new(&file);
        assert_eq!(time.tick(), 4);
        assert_eq!(run(&mut time, &mut file, &[StepForward]), 6);
        assert_eq!(run(&mut time, &mut file, &[StepBack, StepBack]), 4);
        assert!(!time.can_step_back(&file));
        assert_eq!(run(&mut time, &mut file, &[SeekTo(11)]), 10);
        assert_eq!(run(&mut time, &mut file, &[SeekTo(99)]), 24);
        assert_eq!(run(&mut time, &mut file, &[StepForward]), 24, "nothing after the end");
        assert!(!time.can_step_forward(&file) && time.at_end(&file));
        assert_eq!(run(&mut time, &mut file, &[JumpToStart]), 4);
        assert_eq!(run(&mut time, &mut file, &[JumpToEnd]), 24);
        assert!(!time.is_playing());
    }

    #[test]
    fn playing_paces_the_cursor_by_wall_time_and_speed() {
        let mut file = Fake::file(0, 1000, 1);
        let mut time = TimeControl::new(&file);
        time.apply(TimeCommand::Play, &mut file);
        time.advance(0.2, &mut file);
        time.advance(0.1, &mut file);
        assert_eq!(time.tick(), 3, "0.3 s at 1x with dt 0.1 s");
        time.advance(0.05, &mut file);
        assert_eq!(time.tick(), 3);
        time.advance(0.05, &mut file);
        assert_eq!(time.tick(), 4);
        time.apply(TimeCommand::SetSpeed(Speed::Double), &mut file);
        time.advance(0.25, &mut file);
        assert_eq!(time.tick(), 9);
        time.advance(60.0, &mut file);
        assert_eq!(time.tick(), 14, "a stalled frame counts as {MAX_FRAME_SECONDS} s");
        time.apply(TimeCommand::SetSpeed(Speed::Fastest), &mut file);
        time.advance(0.01, &mut file);
        assert_eq!(time.tick(), 14 + FASTEST_FRAMES);
        assert_eq!(file.requested, None, "a replay asks for nothing");
        time.apply(TimeCommand::TogglePlay, &mut file);
        time.advance(0.25, &mut file);
        assert_eq!((time.tick(), time.is_playing()), (14 + FASTEST_FRAMES, false));
    }

    #[test]
    fn a_replay_stops_at_the_end_or_loops() {
        let mut file = Fake::file(0, 10, 2);
        let mut time = TimeControl::new(&file);
        time.apply(TimeCommand::Play, &mut file);
        for _ in 0..10 {
            time.advance(0.25, &mut file);
        }
        assert_eq!((time.tick(), time.is_playing()), (10, false));
        assert!(!time.can_play(&file));
        time.apply(TimeCommand::Play, &mut file);
        assert!(!time.is_playing(), "nothing left to play");
        time.apply(TimeCommand::SetLoop(Loop::All), &mut file);
        assert!(time.can_play(&file));
        time.apply(TimeCommand::Play, &mut file);
        assert_eq!((time.tick(), time.is_playing()), (0, true), "the loop starts again");
        let mut seen = Vec::new();
        for _ in 0..14 {
            time.advance(0.1, &mut file);
            seen.push(time.tick());
        }
        assert_eq!(seen, [0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 0, 0, 2]);
    }

    #[test]
    fn a_loop_range_repeats_its_ticks() {
        let mut file = Fake::file(0, 20, 1);
        let mut time = TimeControl::new(&file);
        time.apply(TimeCommand::SetLoop(Loop::Range { start: 5, end: 3 }), &mut file);
        assert_eq!(time.looping(), Loop::Range { start: 3, end: 5 });
        time.apply(TimeCommand::Play, &mut file);
        assert_eq!(time.tick(), 3, "playing starts at the loop from outside it");
        let seen: Vec<u64> = (0..7)
            .map(|_| {
                time.advance(0.1, &mut file);
                time.tick()
            })
            .collect();
        assert_eq!(seen, [4, 5, 3, 4, 5, 3, 4]);
    }

    #[test]
    fn at_the_live_edge_the_cursor_follows_and_asks_for_ticks_at_the_clocks_pace() {
        let mut live = Fake::live(1, 1000);
        let mut time = TimeControl::new(&live);
        assert!(time.can_play(&live) && time.can_step_forward(&live));
        time.apply(TimeCommand::Play, &mut live);
        time.advance(0.1, &mut live);
        assert!(time.is_following());
        assert_eq!(live.requested, Some(2), "the next frame due and one ahead");
        assert_eq!(time.tick(), 0);
        live.deliver();
        time.advance(0.1, &mut live);
        assert_eq!((time.tick(), live.requested), (2, Some(3)));
        assert!(time.is_following() && !time.is_simulation_bound());
        live.deliver();
        time.advance(0.2, &mut live);
        assert_eq!(time.tick(), 3, "never past the newest tick");
        assert_eq!(live.requested, Some(5));
        time.apply(TimeCommand::Pause, &mut live);
        assert_eq!(live.requested, None, "pausing stops the simulation");
        live.deliver();
        time.advance(0.25, &mut live);
        assert_eq!((time.tick(), time.is_playing()), (3, false));
    }

    #[test]
    fn a_slow_simulation_holds_the_cursor_at_the_newest_tick_and_shows_the_real_rate() {
        let mut live = Fake::live(1, 1000);
        let mut time = TimeControl::new(&live);
        time.apply(TimeCommand::Play, &mut live);
        live.record_to(0);
        for _ in 0..12 {
            time.advance(0.25, &mut live);
            // The worker manages one tick per 0.25 s frame, 0.4 of real time at dt 0.1.
            let newest = live.newest.unwrap();
            live.record_to(newest + 1);
        }
        assert!(time.is_simulation_bound());
        assert_eq!(
            time.tick(),
            live.newest.unwrap() - 1,
            "the newest tick received by that frame"
        );
        assert!(live.requested.unwrap() <= time.tick() + 5, "no debt: the head waits");
        let rate = time.measured_speed().unwrap();
        assert!((rate - 0.4).abs() < 1e-6, "{rate}");
    }

    #[test]
    fn stepping_at_the_live_edge_simulates_one_recorded_frame() {
        use TimeCommand::*;
        let mut live = Fake::live(2, 1000);
        let mut time = TimeControl::new(&live);
        assert_eq!(run(&mut time, &mut live, &[StepForward]), 2);
        assert_eq!(live.tick_range(), Some((0, 2)));
        assert_eq!(run(&mut time, &mut live, &[StepForward]), 4);
        assert_eq!(run(&mut time, &mut live, &[StepBack]), 2);
        assert_eq!(run(&mut time, &mut live, &[StepForward]), 4);
        assert_eq!(live.tick_range(), Some((0, 4)), "replayed, not simulated");
        assert!(!time.is_playing());
    }

    #[test]
    fn seeking_while_following_replays_from_there() {
        let mut live = Fake::live(1, 1000);
        let mut time = TimeControl::new(&live);
        time.apply(TimeCommand::TogglePlay, &mut live);
        time.advance(0.1, &mut live);
        assert!(time.is_following() && live.requested.is_some());
        live.record_to(20);
        time.apply(TimeCommand::SeekTo(5), &mut live);
        assert_eq!(
            (time.tick(), time.state(), live.requested),
            (5, PlayState::Playing, None)
        );
        time.apply(TimeCommand::JumpToEnd, &mut live);
        time.advance(0.1, &mut live);
        assert_eq!((time.tick(), time.state()), (20, PlayState::Following));
        time.apply(TimeCommand::TogglePlay, &mut live);
        assert_eq!(time.state(), PlayState::Paused);
    }

    #[test]
    fn fastest_follows_the_newest_tick_until_the_run_ends() {
        let mut live = Fake::live(1, 30);
        let mut time = TimeControl::new(&live);
        time.apply(TimeCommand::SetSpeed(Speed::Fastest), &mut live);
        time.apply(TimeCommand::Play, &mut live);
        time.advance(0.01, &mut live);
        assert_eq!(live.requested, Some(u64::MAX));
        live.record_to(12);
        time.advance(0.01, &mut live);
        assert_eq!((time.tick(), time.state()), (12, PlayState::Following));
        live.deliver();
        time.advance(0.01, &mut live);
        assert_eq!(
            (time.tick(), time.is_playing()),
            (30, false),
            "stopped at the end of the run"
        );
        assert!(time.at_end(&live));
    }
}
