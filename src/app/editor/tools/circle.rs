//! The circle tools: a still circle by dragging its radius, a moving circle by dragging its
//! velocity. A click places a 0.5 m circle (at rest for the moving kind).

use glam::Vec2;

use super::{Edit, Gesture, Pending, track_drag};
use crate::app::editor::selection::{Item, Selection};
use crate::scene::{Obstacle, Scene};

/// Radius of a clicked circle and of every new moving circle, metres.
const DEFAULT_RADIUS: f32 = 0.5;

/// Which circle the tool adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A static disc; the drag is its radius.
    Still,
    /// A moving disc; the drag is its velocity.
    Moving,
}

/// Handles one frame of a circle tool.
pub fn handle(kind: Kind, pending: &mut Pending, g: &Gesture, scene: &Scene, selection: &mut Selection) -> Edit {
    let (center, drag) = match track_drag(pending, g) {
        Some((from, to)) => (from, to - from),
        None if g.clicked => (g.at?, Vec2::ZERO),
        None => return None,
    };
    let obstacle = match kind {
        Kind::Still if drag.length() > 0.0 => Obstacle::Circle {
            center,
            radius: drag.length(),
        },
        Kind::Still => Obstacle::Circle {
            center,
            radius: DEFAULT_RADIUS,
        },
        Kind::Moving => Obstacle::MovingCircle {
            center,
            radius: DEFAULT_RADIUS,
            velocity: drag,
        },
    };
    let mut edited = scene.clone();
    selection.set(Item::Obstacle(edited.obstacles.len()));
    edited.obstacles.push(obstacle);
    Some(edited)
}
