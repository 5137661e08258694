//! Backend-free drawing: a [`DrawList`] of primitives in world coordinates, built from
//! (recording header, frame, overlay options), rendered by the egui canvas and by tiny-skia for PNG
//! export — one drawing path, so an exported frame looks like the canvas.

mod backend;
mod build;
mod list;
mod overlay;
mod raster;
mod skia;
mod style;
mod text;
mod view;

pub use backend::{Backend, arrow_lines, circle_points, paint, paint_shapes};
pub use build::{build_frame_draw_list, build_frame_layers, build_frame_layers_into, build_scene_draw_list};
pub use list::{Color, DrawList, Shape, Stroke};
pub use overlay::{
    ColourBy, DENSITY_FULL_SCALE, DENSITY_RADIUS, Focus, Overlays, neighbour_counts, ramp, sensing_radius,
};
pub use skia::{draw_over, fill_pixmap, render_to_pixmap};
pub use style::{force_color, palette};
pub use view::{FIT_MARGIN, View};
