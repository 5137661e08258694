//! The offer, on start, to restore the scene autosaved by an earlier session that ended with
//! unsaved changes.

use eframe::egui::{Color32, RichText, Ui};

use super::command::Command;
use crate::scene::Scene;

/// Draws the offer for `scene` with Restore / Discard buttons.
pub fn show(ui: &mut Ui, scene: &Scene) -> Option<Command> {
    let mut command = None;
    ui.horizontal(|ui| {
        ui.label(
            RichText::new("Recovered")
                .strong()
                .color(Color32::from_rgb(40, 110, 200)),
        );
        ui.label(format!(
            "An earlier session left unsaved changes to {} ({} agents).",
            scene.name,
            scene.agents.len()
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
