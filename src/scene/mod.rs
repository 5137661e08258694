//! Scene model, RON load/save and validation.
//!
//! A scene is what a user authors; [`crate::sim::World`] is built from it. Loading reports
//! syntax errors as `file:line:col: message` and semantic errors by field path and value.

mod extras;
pub mod import;
mod io;
mod model;
mod navigation;
mod validate;
mod validate_navigation;

pub use extras::IndAlgoKeep;
pub use io::{SceneError, default_scene, load_scene, parse_scene, parse_valid_scene, save_scene, scene_to_ron};
pub use model::*;
pub use navigation::*;
pub use validate::{Problem, Problems, fmt_point, validate};
