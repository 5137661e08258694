//! The add-agent tool: a click places an agent facing +x, a drag places it at the press and
//! points it along the drag.

use glam::Vec2;

use super::{Edit, Gesture, Pending, heading_deg, track_drag};
use crate::app::editor::selection::{Item, Selection, next_agent_id};
use crate::scene::{Agent, Goal, Scene};

/// Handles one frame of the add-agent tool.
pub fn handle(pending: &mut Pending, g: &Gesture, scene: &Scene, selection: &mut Selection) -> Edit {
    let placed = match track_drag(pending, g) {
        Some((from, to)) => Some((from, heading_deg(from, to))),
        None if g.clicked => g.at.map(|at| (at, 0.0)),
        None => None,
    };
    placed.map(|(position, heading_deg)| add(scene, position, heading_deg, selection))
}

/// `scene` with a new agent of the first profile at `position`, selected.
fn add(scene: &Scene, position: Vec2, heading_deg: f32, selection: &mut Selection) -> Scene {
    let mut edited = scene.clone();
    let profile = scene
        .profiles
        .first()
        .map_or_else(|| "walker".to_string(), |p| p.name.clone());
    selection.set(Item::Agent(edited.agents.len()));
    edited.agents.push(Agent {
        id: next_agent_id(scene),
        profile,
        position,
        heading_deg,
        goal: Goal::None,
        start_time: 0.0,
        end_time: None,
        agent_type: None,
    });
    edited
}
