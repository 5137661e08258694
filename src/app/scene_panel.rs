//! The side panel: the scene's name, description and contents, and its simulation settings
//! (seed, duration, tick length) and bounds for quick edits.

use eframe::egui;
use egui::{DragValue, Grid, TextEdit, Ui};

use super::command::Command;
use crate::scene::{Bounds, Scene};

/// Draws the scene's details; `run_agents` is the number of agents the compiled run holds
/// (placed and spawned), when there is one. Returns the edited scene when the user changed a field.
pub fn show(ui: &mut Ui, scene: &Scene, run_agents: Option<usize>) -> Option<Command> {
    let mut name = scene.name.clone();
    let mut settings = scene.settings.clone();
    let mut bounds = scene.bounds;
    ui.heading("Scene");
    Grid::new("scene settings").num_columns(2).show(ui, |ui| {
        let label = ui.label("name");
        ui.add(TextEdit::singleline(&mut name).desired_width(150.0))
            .labelled_by(label.id);
        ui.end_row();
        let label = ui.label("seed");
        ui.add(DragValue::new(&mut settings.seed)).labelled_by(label.id);
        ui.end_row();
        let label = ui.label("duration");
        ui.add(
            DragValue::new(&mut settings.duration)
                .range(0.1..=86_400.0)
                .suffix(" s"),
        )
        .labelled_by(label.id);
        ui.end_row();
        let label = ui.label("tick (dt)");
        ui.add(
            DragValue::new(&mut settings.dt)
                .range(0.001..=1.0)
                .speed(0.001)
                .suffix(" s"),
        )
        .labelled_by(label.id);
        ui.end_row();
        bounds_rows(ui, &mut bounds);
    });
    ui.separator();
    let spawned: u64 = scene.spawns.iter().map(|g| u64::from(g.count)).sum();
    ui.label(format!(
        "{} placed agents, {} in {} spawn group(s), {} targets, {} paths, {} obstacles",
        scene.agents.len(),
        spawned,
        scene.spawns.len(),
        scene.targets.len(),
        scene.paths.len(),
        scene.obstacles.len()
    ));
    if let Some(n) = run_agents {
        ui.label(format!("{n} agents in the run"));
    }
    if !scene.description.is_empty() {
        ui.add_space(4.0);
        ui.weak(&scene.description);
    }
    (name != scene.name || settings != scene.settings || bounds != scene.bounds).then(|| {
        Command::EditScene(Box::new(Scene {
            name,
            settings,
            bounds,
            ..scene.clone()
        }))
    })
}

/// The bounds' corners as two rows of x / y fields, each corner kept at least a metre short of
/// the other (the editor draws the bounds as a grey rectangle).
fn bounds_rows(ui: &mut Ui, bounds: &mut Bounds) {
    let tip = "The scene's extent: route planning and the neighbour grid cover it";
    let label = ui.label("bounds min").on_hover_text(tip);
    ui.horizontal(|ui| {
        let (max, min) = (bounds.max, &mut bounds.min);
        ui.add(
            DragValue::new(&mut min.x)
                .range(-1e5..=max.x - 1.0)
                .prefix("x ")
                .suffix(" m"),
        )
        .labelled_by(label.id);
        ui.add(
            DragValue::new(&mut min.y)
                .range(-1e5..=max.y - 1.0)
                .prefix("y ")
                .suffix(" m"),
        )
        .labelled_by(label.id);
    });
    ui.end_row();
    let label = ui.label("bounds max").on_hover_text(tip);
    ui.horizontal(|ui| {
        let (min, max) = (bounds.min, &mut bounds.max);
        ui.add(
            DragValue::new(&mut max.x)
                .range(min.x + 1.0..=1e5)
                .prefix("x ")
                .suffix(" m"),
        )
        .labelled_by(label.id);
        ui.add(
            DragValue::new(&mut max.y)
                .range(min.y + 1.0..=1e5)
                .prefix("y ")
                .suffix(" m"),
        )
        .labelled_by(label.id);
    });
    ui.end_row();
}
