//! The left panel's overlay section: a switch per annotation, the agent colouring, the overlay
//! with its key, the filter and follow-camera, and the legend (one colour per force kind, vectors and events).

use eframe::egui;
use egui::{ComboBox, DragValue, RichText, Ui};

use super::analysis::EventKind;
use super::colour_key;
use super::paint::color32;
use super::selection::{Filter, Selection};
use super::time::timeline::event_color;
use crate::draw::{ColourBy, Overlays, force_color, palette};
use crate::record::RecordingHeader;

/// Crowds from which the force arrows slow a window drawn without a GPU enough to say so (under
/// llvmpipe 1,000 walkers with their arrows play at about 28 frames/s, 5,000 at 6).
const SLOW_ARROWS_AGENTS: usize = 2_000;

/// Draws the overlay switches, colouring, filter and legend of the run recorded under `header`,
/// editing `overlays` and `selection`; `software_renderer`: the window draws without a GPU.
pub fn show(
    ui: &mut Ui,
    header: &RecordingHeader,
    overlays: &mut Overlays,
    selection: &mut Selection,
    software_renderer: bool,
) {
    let scene = &header.scene;
    ui.heading("Overlays");
    ui.checkbox(&mut overlays.forces, "Forces");
    ui.checkbox(&mut overlays.force_labels, "Force names (selected)");
    ui.checkbox(&mut overlays.steering, "Steering");
    if let Some(hint) = slow_arrows_hint(header.agents.len(), overlays, software_renderer) {
        ui.label(RichText::new(hint).small().color(ui.visuals().warn_fg_color));
    }
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

/// What to tell the user when the window draws without a GPU and `agents` agents' force or
/// steering arrows are on: they are most of what each frame draws.
fn slow_arrows_hint(agents: usize, overlays: &Overlays, software_renderer: bool) -> Option<String> {
    let arrows = overlays.forces || overlays.steering;
    (software_renderer && arrows && agents >= SLOW_ARROWS_AGENTS).then(|| {
        format!(
            "Drawn without a GPU: the arrows of {agents} agents are most of each frame. \
             Turn Forces and Steering off to play smoothly."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_gpu_a_large_crowd_with_arrows_is_told_to_turn_them_off() {
        let arrows = Overlays::default();
        assert!(arrows.forces || arrows.steering, "arrows are on by default");
        let hint = slow_arrows_hint(5_000, &arrows, true).expect("a hint");
        assert!(
            hint.contains("5000 agents") && hint.contains("Forces and Steering"),
            "{hint}"
        );
        assert_eq!(slow_arrows_hint(5_000, &arrows, false), None, "with a GPU");
        assert_eq!(
            slow_arrows_hint(SLOW_ARROWS_AGENTS - 1, &arrows, true),
            None,
            "a small crowd"
        );
        let quiet = Overlays {
            forces: false,
            steering: false,
            ..Overlays::default()
        };
        assert_eq!(slow_arrows_hint(5_000, &quiet, true), None, "no arrows");
    }
}
