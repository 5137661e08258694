//! The application state and its frame: panels are drawn from the state, return commands, and
//! the commands are applied afterwards.

use eframe::egui;
use std::path::Path;
use std::sync::Arc;

use egui::{CentralPanel, Key, KeyboardShortcut, Modifiers, Panel, ScrollArea, Ui, ViewportCommand};

use super::analysis_panel::AnalysisView;
use super::autosave::{Autosave, Recovered};
use super::background_job::JobState;
use super::canvas::{self, CanvasOptions, CanvasState};
use super::command::Command;
use super::compare_job::Comparison;
use super::confirm::{self, Question};
use super::document::Document;
use super::editor::Editor;
use super::export_dialog::{ExportDialog, RunningExport};
use super::file_picker::{FilePicker, PathFor};
use super::files::{self, Opened};
use super::frame_layers::FrameLayers;
use super::notice::{self, Notice};
use super::panel_fill::{self, unfilled};
use super::plots::Plots;
use super::recent::RecentFiles;
use super::selection::{Selection, pick_agent};
use super::time::{self, Frames, TimeCommand, TimeControl, Timeline};
use super::validation_panel::Validation;
use super::{grid, inspector_run, overlays_panel, recovery_panel, scene_panel, toolbar};
use crate::draw::{Overlays, build_scene_draw_list};
use crate::record::Frame;
use crate::scene::Scene;

/// Everything the window shows: the document, the frames of its run or recording and the time
/// cursor over them, the overlay switches, the canvas view and the current notice; the editor
/// and whether it is the current view; the question being asked; recent files and autosave.
pub struct CrowdlabApp {
    pub(super) document: Document,
    /// The live run or replayed file.
    pub(super) frames: Frames,
    /// The time cursor over `frames`.
    pub(super) time: TimeControl,
    overlays: Overlays,
    /// The agent selected in the simulator, the overlay filter and follow-camera.
    pub(super) selection: Selection,
    /// The agent whose avoidance constraints the live run records.
    debugged: Option<u32>,
    pub(super) canvas: CanvasState,
    /// The simulator canvas's layers of the tick shown, kept while it stays shown.
    frame_layers: FrameLayers,
    pub(super) notice: Option<Notice>,
    /// The title last sent to the window.
    window_title: String,
    /// The scene editor's tools, selection and history.
    pub(super) editor: Editor,
    /// True while the editor (not the simulator) is the current view.
    pub(super) editing: bool,
    /// True when the document changed since the live run was started (it is rebuilt on Run).
    pub(super) run_stale: bool,
    /// The question blocking the window, if any.
    pub(super) question: Option<Question>,
    /// Recently opened and saved files.
    pub(super) recent: RecentFiles,
    /// Autosave of the unsaved document (only with a state folder).
    pub(super) autosave: Option<Autosave>,
    /// A scene autosaved by an earlier session, offered for restoring.
    pub(super) recovery: Option<Recovered>,
    /// Set once the user agreed to close the window.
    pub(super) closing: bool,
    /// A signal (or [`CrowdlabApp::close_for_signal`]) closes the window, asking nothing.
    pub(super) signalled: bool,
    /// Native file dialogs, or the in-app browser where none can open.
    pub(super) picker: FilePicker,
    /// The export dialog, while it is open.
    pub(super) export: Option<ExportDialog>,
    /// The export running on its thread, if any.
    pub(super) exporting: Option<RunningExport>,
    /// The analysis panel: open or not, its tab and table order.
    pub(super) analysis: AnalysisView,
    /// The series the plots and the timeline's agent row have read.
    pub(super) plots: Plots,
    /// The timeline's zoom and range selection.
    pub(super) timeline: Timeline,
    /// The Compare tab's comparison, running or done.
    pub(super) comparison: Comparison,
    /// The Validation tab's suite run, running or done.
    pub(super) validation: Validation,
}

impl CrowdlabApp {
    /// The app on an untitled document holding `scene`, ready to run.
    pub fn new(scene: Scene) -> CrowdlabApp {
        let document = Document::untitled(scene);
        let frames = Frames::live(document.scene.clone());
        let time = TimeControl::new(&frames);
        CrowdlabApp {
            document,
            frames,
            time,
            overlays: Overlays::default(),
            selection: Selection::default(),
            debugged: None,
            canvas: CanvasState::default(),
            frame_layers: FrameLayers::default(),
            notice: None,
            window_title: String::new(),
            editor: Editor::default(),
            editing: true,
            run_stale: false,
            question: None,
            recent: RecentFiles::default(),
            autosave: None,
            recovery: None,
            closing: false,
            signalled: false,
            picker: FilePicker::new(false),
            export: None,
            exporting: None,
            analysis: AnalysisView::default(),
            plots: Plots::default(),
            timeline: Timeline::default(),
            comparison: JobState::Idle,
            validation: JobState::Idle,
        }
    }

    /// Uses crowdlab's own file browser instead of native dialogs (tests, or by choice).
    pub fn with_builtin_file_dialogs(mut self) -> CrowdlabApp {
        self.picker = FilePicker::new(true);
        self
    }

    /// Keeps recent files and the autosave recovery file in `dir` (the app's state folder), and
    /// offers to restore a scene autosaved there by an earlier session.
    pub fn with_state_dir(mut self, dir: &Path) -> CrowdlabApp {
        self.recent = RecentFiles::load(dir);
        let autosave = Autosave::new(dir);
        self.recovery = autosave.recoverable();
        self.autosave = Some(autosave);
        self
    }

    /// Changes how often (seconds) the unsaved document is autosaved.
    pub fn set_autosave_interval(&mut self, seconds: f64) {
        if let Some(a) = &mut self.autosave {
            a.interval = seconds;
        }
    }

    /// The file the unsaved document is autosaved to (only with a state folder).
    pub fn recovery_file(&self) -> Option<&Path> {
        self.autosave.as_ref().map(Autosave::file)
    }

    /// The autosaved scene offered for restoring, if any.
    pub fn recovery(&self) -> Option<&Scene> {
        self.recovery.as_ref().map(|r| &r.scene)
    }

    /// True while the editor is the current view (false: the simulator).
    pub fn is_editing(&self) -> bool {
        self.editing
    }

    /// The editor (tool, selection).
    pub fn editor(&self) -> &Editor {
        &self.editor
    }

    /// The question the window is waiting on, if any.
    pub fn question(&self) -> Option<&Question> {
        self.question.as_ref()
    }

    /// Recently opened and saved files, newest first.
    pub fn recent_files(&self) -> &[std::path::PathBuf] {
        self.recent.paths()
    }

    /// The screen position of world point `p` on the canvas (after the first frame).
    pub fn canvas_to_screen(&self, p: glam::Vec2) -> Option<egui::Pos2> {
        self.canvas.to_screen(p)
    }

    /// The open document.
    pub fn document(&self) -> &Document {
        &self.document
    }

    /// The frames of the live run or replayed file: recorded ticks, analysis, header.
    pub fn frames(&self) -> &Frames {
        &self.frames
    }

    /// The time cursor: the tick shown, play state, speed, loop.
    pub fn time(&self) -> &TimeControl {
        &self.time
    }

    /// The frame under the time cursor: `None` before a live run's first tick.
    pub fn frame(&self) -> Option<&Frame> {
        self.frames.frame(self.time.tick())
    }

    /// Puts `frames` in place of the current ones, with a fresh cursor at the same speed.
    pub(super) fn replace_frames(&mut self, frames: Frames) {
        self.frames = frames;
        self.time = self.time.restarted(&self.frames);
        self.plots.reset();
        self.timeline = Timeline::default();
    }

    /// Where the Validation tab's suite run stands.
    pub fn validation(&self) -> &Validation {
        &self.validation
    }

    /// Where the Compare tab's comparison stands.
    pub fn comparison(&self) -> &Comparison {
        &self.comparison
    }

    /// The timeline's zoomed window and range selection.
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// The series the plots and the timeline's agent row have read.
    pub fn plots(&self) -> &Plots {
        &self.plots
    }

    /// Selects agent `id` and centres the canvas on it (where it is at the cursor, else where
    /// its run ended).
    pub fn select_and_centre(&mut self, id: u32) {
        self.selection.selected = Some(id);
        let at_cursor = self
            .frames
            .frame(self.time.tick())
            .and_then(|f| f.agent(id))
            .map(|a| a.position);
        let last_seen = || {
            let metrics = self.frames.metrics()?;
            metrics.agents.iter().find(|a| a.id == id).map(|a| a.final_position)
        };
        if let Some(p) = at_cursor.or_else(last_seen) {
            self.canvas.center_on(p);
        }
    }

    /// The notice shown above the canvas, if any.
    pub fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref()
    }

    /// The overlay switches.
    pub fn overlays(&self) -> &Overlays {
        &self.overlays
    }

    /// The simulator's selected agent, overlay filter and follow-camera switch.
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// Selects agent `id` (or none) in the simulator, as a click on the canvas does.
    pub fn select(&mut self, id: Option<u32>) {
        self.selection.selected = id;
    }

    /// Opens a scene (`.ron`) or recording (`.crowdrec`) file in place of the current document.
    /// On failure the error is shown in the notice panel and the current document stays.
    pub fn open_path(&mut self, path: &Path) {
        match files::open_file(path) {
            Ok(Opened::Scene { scene, text }) => {
                self.document = Document::from_file(scene, path).with_text(text);
                self.replace_frames(Frames::live(self.document.scene.clone()));
                self.notice = None;
                self.editing = true;
            }
            Ok(Opened::Imported { scene, warnings }) => {
                self.document = Document::from_file(scene, path);
                self.replace_frames(Frames::live(self.document.scene.clone()));
                self.notice = (!warnings.is_empty()).then(|| {
                    Notice::info(format!(
                        "Imported with {} note(s):\n{}",
                        warnings.len(),
                        warnings.join("\n")
                    ))
                });
            }
            Ok(Opened::Recording(reader)) => {
                let reader = *reader;
                self.notice = reader
                    .recovery_note()
                    .map(|note| Notice::info(format!("{}: {note}", path.display())));
                self.document = Document::from_file(reader.header().scene.clone(), path);
                self.replace_frames(Frames::replay(reader, crate::record::RecordingReader::open(path).ok()));
                self.editing = false;
            }
            Err(message) => {
                self.notice = Some(Notice::error(message));
                return;
            }
        }
        self.canvas.fit();
        self.editor.reset();
        self.run_stale = false;
        self.recent.add(path);
        self.clear_autosave();
    }

    /// Saves the scene to `path` (atomically), which becomes the document's file. On failure the
    /// error is shown in the notice panel and nothing changes.
    pub fn save_to(&mut self, path: &Path) {
        match files::save_file(&self.document.scene, self.document.text.as_deref(), path) {
            Ok(text) => {
                self.document.text = Some(text.into());
                self.document.source = Some(path.to_path_buf());
                self.document.modified = false;
                self.recent.add(path);
                self.clear_autosave();
                self.notice = Some(Notice::info(format!("Saved {}", path.display())));
            }
            Err(message) => self.notice = Some(Notice::error(message)),
        }
    }

    /// Carries out a user request; one that would drop unsaved changes (or a simulated run)
    /// asks first.
    pub fn apply(&mut self, command: Command) {
        if let Some(question) = self.question_before(&command) {
            self.question = Some(question);
            return;
        }
        self.apply_confirmed(command);
    }

    /// Carries out a request the user has already confirmed.
    pub(super) fn apply_confirmed(&mut self, command: Command) {
        match command {
            Command::Open => self.ask_path(PathFor::Open),
            Command::Save => match self.document.scene_path().map(Path::to_path_buf) {
                Some(path) => self.save_to(&path),
                None => self.ask_path(PathFor::SaveScene),
            },
            Command::SaveAs => self.ask_path(PathFor::SaveScene),
            Command::SaveRun => self.ask_path(PathFor::SaveRun),
            Command::Export => self.open_export(),
            Command::Time(command) => self.apply_time(command),
            Command::Reset => {
                if let Some(frames) = self.frames.restarted() {
                    self.replace_frames(frames);
                }
            }
            Command::Fit => self.canvas.fit(),
            Command::ToggleAnalysis => self.analysis.open = !self.analysis.open,
            Command::SelectAgent(id) => self.select_and_centre(id),
            c @ (Command::StartComparison
            | Command::CancelComparison
            | Command::OpenMethodRun(_)
            | Command::StartValidation
            | Command::CancelValidation
            | Command::OpenValidationCase(_)) => self.apply_comparison(c),
            Command::EditScene(scene) => self.edit_scene(*scene),
            Command::DismissNotice => self.notice = None,
            other => self.apply_session(other),
        }
    }

    /// Replaces the scene with an edited copy. A change that affects the simulation discards
    /// the run (or leaves the replayed file) and starts a fresh live run of the new scene.
    fn edit_scene(&mut self, scene: Scene) {
        if scene == *self.document.scene {
            return;
        }
        self.editor.record(self.document.scene.clone());
        let old = &self.document.scene;
        let rerun = scene.settings != old.settings || scene.bounds != old.bounds || !self.frames.is_live();
        self.document.scene = Arc::new(scene);
        self.document.modified = true;
        self.run_stale |= self.editing;
        if rerun && !self.editing {
            self.replace_frames(Frames::live(self.document.scene.clone()));
        }
    }

    /// Moves the time cursor; a command that starts the run (Play, Step) first switches from
    /// the editor to the simulator.
    fn apply_time(&mut self, command: TimeCommand) {
        let starts = match command {
            TimeCommand::Play | TimeCommand::StepForward => true,
            TimeCommand::TogglePlay => !self.time.is_playing(),
            _ => false,
        };
        if starts {
            self.enter_simulator();
        }
        self.time.apply(command, &mut self.frames);
    }

    /// Draws the whole window for one frame and applies what the user did.
    pub fn show(&mut self, ui: &mut Ui) {
        self.editor.begin_frame(ui);
        let frame_seconds = ui.input(|i| i.stable_dt);
        self.frames.poll();
        self.time.advance(f64::from(frame_seconds), &mut self.frames);
        if let Err(e) = self.frames.load(self.time.tick()) {
            self.time.apply(TimeCommand::Pause, &mut self.frames);
            self.notice = Some(Notice::error(format!("Cannot read tick {}: {e}", self.time.tick())));
        }

        let mut commands = shortcuts(ui, self.editing);
        commands.extend(self.window_requests(ui));
        let modal_open = self.question.is_some() || self.picker.is_browsing() || self.export.is_some();
        if self.editing && !modal_open {
            commands.extend(self.editor.shortcuts(ui, &self.document.scene));
        }
        unfilled(Panel::top("toolbar"), ui).show(ui, |ui| {
            commands.extend(toolbar::show(ui, self.editing, self.analysis.open, self.recent.paths()))
        });
        if let Some(n) = &self.notice {
            unfilled(Panel::top("notice"), ui).show(ui, |ui| commands.extend(notice::show(ui, n)));
        }
        if let Some(recovered) = &self.recovery {
            unfilled(Panel::top("recovery"), ui).show(ui, |ui| commands.extend(recovery_panel::show(ui, recovered)));
        }
        unfilled(Panel::bottom("time"), ui).show(ui, |ui| {
            ui.add_space(4.0);
            let agent = self.plots.agent_series().filter(|_| !self.editing);
            commands.extend(time::panel::show(
                ui,
                &self.time,
                &self.frames,
                &mut self.timeline,
                agent,
            ));
        });
        side_panel(Panel::left("left"), LEFT_PANEL_WIDTH, ui, |ui| {
            if self.editing {
                commands.extend(self.editor.palette(ui));
            } else {
                let header = self.frames.header();
                overlays_panel::show(ui, header, &mut self.overlays, &mut self.selection);
            }
        });
        side_panel(Panel::right("inspector"), RIGHT_PANEL_WIDTH, ui, |ui| {
            let run_agents = (!self.editing).then(|| self.frames.header().agents.len());
            commands.extend(scene_panel::show(ui, &self.document.scene, run_agents));
            ui.separator();
            if self.editing {
                commands.extend(self.editor.side_panel(ui, &self.document.scene));
            } else {
                let frame = self.frames.frame(self.time.tick());
                inspector_run::show(ui, self.frames.header(), frame, self.selection.selected);
            }
        });

        self.comparison.poll();
        self.validation.poll();
        if !self.editing {
            commands.extend(self.show_analysis_panel(ui));
        }
        if self.editing {
            let scene = self.document.scene.clone();
            let list = build_scene_draw_list(&scene);
            let caption = format!("Editing {} — {}", scene.name, self.editor.tool.help());
            let options = CanvasOptions {
                primary_pans: false,
                grid: true,
            };
            CentralPanel::no_frame().show(ui, |ui| {
                let layers = [Arc::new(list), Arc::default()];
                let (response, view) = canvas::show(ui, &mut self.canvas, scene.bounds, layers, &caption, options);
                commands.extend(self.editor.canvas(ui, &response, &view, grid::step(view.scale), &scene));
            });
        } else {
            self.show_simulator(ui);
        }
        self.show_file_windows(ui);
        if let Some(q) = &self.question
            && let Some(answer) = confirm::show(ui, q)
        {
            self.question = None;
            commands.extend(answer);
        }

        for command in commands {
            self.apply(command);
        }
        if self.selection.selected != self.debugged || self.frames.tick_range().is_none() {
            self.debugged = self.selection.selected;
            self.frames.set_debug_agent(self.debugged);
        }
        let now = ui.input(|i| i.time);
        if let Some(wait) = self.tick_autosave(now) {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_secs_f64(wait.max(0.05)));
        }
        let title = self.document.title();
        if title != self.window_title {
            ui.ctx().send_viewport_cmd(ViewportCommand::Title(title.clone()));
            self.window_title = title;
        }
        if self.time.is_playing() {
            ui.ctx().request_repaint();
        }
    }
}

impl CrowdlabApp {
    /// The simulator's canvas with the cursor tick's focused draw list; a click selects an agent.
    fn show_simulator(&mut self, ui: &mut Ui) {
        let header = self.frames.header();
        let frame = self.frames.frame(self.time.tick());
        let trail_ticks = (self.overlays.trails).then(|| (self.overlays.trail_seconds / header.dt).ceil() as u64);
        let focus = self.selection.focus(self.frames.source(), frame, trail_ticks);
        let layers = match frame {
            Some(frame) => self.frame_layers.of(
                &self.frames,
                frame,
                &self.overlays,
                focus,
                self.canvas.picture_drawing(),
            ),
            None => [Arc::new(build_scene_draw_list(&header.scene)), Arc::default()],
        };
        let caption = match frame {
            Some(_) => header.scene.name.clone(),
            None => format!("{}: start points (press Play or Step)", header.scene.name),
        };
        if self.selection.follow
            && let Some(a) = self.selection.selected.and_then(|id| frame?.agent(id))
        {
            self.canvas.center_on(a.position);
        }
        let options = CanvasOptions {
            primary_pans: true,
            grid: true,
        };
        let (response, view) = CentralPanel::no_frame()
            .show(ui, |ui| {
                canvas::show(ui, &mut self.canvas, header.scene.bounds, layers, &caption, options)
            })
            .inner;
        if response.clicked()
            && let (Some(p), Some(frame)) = (response.interact_pointer_pos(), frame)
        {
            let at = view.to_world(glam::Vec2::new(p.x, p.y));
            self.selection.selected = pick_agent(header, frame, at);
        }
    }
}

impl eframe::App for CrowdlabApp {
    fn ui(&mut self, ui: &mut Ui, frame: &mut eframe::Frame) {
        self.use_renderer(frame);
        self.show(ui);
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        panel_fill::clear_color(visuals)
    }
}

impl CrowdlabApp {
    /// Lets the canvas draw with the window's renderer (its GL context, when eframe has one).
    pub(super) fn use_renderer(&mut self, frame: &eframe::Frame) {
        if let Some(gl) = frame.gl() {
            self.canvas.use_gl(gl);
        }
    }
}

/// Keyboard shortcuts: Space plays or pauses (unless a text field has the keyboard, or in the
/// editor, where Space + drag pans), ← → step a tick and Home/End jump to the first/newest tick
/// (simulator only), Ctrl+N new, Ctrl+O opens, Ctrl+S saves, Ctrl+Shift+S saves as. The time
/// keys raise the same commands as the time panel's buttons.
fn shortcuts(ui: &mut Ui, editing: bool) -> Vec<Command> {
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
        if i.consume_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::N)) {
            commands.push(Command::New);
        }
        if !typing && !editing {
            let keys = [
                (Key::Space, TimeCommand::TogglePlay),
                (Key::ArrowLeft, TimeCommand::StepBack),
                (Key::ArrowRight, TimeCommand::StepForward),
                (Key::Home, TimeCommand::JumpToStart),
                (Key::End, TimeCommand::JumpToEnd),
            ];
            for (key, command) in keys {
                if i.consume_key(Modifiers::NONE, key) {
                    commands.push(Command::Time(command));
                }
            }
        }
        commands
    })
}

/// Default width of the left panel: the editor's tools, or the simulator's overlays and legend.
const LEFT_PANEL_WIDTH: f32 = 210.0;
/// Default width of the right panel: the scene and the inspector of the selection.
const RIGHT_PANEL_WIDTH: f32 = 290.0;

/// Shows a side panel of `width` (the user may drag it between 160 px and twice that) whose
/// contents scroll rather than widen it, so the canvas never moves when the selection or the
/// mode changes.
fn side_panel(panel: Panel, width: f32, ui: &mut Ui, contents: impl FnOnce(&mut Ui)) {
    unfilled(panel, ui)
        .resizable(true)
        .default_size(width)
        .size_range(160.0..=2.0 * width)
        .show(ui, |ui| {
            ScrollArea::both().auto_shrink([false, false]).show(ui, contents);
        });
}

/// A file name stem from a scene name: letters, digits, `-` and `_` kept, the rest `_`.
pub(super) fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' { c } else { '_' })
        .collect();
    if stem.is_empty() { "scene".into() } else { stem }
}
