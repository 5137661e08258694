//! Questions that block the window until answered: unsaved changes about to be dropped, or a
//! simulated run about to be discarded by going back to editing or by Reset.

use eframe::egui::{Id, Modal, Ui};

use super::command::Command;

/// What the app is asking before it goes on.
#[derive(Clone, Debug, PartialEq)]
pub enum Question {
    /// The document has unsaved changes that `then` (New, Open, Quit…) would drop.
    DiscardChanges(Box<Command>),
    /// Going back to editing discards the run of this many ticks.
    DiscardRun(u64),
    /// Reset discards the run of this many ticks.
    ResetRun(u64),
}

/// Draws `question` as a modal dialog; returns the commands of the chosen answer, or `None`
/// while it is still open (Cancel and Escape answer with no command).
pub fn show(ui: &mut Ui, question: &Question) -> Option<Vec<Command>> {
    let mut answer = None;
    let modal = Modal::new(Id::unique("confirm")).show(ui.ctx(), |ui| {
        ui.set_max_width(360.0);
        match question {
            Question::DiscardChanges(then) => {
                ui.heading("Unsaved changes");
                ui.label("The scene has changes that are not saved. Save them first?");
                ui.horizontal(|ui| {
                    if ui.button("Save first").clicked() {
                        answer = Some(vec![Command::Save, Command::AfterSave(then.clone())]);
                    }
                    if ui.button("Discard changes").clicked() {
                        answer = Some(vec![Command::Confirmed(then.clone())]);
                    }
                    if ui.button("Cancel").clicked() {
                        answer = Some(Vec::new());
                    }
                });
            }
            Question::DiscardRun(ticks) => {
                ui.heading("Back to editing");
                ui.label(format!("Editing the scene discards the simulated run ({ticks} ticks)."));
                ui.horizontal(|ui| {
                    if ui.button("Save run…").clicked() {
                        answer = Some(vec![Command::SaveRun]);
                    }
                    if ui.button("Discard run and edit").clicked() {
                        answer = Some(vec![Command::Confirmed(Box::new(Command::EnterEditor))]);
                    }
                    if ui.button("Keep the run").clicked() {
                        answer = Some(Vec::new());
                    }
                });
            }
            Question::ResetRun(ticks) => {
                ui.heading("Reset the run");
                ui.label(format!(
                    "Resetting discards the simulated run ({ticks} ticks) and goes back to the start points."
                ));
                ui.horizontal(|ui| {
                    if ui.button("Save run…").clicked() {
                        answer = Some(vec![Command::SaveRun]);
                    }
                    if ui.button("Discard run").clicked() {
                        answer = Some(vec![Command::Confirmed(Box::new(Command::Reset))]);
                    }
                    if ui.button("Keep the run").clicked() {
                        answer = Some(Vec::new());
                    }
                });
            }
        }
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(Vec::new());
    }
    answer
}
