//! The window's file actions: choosing a path (native dialog or the in-app browser), saving the
//! run as a recording, and the export dialog with its progress — each ending in a visible
//! notice, never in silence.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use eframe::egui::Ui;

use super::export_dialog::{self, DialogAction, ExportDialog, RunningExport};
use super::file_picker::{Asked, PathFor};
use super::files;
use super::notice::Notice;
use super::state::{CrowdlabApp, file_stem};
use crate::record::{FrameSource, MemoryRecording, RecordingReader};

impl CrowdlabApp {
    /// Asks where to open or save `for_what`; the answer is used at once (native dialog) or
    /// when the user picks it in the in-app browser.
    pub(super) fn ask_path(&mut self, for_what: PathFor) {
        let stem = file_stem(&self.document.scene.name);
        let name = match for_what {
            PathFor::Open => String::new(),
            PathFor::SaveScene => format!("{stem}.ron"),
            PathFor::SaveRun => format!("{stem}.crowdrec"),
        };
        let near = self.document.source.clone();
        match self.picker.ask(for_what, near.as_deref(), &name, self.recent.paths()) {
            Asked::Chosen(path) => self.use_path(for_what, &path),
            Asked::Browsing { fell_back: true } => {
                self.notice = Some(Notice::info(
                    "No native file dialog could open here (no desktop portal); using crowdlab's own file browser.",
                ));
            }
            Asked::Browsing { fell_back: false } | Asked::Cancelled => {}
        }
    }

    /// Opens or saves at the chosen `path`.
    fn use_path(&mut self, for_what: PathFor, path: &Path) {
        match for_what {
            PathFor::Open => self.open_path(path),
            PathFor::SaveScene => self.save_to(path),
            PathFor::SaveRun => self.save_run_to(path),
        }
    }

    /// Saves every recorded frame of the run (live or replayed) to the recording `path`,
    /// atomically; the outcome is shown in the notice panel.
    pub fn save_run_to(&mut self, path: &Path) {
        if self.frames.tick_range().is_none() {
            self.notice = Some(Notice::error("Nothing to save yet: run or step the scene first."));
            return;
        }
        self.notice = Some(match files::save_run(self.frames.source(), path) {
            Ok(frames) => {
                self.recent.add(path);
                Notice::info(format!("Saved the run ({frames} frames) to {}", path.display()))
            }
            Err(message) => Notice::error(message),
        });
    }

    /// Opens the export dialog over the timeline's loop range (or the whole run).
    pub(super) fn open_export(&mut self) {
        let Some(whole) = self.frames.tick_range() else {
            self.notice = Some(Notice::error("Nothing to export yet: run or step the scene first."));
            return;
        };
        let range = self.time.loop_bounds(&self.frames).unwrap_or(whole);
        let folder = self
            .document
            .source
            .as_deref()
            .and_then(Path::parent)
            .filter(|d| !d.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        let stem = file_stem(&self.document.scene.name);
        self.export = Some(ExportDialog::new(
            self.frames.source(),
            folder,
            &stem,
            range,
            self.selection().selected,
        ));
    }

    /// A copy of the run the export thread can own: the live run's frames, or the replayed
    /// file opened again.
    fn shared_source(&self) -> Result<Arc<dyn FrameSource>, String> {
        if !self.frames.is_live() {
            let path: PathBuf = self.document.source.clone().ok_or("the recording has no file")?;
            return RecordingReader::open(&path)
                .map(|r| Arc::new(r) as Arc<dyn FrameSource>)
                .map_err(|e| e.to_string());
        }
        let source = self.frames.source();
        let mut copy = MemoryRecording::new(source.header().clone());
        let (first, last) = source.tick_range();
        for tick in (first..=last).step_by(source.stride() as usize) {
            copy.push(source.frame(tick).map_err(|e| e.to_string())?);
        }
        Ok(Arc::new(copy))
    }

    /// Draws the in-app file browser, the export dialog and the export's progress when they
    /// are open, and acts on what the user chose.
    pub(super) fn show_file_windows(&mut self, ui: &mut Ui) {
        if let Some((for_what, path)) = self.picker.show(ui) {
            self.use_path(for_what, &path);
        }
        if let Some(dialog) = &mut self.export {
            match dialog.show(ui, self.frames.source()) {
                Some(DialogAction::Start(request)) => {
                    self.export = None;
                    match self.shared_source() {
                        Ok(source) => {
                            self.exporting = Some(RunningExport::start(source, *request));
                        }
                        Err(e) => self.notice = Some(Notice::error(format!("Cannot export: {e}"))),
                    }
                }
                Some(DialogAction::Close) => self.export = None,
                None => {}
            }
        }
        if let Some(running) = &mut self.exporting {
            export_dialog::show_progress(ui, running);
            if let Some(outcome) = running.finished() {
                self.exporting = None;
                self.notice = Some(match outcome {
                    Ok(summary) => Notice::info(summary),
                    Err(e) => Notice::error(format!("Export failed: {e}")),
                });
            }
        }
    }
}
