//! Exports of a recording: PNG frame sequences (through the shared draw list) and the
//! skeleton XML of the Animation Renderer for Crowd and CSV trajectories.

mod camera;
mod csv;
mod png;
mod skeleton_xml;
mod ticks;
mod timesteps;

pub use camera::Camera;
pub use csv::{export_csv, write_csv};
pub use png::{
    Numbering, PngOptions, check_image_size, encode_png, export_png_sequence, png_draw_list, preview_first_frame,
};
pub use skeleton_xml::{
    Movement, MovementThresholds, SkeletonOptions, StateMapping, export_skeleton_xml, write_skeleton_xml,
};
pub use ticks::TickSelection;
pub use timesteps::{Pose, for_each_timestep};
