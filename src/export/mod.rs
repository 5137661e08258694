//! Exports of a recording: PNG frame sequences (through the shared draw list) and the
//! skeleton XML of the Animation Renderer for Crowd.

mod png;
mod skeleton_xml;
mod ticks;

pub use png::{PngOptions, export_png_sequence};
pub use skeleton_xml::{Movement, MovementThresholds, SkeletonOptions, export_skeleton_xml, write_skeleton_xml};
pub use ticks::TickSelection;
