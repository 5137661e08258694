//! The left panel's overlay section: a switch per annotation, the agent colouring, the overlay
//! with its key, the filter and follow-camera, and the legend (one colour per force kind, vectors and events).

use eframe::egui;
use egui::{ComboBox, DragValue, Ui};

use super::analysis::EventKind;
use super::colour_key;
use super::paint::color32;
use super::selection::{Filter, Selection};
use super::time::timeline::event_color;
use crate::draw::{ColourBy, Overlays, force_color, palette};
use crate::record::RecordingHeader;

/// Draws the overlay switches, colouring, filter and legend of the run recorded under `header`,
/// editing `overlays` and `selection`.
pub fn show(ui: &mut Ui, header: &RecordingHeader, overlays: &mut Overlays, selection: &mut Selection) {
    let scene = &header.scene;
    ui.heading("Overlays");
    ui.checkbox(&mut overlays.forces, "Forces");
    ui.checkbox(&mut overlays.force_labels, "Force names (selected)");
    ui.checkbox(&mut overlays.steering, "Steering");
    ui.checkbox(&mut overlays.velocity, "Velocity");
    ui.checkbox(&mut overlays.preferred_velocity, "Preferred velocity");
    ui.checkbox(&mut overlays.heading, "Heading");
    ui.horizontal(|ui| {
        ui.checkbox(&mut overlays.trails, "Trails");
        ui.add(
            DragValue::new(&mut overlays.trail_seconds)
                .range(0.1..=60.0)
                .speed(0.1)
                .suffix(" s"),
        );
    });
    ui.checkbox(&mut overlays.neighbours, "Neighbour links");
    ui.checkbox(&mut overlays.sensing, "Sensing range (selected)");
    ui.checkbox(&mut overlays.goal, "Goal (selected)");
    ui.checkbox(&mut overlays.avoidance, "Velocity obstacles / ORCA (selected)");
    ui.checkbox(&mut overlays.labels, "Labels");
    ui.horizontal(|ui| {
        let scale = ui.label("arrow m/N");
        ui.add(DragValue::new(&mut overlays.force_scale).range(0.05..=5.0).speed(0.01))
            .labelled_by(scale.id);
    });
    ComboBox::from_label("colour by")
        .selected_text(overlays.colour_by.name())
        .show_ui(ui, |ui| {
            for mode in ColourBy::ALL {
                ui.selectable_value(&mut overlays.colour_by, mode, mode.name());
            }
        });
    colour_key::show(ui, header, overlays.colour_by);

    ui.separator();
    let filter_name = match &selection.filter {
        Filter::All => "all agents".to_string(),
        Filter::Selected => "selected agent".to_string(),
        Filter::Profile(name) => format!("profile {name}"),
    };
    ComboBox::from_label("show overlays of")
        .selected_text(filter_name)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut selection.filter, Filter::All, "all agents");
            ui.selectable_value(&mut selection.filter, Filter::Selected, "selected agent");
            for p in &scene.profiles {
                let name = format!("profile {}", p.name);
                ui.selectable_value(&mut selection.filter, Filter::Profile(p.name.clone()), name);
            }
        });
    ui.horizontal(|ui| {
        ui.checkbox(&mut selection.follow, "Follow selected");
        if selection.selected.is_some() && ui.button("Deselect").clicked() {
            selection.selected = None;
        }
    });

    ui.separator();
    legend(ui, header);
}

/// One swatch per force label of the recording, the vector colours and the event markers.
fn legend(ui: &mut Ui, header: &RecordingHeader) {
    let pal = palette();
    ui.label("Legend");
    let forces = header.labels.iter().map(|label| (label.clone(), force_color(label)));
    let vectors = [
        ("steering (combined)", pal.steering),
        ("velocity", pal.velocity),
        ("preferred velocity", pal.preferred_velocity),
        ("selected", pal.selection),
    ]
    .map(|(n, c)| (n.to_string(), c));
    let events = [
        ("arrival", EventKind::Arrived),
        ("collision", EventKind::Collision),
        ("state change", EventKind::StateChange(0)),
    ]
    .map(|(n, kind)| (n.to_string(), event_color(kind)));
    let entries = forces
        .map(|(n, c)| (n, color32(c)))
        .chain(vectors.map(|(n, c)| (n, color32(c))))
        .chain(events);
    colour_key::swatches(ui, entries);
}
