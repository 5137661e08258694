//! The bottom panel: a slider scrubbing the recorded ticks, the overlay toggles and a legend of
//! the force colours.

use eframe::egui;
use egui::{DragValue, Sense, Slider, Ui};

use super::command::Command;
use super::paint::color32;
use super::playback::Playback;
use crate::draw::{Color, Overlays, force_color, palette};

/// Draws the timeline for `playback` and the overlay switches; returns a seek request when the
/// user moves the slider.
pub fn show(ui: &mut Ui, playback: &Playback, overlays: &mut Overlays) -> Option<Command> {
    let mut command = None;
    ui.horizontal(|ui| {
        let range = playback.tick_range();
        let (first, last) = range.unwrap_or((0, 0));
        let mut tick = playback.cursor();
        ui.spacing_mut().slider_width = (ui.available_width() - 260.0).max(100.0);
        let slider = Slider::new(&mut tick, first..=last).text("tick").integer();
        if ui.add_enabled(range.is_some(), slider).changed() && tick != playback.cursor() {
            command = Some(Command::Seek(tick));
        }
        let read_out = match range {
            Some(_) => format!(
                "{:.2} s of {:.2} s",
                playback.cursor_time(),
                last as f32 * playback.header().dt
            ),
            None => "nothing recorded yet".to_string(),
        };
        ui.label(read_out);
    });
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut overlays.forces, "Forces");
        ui.checkbox(&mut overlays.steering, "Steering");
        ui.checkbox(&mut overlays.velocity, "Velocity");
        ui.checkbox(&mut overlays.labels, "Labels");
        let scale = ui.label("arrow m/N");
        ui.add(DragValue::new(&mut overlays.force_scale).range(0.05..=5.0).speed(0.01))
            .labelled_by(scale.id);
        ui.separator();
        legend(ui, playback);
    });
    command
}

/// One swatch per force label of the recording, plus the steering and velocity arrows.
fn legend(ui: &mut Ui, playback: &Playback) {
    let pal = palette();
    let entries = playback
        .header()
        .labels
        .iter()
        .map(|label| (label.as_str(), force_color(label)))
        .chain([("steering", pal.steering), ("velocity", pal.velocity)]);
    for (name, color) in entries {
        swatch(ui, color);
        ui.label(name);
    }
}

fn swatch(ui: &mut Ui, color: Color) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), Sense::hover());
    ui.painter().rect_filled(rect, 2.0, color32(color));
}
