//! The integration tests, as one test binary: each module was a test binary of its own, and
//! linking the application (egui included) once instead of two dozen times is most of what a
//! fresh `cargo test` costs. Run one module with `cargo test --test suite gui_sim::`.
//!
//! The GUI modules (egui_kittest) need the `gui` feature, on by default.

mod avoidance_support;
mod common;

mod avoidance_properties;
mod avoidance_scenarios;
mod buckland_scenarios;
mod bundled_avoidance_scenes;
mod cli;
mod crash_report;
mod export_png;
mod export_trajectories;
#[cfg(feature = "gui")]
mod gui;
#[cfg(feature = "gui")]
mod gui_editor;
#[cfg(feature = "gui")]
mod gui_import;
#[cfg(feature = "gui")]
mod gui_sim;
mod human_scenarios;
mod import_indalgo;
mod import_steersuite;
mod nav_scenarios;
mod reliability;
mod run_and_record;
mod scene_file;
mod steersuite_cases;
mod stria_forces;
mod validation;
