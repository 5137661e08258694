//! The document's life cycle around the scene editor: New, opening from recent files or a
//! dropped file, undo/redo, switching between the editor and the simulator, the questions
//! asked before unsaved changes or a run are dropped, closing the window, and autosave.

use std::sync::Arc;

use eframe::egui::{Ui, ViewportCommand};

use super::command::Command;
use super::confirm::Question;
use super::document::Document;
use super::notice::Notice;
use super::state::CrowdlabApp;
use super::time::{Frames, TimeCommand};
use crate::scene::Scene;

impl CrowdlabApp {
    /// Carries out the editor's and the file life cycle's commands.
    pub(super) fn apply_session(&mut self, command: Command) {
        match command {
            Command::New => {
                self.document = Document::untitled(new_scene());
                self.restart_live_run();
                self.editor.reset();
                self.editing = true;
                self.notice = None;
                self.clear_autosave();
                self.canvas.fit();
            }
            Command::OpenPath(path) => self.open_path(&path),
            Command::Undo if self.editing => {
                if let Some(scene) = self.editor.undo(self.document.scene.clone()) {
                    self.replace_scene(scene);
                }
            }
            Command::Redo if self.editing => {
                if let Some(scene) = self.editor.redo(self.document.scene.clone()) {
                    self.replace_scene(scene);
                }
            }
            Command::EnterEditor => {
                self.time.apply(TimeCommand::Pause, &mut self.frames);
                if !self.frames.is_live() || self.frames.tick_range().is_some() {
                    self.restart_live_run();
                }
                self.editing = true;
            }
            Command::Quit => {
                self.closing = true;
            }
            Command::Confirmed(then) => self.apply_confirmed(*then),
            Command::AfterSave(then) if !self.document.modified => self.apply_confirmed(*then),
            Command::RestoreRecovery => {
                if let Some(recovered) = self.recovery.take() {
                    self.document = Document::recovered(recovered.scene, recovered.source.as_deref());
                    self.restart_live_run();
                    self.editor.reset();
                    self.editing = true;
                    self.canvas.fit();
                }
            }
            Command::DiscardRecovery => {
                self.recovery = None;
                self.clear_autosave();
            }
            _ => {}
        }
    }

    /// The question to ask before `command`, when it would drop unsaved changes or a run.
    pub(super) fn question_before(&self, command: &Command) -> Option<Question> {
        let drops_document = matches!(
            command,
            Command::New | Command::Open | Command::OpenPath(_) | Command::OpenValidationCase(_) | Command::Quit
        );
        if drops_document && self.document.modified {
            return Some(Question::DiscardChanges(Box::new(command.clone())));
        }
        let simulated = self
            .frames
            .tick_range()
            .filter(|&(_, last)| self.frames.is_live() && last > 0)
            .map(|(_, last)| last);
        match (command, simulated) {
            (Command::EnterEditor, Some(last)) if !self.editing => Some(Question::DiscardRun(last)),
            (Command::Reset, Some(last)) => Some(Question::ResetRun(last)),
            _ => None,
        }
    }

    /// Leaves the editor for the simulator, starting a fresh run when the scene was edited.
    pub(super) fn enter_simulator(&mut self) {
        if self.editing {
            self.editing = false;
            if self.run_stale {
                self.restart_live_run();
            }
        }
    }

    /// Drops the run and starts a new live one of the document's scene, at the same speed.
    pub(super) fn restart_live_run(&mut self) {
        self.replace_frames(Frames::live(self.document.scene.clone()));
        self.run_stale = false;
    }

    /// Puts an undone or redone scene in place.
    fn replace_scene(&mut self, scene: Arc<Scene>) {
        self.document.scene = scene;
        self.document.modified = true;
        self.run_stale = true;
    }

    /// Files dropped on the window open (the first one), and a close request asks before
    /// dropping unsaved changes; after SIGINT or SIGTERM the window closes and nothing else of
    /// the frame's input is taken up.
    pub(super) fn window_requests(&mut self, ui: &mut Ui) -> Vec<Command> {
        if crate::interrupt::raised() {
            self.close_for_signal();
        }
        if self.signalled {
            ui.ctx().send_viewport_cmd(ViewportCommand::Close);
            return Vec::new();
        }
        let mut commands = Vec::new();
        let (dropped, close) = ui.input(|i| {
            let dropped = i
                .raw
                .dropped_files
                .iter()
                .find_map(|f| Some(f.path().to_path_buf()).filter(|p| !p.as_os_str().is_empty()));
            (dropped, i.viewport().close_requested())
        });
        if let Some(path) = dropped {
            let known = path.extension().is_some_and(|e| e == "ron" || e == "crowdrec");
            if known {
                commands.push(Command::OpenPath(path));
            } else {
                self.notice = Some(Notice::error(format!(
                    "Cannot open {}: drop a scene (.ron) or a recording (.crowdrec)",
                    path.display()
                )));
            }
        }
        if close && !self.closing && self.document.modified {
            ui.ctx().send_viewport_cmd(ViewportCommand::CancelClose);
            commands.push(Command::Quit);
        }
        if self.closing {
            self.clear_autosave();
            ui.ctx().send_viewport_cmd(ViewportCommand::Close);
        }
        commands
    }

    /// Closes the window at its next frame, as SIGINT or SIGTERM asks (see `crate::interrupt`):
    /// no question is asked, and unsaved changes are written to the autosave file first, so that
    /// the next start offers them. Where they went, or why they could not, is printed: the window
    /// has no time to show it.
    pub fn close_for_signal(&mut self) {
        if std::mem::replace(&mut self.signalled, true) || !self.document.modified {
            return;
        }
        if let Some(autosave) = &self.autosave {
            match autosave.write(&self.document.scene, self.document.scene_path()) {
                Ok(()) => eprintln!(
                    "\ninterrupted: the unsaved scene is kept in {} (the next start offers to restore it)",
                    autosave.file().display()
                ),
                Err(message) => eprintln!("\nerror: {message}"),
            }
        }
    }

    /// Autosaves the unsaved document when it is due; a failure shows in the notice panel.
    /// Returns the seconds until the next copy is due, if one is.
    pub(super) fn tick_autosave(&mut self, now: f64) -> Option<f64> {
        let autosave = self.autosave.as_mut()?;
        let doc = &self.document;
        match autosave.tick(now, &doc.scene, doc.scene_path(), doc.modified) {
            Ok(wait) => wait,
            Err(message) => {
                self.notice = Some(Notice::error(message));
                autosave.interval = f64::INFINITY;
                None
            }
        }
    }

    /// Removes the recovery file (the document was saved, replaced or discarded).
    pub(super) fn clear_autosave(&mut self) {
        if let Some(autosave) = &mut self.autosave {
            autosave.clear();
        }
    }
}

/// The scene of New: empty, with a walker that steers round obstacles and walls — wall and
/// obstacle avoidance (a 4 m detection box, weighted above arrive) before arrive and
/// separation.
pub(super) fn new_scene() -> Scene {
    use crate::scene::Profile;
    use crate::scene::steering::{Behaviour, BehaviourSpec, Deceleration};
    let avoid = |behaviour, weight| BehaviourSpec::new(behaviour, weight);
    let walker = Profile {
        radius: 0.3,
        behaviours: vec![
            avoid(
                Behaviour::WallAvoidance {
                    feeler_length: 1.5,
                    side_angle_deg: 45.0,
                    side_ratio: 0.5,
                    combine: Default::default(),
                },
                2.0,
            ),
            avoid(
                Behaviour::ObstacleAvoidance {
                    min_box_length: 4.0,
                    braking_weight: 0.2,
                    margin: 0.0,
                },
                6.0,
            ),
            avoid(
                Behaviour::Arrive {
                    deceleration: Deceleration::Normal,
                },
                1.0,
            ),
            avoid(
                Behaviour::Separation {
                    view_radius: 1.5,
                    fov_deg: 360.0,
                },
                4.0,
            ),
        ],
        ..Profile::default()
    };
    Scene {
        profiles: vec![walker],
        ..Scene::empty()
    }
}
