//! Time control, after rerun's `TimeControl` / `TimeControlCommand`: the frames apart from the
//! cursor that moves over them.
//!
//! - [`Frames`] (`source`) is the frame source: a live run (`live`: the simulation `worker`
//!   and the frames it delivered) or a replayed file (`replay`, with its background `scan`),
//!   plus the analysis of the recorded ticks for the event strip and plots. It answers which
//!   ticks exist, hands out the frame of a tick and says whether the run is finished. Recordings
//!   may have a stride (`record_every`): the ticks are `first, first + stride, …`.
//! - [`TimeControl`] (`control`) is the cursor: the tick shown, playing / following the live
//!   edge / paused, the loop and the speed. It changes only through a [`TimeCommand`]
//!   (`command`) given to [`TimeControl::apply`], and moves by itself only in
//!   [`TimeControl::advance`], paced by elapsed wall time. It reads the frames, and asks the live
//!   run for more ticks, through the small [`TickSource`] trait, so it is tested without a GUI.
//! - The time panel (`panel`, with the `timeline`: ruler, event rows, the selected agent's row,
//!   zoom and range selection) draws the transport and raises
//!   `Command::Time` requests; the keyboard shortcuts raise the same ones. One Play/Pause toggle
//!   (Space) replays recorded ticks and, at the newest tick of a live run, simulates new ones;
//!   Step moves one recorded frame forward, simulating it at the newest tick.

mod command;
mod control;
mod live;
pub(super) mod panel;
mod replay;
mod scan;
mod source;
pub(super) mod timeline;
mod worker;

pub use command::{Loop, Speed, TimeCommand};
pub use control::{PlayState, TickSource, TimeControl};
pub use source::Frames;
pub use timeline::{TimeWindow, Timeline};
