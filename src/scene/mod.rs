//! Scene model, RON load/save and validation.
//!
//! A scene is what a user authors; the simulator's `World` is built from it. Every parameter a
//! scene file holds is defined here, with its defaults and validation: the model, navigation,
//! the steering behaviours and combiners ([`steering`]) and the avoidance methods
//! ([`avoidance`]). Loading reports syntax errors as `file:line:col: message` and semantic errors
//! by field path and value.

pub mod avoidance;
mod extras;
pub mod import;
mod io;
mod model;
mod navigation;
mod obstacle_index;
mod ron_tree;
mod save_format;
mod spawn_layout;
pub mod steering;
mod syntax;
mod validate;
mod validate_navigation;

pub use extras::IndAlgoKeep;
pub use io::{
    SceneError, default_scene, load_scene, parse_scene, parse_valid_scene, save_scene, save_scene_like, scene_to_ron,
    scene_to_ron_like,
};
pub use model::*;
pub use navigation::*;
pub use obstacle_index::{ObstacleIndex, overlaps_obstacle};
pub use spawn_layout::{GATE_SPAN, area_points, gate_capacity, gate_slot, spawn_rng};
pub use syntax::{SyntaxError, parse_ron};
pub use validate::{Problem, Problems, fmt_point, validate};
