//! The top bar: file buttons, simulation controls (Run / Pause / Step / Reset, speed, Fit) and
//! the live read-out of tick, time and milliseconds per simulated tick.

use std::path::PathBuf;

use eframe::egui;
use egui::{ComboBox, Ui};

use super::command::Command;
use super::playback::{Playback, Speed};

/// Draws the toolbar for `playback`; `editing` marks the editor as the current view and
/// `recent` lists recent files. Returns the button the user pressed, if any.
pub fn show(ui: &mut Ui, playback: &Playback, editing: bool, recent: &[PathBuf]) -> Option<Command> {
    let mut command = None;
    let mut ask = |clicked: bool, c: Command| {
        if clicked {
            command = Some(c);
        }
    };
    ui.horizontal_wrapped(|ui| {
        ask(
            ui.selectable_label(editing, "Editor")
                .on_hover_text("Edit the scene (running it switches to the simulator view)")
                .clicked()
                && !editing,
            Command::EnterEditor,
        );
        ui.separator();
        ask(
            ui.button("New")
                .on_hover_text("Start an empty scene (Ctrl+N)")
                .clicked(),
            Command::New,
        );
        ask(
            ui.button("Open")
                .on_hover_text("Open a scene (.ron) or a recording (.crowdrec)")
                .clicked(),
            Command::Open,
        );
        let picked = ui
            .menu_button("Recent", |ui| {
                if recent.is_empty() {
                    ui.weak("No recent files");
                }
                let picked = recent.iter().find(|p| ui.button(p.display().to_string()).clicked());
                if picked.is_some() {
                    ui.close();
                }
                picked.cloned()
            })
            .inner
            .flatten();
        if let Some(path) = picked {
            ask(true, Command::OpenPath(path));
        }
        ask(
            ui.button("Save").on_hover_text("Save the scene to its file").clicked(),
            Command::Save,
        );
        ask(
            ui.button("Save As")
                .on_hover_text("Save the scene to a new file")
                .clicked(),
            Command::SaveAs,
        );
        ui.separator();

        let can_advance = playback.can_advance();
        let playing = playback.is_playing();
        let run_tip = if playback.is_live() {
            "Simulate (or replay up to the newest tick)"
        } else {
            "Replay"
        };
        ask(
            ui.add_enabled(can_advance && !playing, egui::Button::new("Run"))
                .on_hover_text(run_tip)
                .clicked(),
            Command::Run,
        );
        ask(
            ui.add_enabled(playing, egui::Button::new("Pause")).clicked(),
            Command::Pause,
        );
        ask(
            ui.add_enabled(can_advance, egui::Button::new("Step"))
                .on_hover_text("Advance one tick")
                .clicked(),
            Command::Step,
        );
        let reset_tip = if playback.is_live() {
            "Discard the run and go back to the start points"
        } else {
            "Rewind"
        };
        ask(ui.button("Reset").on_hover_text(reset_tip).clicked(), Command::Reset);
        let mut speed = playback.speed();
        ComboBox::from_label("speed")
            .selected_text(speed.name())
            .show_ui(ui, |ui| {
                for s in Speed::ALL {
                    ui.selectable_value(&mut speed, s, s.name());
                }
            });
        ask(speed != playback.speed(), Command::SetSpeed(speed));
        ask(
            ui.button("Fit")
                .on_hover_text("Show the whole scene (or double-click the canvas)")
                .clicked(),
            Command::Fit,
        );
        ui.separator();

        ui.monospace(format!("tick {}", playback.cursor()));
        ui.monospace(format!("t {:.2} s", playback.cursor_time()));
        if let Some(ms) = playback.step_ms() {
            ui.monospace(format!("{ms:.2} ms/tick"));
        }
        ui.label(status(playback));
    });
    command
}

/// A word on what the timeline is doing.
fn status(playback: &Playback) -> &'static str {
    match (playback.is_playing(), playback.tick_range(), playback.can_advance()) {
        (true, ..) if playback.is_live() => "running",
        (true, ..) => "replaying",
        (false, None, _) => "not started",
        (false, Some(_), false) if playback.is_live() => "finished",
        (false, Some(_), false) => "end of recording",
        (false, Some(_), true) => "paused",
    }
}
