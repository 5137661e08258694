//! The vocabulary of time control: the requests that move the time cursor ([`TimeCommand`]), the
//! play speeds ([`Speed`]) and what playing does at the end ([`Loop`]).

/// A request to the time cursor. [`super::TimeControl::apply`] is the only place the cursor
/// changes; the time panel and the keyboard shortcuts raise these (as `Command::Time`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeCommand {
    /// Play from the cursor: replay the recorded ticks, and at the newest tick of a live run
    /// simulate new ones. At the end of a finished run it starts again only when looping.
    Play,
    /// Stop playing (a live run stops simulating after its tick in progress); the cursor stays.
    Pause,
    /// Play when paused, pause when playing (Space).
    TogglePlay,
    /// Pause and move one recorded frame forward, simulating it when the cursor is on the newest
    /// tick of a live run.
    StepForward,
    /// Pause and move one recorded frame back.
    StepBack,
    /// Move the cursor to the recorded tick at or before this one (playing goes on from there).
    SeekTo(u64),
    /// Move the cursor to the first recorded tick (playing goes on from there).
    JumpToStart,
    /// Move the cursor to the newest tick; while playing, it then follows the live edge.
    JumpToEnd,
    /// Change how fast playing advances.
    SetSpeed(Speed),
    /// Change what playing does at the end of the run (or of a loop range).
    SetLoop(Loop),
}

/// What playing does when it reaches the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Loop {
    /// Stop at the end.
    #[default]
    Off,
    /// Start again from the first tick once the whole run is recorded (a live run keeps
    /// simulating until it has ended).
    All,
    /// Play the ticks `start..=end` again and again.
    Range {
        /// First tick of the loop.
        start: u64,
        /// Last tick of the loop.
        end: u64,
    },
}

impl Loop {
    /// True unless looping is off.
    pub fn is_on(self) -> bool {
        self != Loop::Off
    }
}

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
    /// As fast as possible: at the live edge the simulation never waits for the clock; a replay
    /// moves `FASTEST_FRAMES` (50) recorded frames per UI frame.
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
    pub fn factor(self) -> Option<f64> {
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
