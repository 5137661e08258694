//! The add-target tool: a click places a target of radius 0.5 m, a drag sets the radius.

use super::{Edit, Gesture, Pending, track_drag};
use crate::app::editor::selection::{Item, Selection, unique_name};
use crate::scene::{Scene, Target};

/// Arrival radius of a clicked target, metres.
const DEFAULT_RADIUS: f32 = 0.5;

/// Handles one frame of the add-target tool.
pub fn handle(pending: &mut Pending, g: &Gesture, scene: &Scene, selection: &mut Selection) -> Edit {
    let placed = match track_drag(pending, g) {
        Some((from, to)) => Some((from, from.distance(to).max(0.05))),
        None if g.clicked => g.at.map(|at| (at, DEFAULT_RADIUS)),
        None => None,
    };
    placed.map(|(position, radius)| {
        let mut edited = scene.clone();
        let id = unique_name("target-1", |n| scene.target(n).is_some());
        selection.set(Item::Target(edited.targets.len()));
        edited.targets.push(Target { id, position, radius });
        edited
    })
}
