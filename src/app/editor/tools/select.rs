//! The select tool: click selects the object under the pointer (Shift+click adds or removes
//! it), a drag on a selected object's vertex reshapes it, a drag on an object moves the
//! selection, a drag on empty space selects everything inside the rubber band.

use super::{Edit, Gesture, Pending};
use crate::app::editor::selection::{self, Selection, hit, hit_vertex, in_rect};
use crate::scene::Scene;

/// Handles one frame of the select tool.
pub fn handle(pending: &mut Pending, g: &Gesture, scene: &Scene, selection: &mut Selection) -> Edit {
    if g.clicked
        && let Some(raw) = g.raw
    {
        match (hit(scene, raw, g.tolerance), g.shift) {
            (Some(item), true) => selection.toggle(item),
            (Some(item), false) => selection.set(item),
            (None, true) => {}
            (None, false) => selection.0.clear(),
        }
        return None;
    }
    if g.drag_started {
        start_drag(pending, g, scene, selection);
    }
    let at = g.at?;
    let edit = match pending {
        Pending::Move { last } if at != *last => {
            let mut edited = scene.clone();
            selection::translate(&mut edited, selection, at - *last);
            *last = at;
            Some(edited)
        }
        Pending::Vertex(vertex) => {
            let mut edited = scene.clone();
            selection::set_vertex(&mut edited, *vertex, at);
            (edited != *scene).then_some(edited)
        }
        Pending::Drag { to, .. } => {
            *to = g.raw.unwrap_or(at);
            None
        }
        _ => None,
    };
    if g.drag_stopped {
        if let Pending::Drag { from, to } = std::mem::take(pending) {
            let inside = selection::all_items(scene).filter(|&i| in_rect(scene, i, from, to));
            if !g.shift {
                selection.0.clear();
            }
            for item in inside {
                if !selection.contains(item) {
                    selection.0.push(item);
                }
            }
        }
        *pending = Pending::Idle;
    }
    edit
}

/// Decides what a drag starting at the press position does.
fn start_drag(pending: &mut Pending, g: &Gesture, scene: &Scene, selection: &mut Selection) {
    let (Some(origin), Some(press)) = (g.origin, g.raw_origin) else {
        return;
    };
    if let Some(vertex) = hit_vertex(scene, selection, press, g.tolerance) {
        *pending = Pending::Vertex(vertex);
        return;
    }
    *pending = match hit(scene, press, g.tolerance) {
        Some(item) => {
            if !selection.contains(item) {
                if g.shift {
                    selection.0.push(item);
                } else {
                    selection.set(item);
                }
            }
            Pending::Move { last: origin }
        }
        None => Pending::Drag { from: press, to: press },
    };
}
