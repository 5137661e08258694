//! The scene editor: tools that turn canvas gestures into scene edits, the selection and what
//! acts on it (move, vertex editing, delete, copy/paste/duplicate), the inspector, the profiles
//! and validation panels, and unlimited undo/redo.
//!
//! Every edit is a whole new scene handed to the app as [`Command::EditScene`]; the app records
//! the scene it replaces in the [`History`] (see [`Editor::record`]). Edits made during one pointer
//! press or while one text field has the focus form a single undo step.

mod areas;
pub mod catalogue;
mod edit_inspector;
mod overlay;
mod profiles_panel;
pub mod selection;
pub mod tools;
mod undo;
mod validation_panel;
pub mod value_editor;

use std::sync::Arc;

use eframe::egui::{
    Button, CollapsingHeader, Event, Key, KeyboardShortcut, Modifiers, PointerButton, Pos2, Response, Ui,
};
use glam::Vec2;

use super::command::Command;
use crate::draw::View;
use crate::scene::{Problem, Scene, validate};
use selection::{Clipboard, Selection};
use tools::{Gesture, Pending, Tool};
pub use undo::{EditGroup, History};

/// Offset of pasted and duplicated objects, metres.
const PASTE_OFFSET: Vec2 = Vec2::new(1.0, -1.0);
/// Pointer distance (pixels) within which an object or vertex is hit.
const HIT_PIXELS: f32 = 6.0;

/// The editor's state between frames.
#[derive(Default)]
pub struct Editor {
    /// The active tool.
    pub tool: Tool,
    pending: Pending,
    /// The selected objects.
    pub selection: Selection,
    history: History,
    clipboard: Clipboard,
    /// Snap placed and moved points to the grid.
    pub snap: bool,
    /// Number of primary presses so far (names the press group of drag edits).
    presses: u64,
    /// The current frame's edit group.
    group: Option<EditGroup>,
    /// Problems of the scene they were computed for.
    problems: Option<(Arc<Scene>, Vec<Problem>)>,
    /// The profile shown in the profiles panel.
    profile: usize,
}

impl Editor {
    /// Works out which undo group this frame's edits belong to; call once at the start of a frame.
    pub fn begin_frame(&mut self, ui: &Ui) {
        let (pressed, down) = ui.input(|i| (i.pointer.any_pressed(), i.pointer.any_down()));
        if pressed {
            self.presses += 1;
        }
        let focus = ui.ctx().memory(|m| m.focused());
        self.group = match (down, focus) {
            (true, _) => Some(EditGroup::Press(self.presses)),
            (false, Some(id)) => Some(EditGroup::Focus(id)),
            (false, None) => None,
        };
    }

    /// Records that `before` is being replaced by an edit made this frame.
    pub fn record(&mut self, before: Arc<Scene>) {
        self.history.record(before, self.group);
    }

    /// The scene before the last edit, given the current one; the selection is kept where it still exists.
    pub fn undo(&mut self, current: Arc<Scene>) -> Option<Arc<Scene>> {
        let scene = self.history.undo(current)?;
        self.after_jump(&scene);
        Some(scene)
    }

    /// The scene after the last undone edit, given the current one.
    pub fn redo(&mut self, current: Arc<Scene>) -> Option<Arc<Scene>> {
        let scene = self.history.redo(current)?;
        self.after_jump(&scene);
        Some(scene)
    }

    fn after_jump(&mut self, scene: &Scene) {
        self.pending = Pending::Idle;
        self.selection.retain_existing(scene);
    }

    /// Forgets the history and selection (a different document was opened).
    pub fn reset(&mut self) {
        *self = Editor {
            tool: self.tool,
            snap: self.snap,
            ..Editor::default()
        };
    }

    /// Every validation problem of `scene` (recomputed only when the scene changed).
    pub fn problems(&mut self, scene: &Arc<Scene>) -> &[Problem] {
        let stale = self.problems.as_ref().is_none_or(|(s, _)| !Arc::ptr_eq(s, scene));
        if stale {
            self.problems = Some((scene.clone(), validate(scene)));
        }
        &self.problems.as_ref().expect("just computed").1
    }

    /// The tool palette: one button per tool (tooltips give the shortcut), grid snapping, undo/redo.
    pub fn palette(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut commands = Vec::new();
        ui.vertical(|ui| {
            ui.strong("Tools");
            for tool in Tool::ALL {
                if ui
                    .selectable_label(self.tool == tool, tool.name())
                    .on_hover_text(tool.help())
                    .clicked()
                {
                    self.pick(tool);
                }
            }
            ui.separator();
            ui.checkbox(&mut self.snap, "Snap to grid")
                .on_hover_text("Snap placed and moved points to the grid (G)");
            ui.separator();
            if ui
                .add_enabled(self.history.can_undo(), Button::new("Undo"))
                .on_hover_text("Undo the last edit (Ctrl+Z)")
                .clicked()
            {
                commands.push(Command::Undo);
            }
            if ui
                .add_enabled(self.history.can_redo(), Button::new("Redo"))
                .on_hover_text("Redo (Ctrl+Shift+Z)")
                .clicked()
            {
                commands.push(Command::Redo);
            }
        });
        commands
    }

    fn pick(&mut self, tool: Tool) {
        self.tool = tool;
        self.pending = Pending::Idle;
    }

    /// The side panel sections: problems, inspector of the selection, profiles.
    pub fn side_panel(&mut self, ui: &mut Ui, scene: &Arc<Scene>) -> Vec<Command> {
        let mut edited = None;
        let problems = self.problems(scene).to_vec();
        CollapsingHeader::new(format!("Problems ({})", problems.len()))
            .default_open(true)
            .show(ui, |ui| {
                if let Some(item) = validation_panel::show(ui, &problems) {
                    self.selection.set(item);
                    self.tool = Tool::Select;
                }
            });
        // An edit applied after this frame's panels may have selected an object not there yet.
        let mut shown = self.selection.clone();
        shown.retain_existing(scene);
        CollapsingHeader::new("Inspector").default_open(true).show(ui, |ui| {
            edited = edit_inspector::show(ui, scene, &shown, &problems);
        });
        CollapsingHeader::new("Profiles").default_open(false).show(ui, |ui| {
            if let Some(s) = profiles_panel::show(ui, edited.as_ref().unwrap_or(scene), &mut self.profile, &shown) {
                edited = Some(s);
            }
        });
        edited.map(|s| Command::EditScene(Box::new(s))).into_iter().collect()
    }

    /// Editing shortcuts (ignored while a text field has the keyboard): tool keys, G (snap),
    /// Delete, Ctrl+C/V/D, Ctrl+A, Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y), Enter (finish), Esc (cancel).
    pub fn shortcuts(&mut self, ui: &mut Ui, scene: &Scene) -> Vec<Command> {
        let mut commands = Vec::new();
        if ui.ctx().egui_wants_keyboard_input() {
            return commands;
        }
        let command = Modifiers::COMMAND;
        let (redo, undo, copy, cut, paste, duplicate, all, delete, finish, cancel, snap, picked) = ui.input_mut(|i| {
            let copy_event = i.events.iter().any(|e| matches!(e, Event::Copy));
            let cut_event = i.events.iter().any(|e| matches!(e, Event::Cut));
            let paste_event = i.events.iter().any(|e| matches!(e, Event::Paste(_)));
            (
                i.consume_shortcut(&KeyboardShortcut::new(command | Modifiers::SHIFT, Key::Z))
                    || i.consume_shortcut(&KeyboardShortcut::new(command, Key::Y)),
                i.consume_shortcut(&KeyboardShortcut::new(command, Key::Z)),
                copy_event || i.consume_shortcut(&KeyboardShortcut::new(command, Key::C)),
                cut_event || i.consume_shortcut(&KeyboardShortcut::new(command, Key::X)),
                paste_event || i.consume_shortcut(&KeyboardShortcut::new(command, Key::V)),
                i.consume_shortcut(&KeyboardShortcut::new(command, Key::D)),
                i.consume_shortcut(&KeyboardShortcut::new(command, Key::A)),
                i.consume_key(Modifiers::NONE, Key::Delete) || i.consume_key(Modifiers::NONE, Key::Backspace),
                i.consume_key(Modifiers::NONE, Key::Enter),
                i.consume_key(Modifiers::NONE, Key::Escape),
                i.consume_key(Modifiers::NONE, Key::G),
                Tool::ALL.into_iter().find(|t| i.consume_key(Modifiers::NONE, t.key())),
            )
        });
        if redo {
            commands.push(Command::Redo);
        } else if undo {
            commands.push(Command::Undo);
        }
        if copy || cut {
            self.clipboard = Clipboard::copy(scene, &self.selection);
        }
        let mut edited: Option<Scene> = None;
        if (delete || cut) && !self.selection.0.is_empty() {
            let mut s = scene.clone();
            selection::delete(&mut s, &self.selection);
            self.selection.0.clear();
            edited = Some(s);
        }
        if paste && !self.clipboard.is_empty() {
            let mut s = edited.take().unwrap_or_else(|| scene.clone());
            self.selection = self.clipboard.paste(&mut s, PASTE_OFFSET);
            edited = Some(s);
        }
        if duplicate && !self.selection.0.is_empty() {
            let mut s = scene.clone();
            self.selection = Clipboard::copy(scene, &self.selection).paste(&mut s, PASTE_OFFSET);
            edited = Some(s);
        }
        if all {
            self.selection = Selection(selection::all_items(scene).collect());
        }
        if finish {
            edited = edited.or_else(|| tools::finish(self.tool, &mut self.pending, scene, &mut self.selection));
        }
        if cancel {
            if self.pending == Pending::Idle {
                self.selection.0.clear();
            }
            self.pending = Pending::Idle;
        }
        if snap {
            self.snap = !self.snap;
        }
        if let Some(tool) = picked {
            self.pick(tool);
        }
        commands.extend(edited.map(|s| Command::EditScene(Box::new(s))));
        commands
    }

    /// Feeds the canvas pointer to the active tool and paints the selection and the tool's
    /// preview. `view` is the canvas's transform; `step` the grid step in metres.
    pub fn canvas(&mut self, ui: &Ui, response: &Response, view: &View, step: f32, scene: &Scene) -> Vec<Command> {
        let to_world = |p: Pos2| view.to_world(Vec2::new(p.x, p.y));
        let snap = |p: Vec2| if self.snap { (p / step).round() * step } else { p };
        let (press, latest, shift) =
            ui.input(|i| (i.pointer.press_origin(), i.pointer.latest_pos(), i.modifiers.shift));
        let raw = response
            .hover_pos()
            .or(response.interact_pointer_pos())
            .or(latest)
            .map(to_world);
        let raw_origin = press.map(to_world);
        let primary_only = !ui.input(|i| i.key_down(Key::Space));
        let gesture = Gesture {
            at: raw.map(snap),
            origin: raw_origin.map(snap),
            drag_started: primary_only && response.drag_started_by(PointerButton::Primary),
            dragging: primary_only && response.dragged_by(PointerButton::Primary),
            drag_stopped: response.drag_stopped_by(PointerButton::Primary),
            clicked: response.clicked(),
            double_clicked: response.double_clicked(),
            finish: false,
            shift,
            tolerance: HIT_PIXELS / view.scale,
            raw,
            raw_origin,
        };
        let edit = tools::handle(self.tool, &mut self.pending, &gesture, scene, &mut self.selection);
        let painter = ui.painter_at(response.rect);
        let shown = edit.as_ref().unwrap_or(scene);
        self.selection.retain_existing(shown);
        areas::paint_all(&painter, view, shown);
        overlay::paint(
            &painter,
            view,
            shown,
            &self.selection,
            &tools::preview(self.tool, &self.pending, gesture.at),
        );
        edit.map(|s| Command::EditScene(Box::new(s))).into_iter().collect()
    }
}
