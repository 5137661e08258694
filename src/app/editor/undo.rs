//! Unlimited undo/redo as a history of whole-scene snapshots. Scenes are shared (`Arc`), so a
//! snapshot costs one pointer until the scene is edited; consecutive edits of one gesture (a drag,
//! typing into one field) are merged into one step by a group key.

use std::sync::Arc;

use crate::scene::Scene;

/// What an edit belongs to: edits with the same key in a row form one undo step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EditGroup {
    /// Edits made while one pointer press lasts (a drag), numbered per press.
    Press(u64),
    /// Edits typed into one focused widget.
    Focus(eframe::egui::Id),
}

/// The scenes before (undo) and after (redo) the current one.
#[derive(Clone, Debug, Default)]
pub struct History {
    undo: Vec<Arc<Scene>>,
    redo: Vec<Arc<Scene>>,
    /// The group of the newest undo step, if it may still absorb edits.
    open_group: Option<EditGroup>,
}

impl History {
    /// Records that the scene `before` is being replaced by an edit in `group`. An edit in the
    /// same group as the previous one extends that step; any edit clears the redo list.
    pub fn record(&mut self, before: Arc<Scene>, group: Option<EditGroup>) {
        self.redo.clear();
        if group.is_none() || group != self.open_group || self.undo.is_empty() {
            self.undo.push(before);
        }
        self.open_group = group;
    }

    /// The scene to go back to, given the current one (which becomes redoable).
    pub fn undo(&mut self, current: Arc<Scene>) -> Option<Arc<Scene>> {
        let previous = self.undo.pop()?;
        self.redo.push(current);
        self.open_group = None;
        Some(previous)
    }

    /// The scene to go forward to, given the current one (which becomes undoable).
    pub fn redo(&mut self, current: Arc<Scene>) -> Option<Arc<Scene>> {
        let next = self.redo.pop()?;
        self.undo.push(current);
        self.open_group = None;
        Some(next)
    }

    /// True when there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// True when there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Closes the current group so that the next edit starts a new step.
    pub fn close_group(&mut self) {
        self.open_group = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str) -> Arc<Scene> {
        let mut s = Scene::empty();
        s.name = name.into();
        Arc::new(s)
    }

    #[test]
    fn grouped_edits_undo_as_one_step_and_redo_restores() {
        let mut h = History::default();
        h.record(named("a"), None);
        h.record(named("b"), Some(EditGroup::Press(1)));
        h.record(named("b1"), Some(EditGroup::Press(1)));
        h.record(named("c"), Some(EditGroup::Press(2)));
        let cur = named("d");
        let back = h.undo(cur.clone()).unwrap();
        assert_eq!(back.name, "c");
        let back = h.undo(back).unwrap();
        assert_eq!(back.name, "b", "the press-1 drag is one step");
        let back = h.undo(back).unwrap();
        assert_eq!(back.name, "a");
        assert!(!h.can_undo());
        let fwd = h.redo(back).unwrap();
        assert_eq!(fwd.name, "b");
        h.record(fwd, None);
        assert!(!h.can_redo(), "a new edit drops the redo list");
    }
}
