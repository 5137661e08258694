//! The dismissable notice panel: errors (a file that would not open or save) and notes.

use eframe::egui;
use egui::{Color32, RichText, Ui};

use super::command::Command;

/// How serious a notice is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Something the user asked for failed; nothing was changed.
    Error,
    /// Worth knowing (e.g. a recording was recovered from a cut-short file).
    Info,
}

/// A message shown above the canvas until dismissed.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// How serious it is.
    pub severity: Severity,
    /// The message, possibly several lines.
    pub text: String,
}

impl Notice {
    /// An error notice.
    pub fn error(text: impl Into<String>) -> Notice {
        Notice {
            severity: Severity::Error,
            text: text.into(),
        }
    }

    /// An informational notice.
    pub fn info(text: impl Into<String>) -> Notice {
        Notice {
            severity: Severity::Info,
            text: text.into(),
        }
    }
}

/// Draws the notice with a Dismiss button.
pub fn show(ui: &mut Ui, notice: &Notice) -> Option<Command> {
    let (title, color) = match notice.severity {
        Severity::Error => ("Error", Color32::from_rgb(200, 40, 40)),
        Severity::Info => ("Note", Color32::from_rgb(40, 110, 200)),
    };
    let mut command = None;
    ui.horizontal_top(|ui| {
        if ui.button("Dismiss").clicked() {
            command = Some(Command::DismissNotice);
        }
        ui.label(RichText::new(title).strong().color(color));
        ui.add(egui::Label::new(&notice.text).wrap());
    });
    command
}
