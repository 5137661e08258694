//! The application state and its frame: panels are drawn from the state, return commands, and
//! the commands are applied afterwards.

use eframe::egui;
use std::path::Path;
use std::sync::Arc;

use egui::{CentralPanel, Key, KeyboardShortcut, Modifiers, Panel, Ui, ViewportCommand};

use super::canvas::{self, CanvasState};
use super::command::Command;
use super::dialog;
use super::document::Document;
use super::files::{self, Opened};
use super::notice::{self, Notice};
use super::playback::Playback;
use super::{scene_panel, timeline, toolbar};
use crate::draw::{Overlays, build_draw_list};
use crate::scene::Scene;

/// Longest wall time one frame may feed to the play clock (after a stall the run does not jump).
const MAX_FRAME_SECONDS: f32 = 0.25;

/// Everything the window shows: the document, the timeline over its run or recording, the
/// overlay switches, the canvas view and the current notice.
pub struct CrowdlabApp {
    document: Document,
    playback: Playback,
    overlays: Overlays,
    canvas: CanvasState,
    notice: Option<Notice>,
    /// The title last sent to the window.
    window_title: String,
}

impl CrowdlabApp {
    /// The app on an untitled document holding `scene`, ready to run.
    pub fn new(scene: Scene) -> CrowdlabApp {
        let document = Document::untitled(scene);
        let playback = Playback::live(document.scene.clone());
        CrowdlabApp {
            document,
            playback,
            overlays: Overlays::default(),
            canvas: CanvasState::default(),
            notice: None,
            window_title: String::new(),
        }
    }

    /// The open document.
    pub fn document(&self) -> &Document {
        &self.document
    }

    /// The timeline: recorded ticks, cursor, play state.
    pub fn playback(&self) -> &Playback {
        &self.playback
    }

    /// The notice shown above the canvas, if any.
    pub fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref()
    }

    /// The overlay switches.
    pub fn overlays(&self) -> &Overlays {
        &self.overlays
    }

    /// Opens a scene (`.ron`) or recording (`.crowdrec`) file in place of the current document.
    /// On failure the error is shown in the notice panel and the current document stays.
    pub fn open_path(&mut self, path: &Path) {
        let speed = self.playback.speed();
        match files::open_file(path) {
            Ok(Opened::Scene(scene)) => {
                self.document = Document::from_file(scene, path);
                self.playback = Playback::live(self.document.scene.clone());
                self.notice = None;
            }
            Ok(Opened::Imported { scene, warnings }) => {
                self.document = Document::from_file(scene, path);
                self.playback = Playback::live(self.document.scene.clone());
                self.notice = (!warnings.is_empty()).then(|| {
                    Notice::info(format!(
                        "Imported with {} note(s):\n{}",
                        warnings.len(),
                        warnings.join("\n")
                    ))
                });
            }
            Ok(Opened::Recording(reader)) => {
                self.notice = reader
                    .recovery_note()
                    .map(|note| Notice::info(format!("{}: {note}", path.display())));
                self.document = Document::from_file(reader.header().scene.clone(), path);
                self.playback = Playback::replay(reader);
            }
            Err(message) => {
                self.notice = Some(Notice::error(message));
                return;
            }
        }
        self.playback.set_speed(speed);
        self.canvas.fit();
    }

    /// Saves the scene to `path` (atomically), which becomes the document's file. On failure the
    /// error is shown in the notice panel and nothing changes.
    pub fn save_to(&mut self, path: &Path) {
        match files::save_file(&self.document.scene, path) {
            Ok(()) => {
                self.document.source = Some(path.to_path_buf());
                self.document.modified = false;
            }
            Err(message) => self.notice = Some(Notice::error(message)),
        }
    }

    /// Carries out a user request.
    pub fn apply(&mut self, command: Command) {
        match command {
            Command::Open => {
                if let Some(path) = dialog::pick_file_to_open(self.document.source.as_deref()) {
                    self.open_path(&path);
                }
            }
            Command::Save => match self.document.scene_path().map(Path::to_path_buf) {
                Some(path) => self.save_to(&path),
                None => self.apply(Command::SaveAs),
            },
            Command::SaveAs => {
                let name = format!("{}.ron", file_stem(&self.document.scene.name));
                if let Some(path) = dialog::pick_scene_save_path(self.document.source.as_deref(), &name) {
                    self.save_to(&path);
                }
            }
            Command::Run => self.playback.play(),
            Command::Pause => self.playback.pause(),
            Command::Step => self.playback.step(),
            Command::Reset => self.playback.reset(),
            Command::Seek(tick) => self.playback.seek(tick),
            Command::SetSpeed(speed) => self.playback.set_speed(speed),
            Command::Fit => self.canvas.fit(),
            Command::EditScene(scene) => self.edit_scene(*scene),
            Command::DismissNotice => self.notice = None,
        }
    }

    /// Replaces the scene with an edited copy. A change that affects the simulation discards
    /// the run (or leaves the replayed file) and starts a fresh live run of the new scene.
    fn edit_scene(&mut self, scene: Scene) {
        let rerun = scene.settings != self.document.scene.settings || !self.playback.is_live();
        self.document.scene = Arc::new(scene);
        self.document.modified = true;
        if rerun {
            let speed = self.playback.speed();
            self.playback = Playback::live(self.document.scene.clone());
            self.playback.set_speed(speed);
        }
    }

    /// Draws the whole window for one frame and applies what the user did.
    pub fn show(&mut self, ui: &mut Ui) {
        let frame_seconds = ui.input(|i| i.stable_dt).min(MAX_FRAME_SECONDS);
        self.playback.advance(frame_seconds);
        if let Err(e) = self.playback.load_frame() {
            self.playback.pause();
            self.notice = Some(Notice::error(format!(
                "Cannot read tick {}: {e}",
                self.playback.cursor()
            )));
        }

        let mut commands = shortcuts(ui, &self.playback);
        Panel::top("toolbar").show(ui, |ui| commands.extend(toolbar::show(ui, &self.playback)));
        if let Some(n) = &self.notice {
            Panel::top("notice").show(ui, |ui| commands.extend(notice::show(ui, n)));
        }
        Panel::bottom("timeline").show(ui, |ui| {
            ui.add_space(4.0);
            commands.extend(timeline::show(ui, &self.playback, &mut self.overlays));
        });
        Panel::right("scene").default_size(230.0).show(ui, |ui| {
            commands.extend(scene_panel::show(ui, &self.document.scene));
        });

        let header = self.playback.header();
        let frame = self.playback.frame();
        let list = build_draw_list(&header.scene, Some(header), frame, &self.overlays);
        let caption = match frame {
            Some(_) => header.scene.name.clone(),
            None => format!("{}: start points (press Run or Step)", header.scene.name),
        };
        CentralPanel::no_frame().show(ui, |ui| {
            canvas::show(ui, &mut self.canvas, header.scene.bounds, &list, &caption);
        });

        for command in commands {
            self.apply(command);
        }
        let title = self.document.title();
        if title != self.window_title {
            ui.ctx().send_viewport_cmd(ViewportCommand::Title(title.clone()));
            self.window_title = title;
        }
        if self.playback.is_playing() {
            ui.ctx().request_repaint();
        }
    }
}

impl eframe::App for CrowdlabApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

/// Keyboard shortcuts: Space runs or pauses (unless a text field has the keyboard), Ctrl+O opens,
/// Ctrl+S saves, Ctrl+Shift+S saves as.
fn shortcuts(ui: &mut Ui, playback: &Playback) -> Vec<Command> {
    let typing = ui.ctx().egui_wants_keyboard_input();
    ui.input_mut(|i| {
        let mut commands = Vec::new();
        if i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::S)) {
            commands.push(Command::SaveAs);
        }
        if i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::S)) {
            commands.push(Command::Save);
        }
        if i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::O)) {
            commands.push(Command::Open);
        }
        if !typing && i.consume_key(Modifiers::NONE, Key::Space) {
            commands.push(if playback.is_playing() {
                Command::Pause
            } else {
                Command::Run
            });
        }
        commands
    })
}

/// A file name stem from a scene name: letters, digits, `-` and `_` kept, the rest `_`.
fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' { c } else { '_' })
        .collect();
    if stem.is_empty() { "scene".into() } else { stem }
}
