//! The top bar: the Editor switch, the file buttons (New, Open, Recent, Save, Save As) and Fit.
//! The transport lives in the time panel at the bottom.

use std::path::PathBuf;

use eframe::egui::Ui;

use super::command::Command;

/// Draws the toolbar; `editing` marks the editor as the current view, `analysis` the analysis
/// panel as open, and `recent` lists recent files. Returns the button the user pressed, if any.
pub fn show(ui: &mut Ui, editing: bool, analysis: bool, recent: &[PathBuf]) -> Option<Command> {
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
        ask(
            ui.button("Save run")
                .on_hover_text("Save the simulated run as a recording (.crowdrec)")
                .clicked(),
            Command::SaveRun,
        );
        ask(
            ui.button("Export")
                .on_hover_text("Export the run as PNG frames, skeleton XML or CSV")
                .clicked(),
            Command::Export,
        );
        ui.separator();
        ask(
            ui.add_enabled(!editing, eframe::egui::Button::selectable(analysis, "Analysis"))
                .on_hover_text("Plots of the selected agent and the crowd over time, and the run's metrics (simulator)")
                .clicked(),
            Command::ToggleAnalysis,
        );
        ask(
            ui.button("Fit")
                .on_hover_text("Show the whole scene (or double-click the canvas)")
                .clicked(),
            Command::Fit,
        );
    });
    command
}
