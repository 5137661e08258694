//! The offer, on start, to restore the scene autosaved by an earlier session that ended with
//! unsaved changes; it says where the copy lies and which file it was edited from.

use eframe::egui::{Color32, RichText, Ui};

use super::autosave::Recovered;
use super::command::Command;

/// Draws the offer for `recovered` with Restore / Discard buttons.
pub fn show(ui: &mut Ui, recovered: &Recovered) -> Option<Command> {
    let mut command = None;
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new("Recovered")
                .strong()
                .color(Color32::from_rgb(40, 110, 200)),
        );
        let from = recovered
            .source
            .as_ref()
            .map_or_else(String::new, |s| format!(" (edited from {})", s.display()));
        ui.label(format!(
            "An earlier session left unsaved changes to {}{from}, {} agents. The copy is in {}.",
            recovered.scene.name,
            recovered.scene.agents.len(),
            recovered.file.display()
        ));
        if ui.button("Restore").on_hover_text("Open the autosaved scene").clicked() {
            command = Some(Command::RestoreRecovery);
        }
        if ui
            .button("Discard recovery")
            .on_hover_text("Delete the autosaved scene")
            .clicked()
        {
            command = Some(Command::DiscardRecovery);
        }
    });
    command
}
