//! The wall tool: drag from one end of the wall to the other.

use super::{Edit, Gesture, Pending, track_drag};
use crate::app::editor::selection::{Item, Selection};
use crate::scene::{Obstacle, Scene};

/// Handles one frame of the wall tool; a drag of zero length adds nothing.
pub fn handle(pending: &mut Pending, g: &Gesture, scene: &Scene, selection: &mut Selection) -> Edit {
    let (a, b) = track_drag(pending, g)?;
    if a == b {
        return None;
    }
    let mut edited = scene.clone();
    selection.set(Item::Obstacle(edited.obstacles.len()));
    edited.obstacles.push(Obstacle::Wall { a, b });
    Some(edited)
}
