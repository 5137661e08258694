//! The profiles panel: create, rename, edit and delete agent profiles (physical parameters,
//! behaviours with weights and every parameter, combiner) and assign one to the selected agents.

use eframe::egui::{self, CollapsingHeader, ComboBox, DragValue, Grid, Ui};

use super::catalogue;
use super::selection::{Item, Selection, unique_name};
use super::value_editor;
use crate::scene::{Profile, Scene};

/// Draws the panel; `chosen` is the profile being edited. Returns the edited scene, if changed.
pub fn show(ui: &mut Ui, scene: &Scene, chosen: &mut usize, selection: &Selection) -> Option<Scene> {
    let mut edited = scene.clone();
    ui.horizontal_wrapped(|ui| {
        for (i, p) in scene.profiles.iter().enumerate() {
            ui.selectable_value(chosen, i, &p.name);
        }
    });
    ui.horizontal(|ui| {
        if ui.button("New profile").clicked() {
            let name = unique_name("profile-1", |n| scene.profile(n).is_some());
            edited.profiles.push(Profile {
                name,
                ..Profile::default()
            });
            *chosen = edited.profiles.len() - 1;
        }
        let Some(profile) = scene.profiles.get(*chosen) else {
            return;
        };
        let users = scene.agents.iter().filter(|a| a.profile == profile.name).count();
        if ui
            .add_enabled(users == 0, egui::Button::new("Delete profile"))
            .on_disabled_hover_text(format!("{users} agent(s) use this profile"))
            .clicked()
        {
            edited.profiles.remove(*chosen);
            *chosen = chosen.saturating_sub(1);
        }
        let agents: Vec<usize> = selection
            .0
            .iter()
            .filter_map(|i| if let Item::Agent(k) = i { Some(*k) } else { None })
            .collect();
        if ui
            .add_enabled(!agents.is_empty(), egui::Button::new("Assign to selected"))
            .on_hover_text("Give the selected agents this profile")
            .clicked()
        {
            for k in agents {
                edited.agents[k].profile = profile.name.clone();
            }
        }
    });
    if let Some(k) = (*chosen < edited.profiles.len()).then_some(*chosen) {
        let old_name = edited.profiles[k].name.clone();
        profile_editor(ui, &mut edited.profiles[k]);
        let new_name = edited.profiles[k].name.clone();
        if new_name != old_name {
            for a in edited.agents.iter_mut().filter(|a| a.profile == old_name) {
                a.profile = new_name.clone();
            }
        }
    }
    (edited != *scene).then_some(edited)
}

/// Every field of one profile: name, physical parameters with units and limits, the combiner and
/// the behaviour list (add, remove, reorder, weight, parameters).
pub fn profile_editor(ui: &mut Ui, profile: &mut Profile) {
    Grid::new(("profile", &profile.name)).num_columns(2).show(ui, |ui| {
        let label = ui.label("profile name");
        ui.text_edit_singleline(&mut profile.name).labelled_by(label.id);
        ui.end_row();
        let number = |ui: &mut Ui, name: &str, value: &mut f32, range: std::ops::RangeInclusive<f32>, unit: &str| {
            let label = ui.label(name);
            ui.add(DragValue::new(value).range(range).speed(0.01).suffix(unit))
                .labelled_by(label.id);
            ui.end_row();
        };
        number(ui, "radius", &mut profile.radius, 0.01..=10.0, " m");
        number(ui, "mass", &mut profile.mass, 0.01..=1000.0, " kg");
        number(ui, "max speed", &mut profile.max_speed, 0.0..=50.0, " m/s");
        let max_speed = profile.max_speed;
        number(
            ui,
            "preferred speed",
            &mut profile.preferred_speed,
            0.0..=max_speed,
            " m/s",
        );
        number(ui, "max force", &mut profile.max_force, 0.0..=1000.0, " N");
        number(
            ui,
            "max turn rate",
            &mut profile.max_turn_rate_deg,
            0.0..=3600.0,
            " °/s",
        );
    });
    value_editor::edit_enum(ui, "combiner", &mut profile.combiner);
    value_editor::edit_enum(ui, "preferred velocity", &mut profile.preferred_velocity);
    value_editor::edit_enum(ui, "avoidance", &mut profile.avoidance);
    ui.checkbox(
        &mut profile.non_reactive,
        "non-reactive (others avoid it, it avoids no one)",
    );

    ui.separator();
    behaviours_editor(ui, profile);
}

fn behaviours_editor(ui: &mut Ui, profile: &mut Profile) {
    ui.strong("Behaviours (in priority order)");
    let mut remove = None;
    let mut swap = None;
    let n = profile.behaviours.len();
    for (j, spec) in profile.behaviours.iter_mut().enumerate() {
        ui.push_id(j, |ui| {
            ui.horizontal(|ui| {
                ui.label(spec.behaviour.label());
                let label = ui.label("weight");
                ui.add(DragValue::new(&mut spec.weight).range(0.0..=100.0).speed(0.01))
                    .labelled_by(label.id);
                if ui
                    .add_enabled(j > 0, egui::Button::new("up"))
                    .on_hover_text("Move up")
                    .clicked()
                {
                    swap = Some(j - 1);
                }
                if ui
                    .add_enabled(j + 1 < n, egui::Button::new("down"))
                    .on_hover_text("Move down")
                    .clicked()
                {
                    swap = Some(j);
                }
                if ui.button("remove").on_hover_text("Remove this behaviour").clicked() {
                    remove = Some(j);
                }
            });
            CollapsingHeader::new("parameters").id_salt(j).show(ui, |ui| {
                value_editor::edit(ui, j, &mut spec.behaviour);
            });
        });
    }
    if let Some(j) = swap {
        profile.behaviours.swap(j, j + 1);
    }
    if let Some(j) = remove {
        profile.behaviours.remove(j);
    }
    ComboBox::from_id_salt("add behaviour")
        .selected_text("Add behaviour")
        .show_ui(ui, |ui| {
            for (name, spec) in catalogue::behaviours() {
                if ui.selectable_label(false, name).clicked() {
                    profile.behaviours.push(spec);
                }
            }
        });
}
