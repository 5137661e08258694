//! The physical state of one agent, as seen by every other agent in the snapshot.

use glam::Vec2;

/// Where an agent is in its life cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Its start time has not come yet.
    Waiting,
    /// Walking toward its goal (or without one).
    Active,
    /// Reached the end of its goal and stays in the scene.
    Arrived,
    /// Left the scene (arrived with the remove policy, or past its end time).
    Removed,
}

impl Status {
    /// True when the agent is in the scene (steers, is seen, is recorded).
    pub fn present(self) -> bool {
        matches!(self, Status::Active | Status::Arrived)
    }
}

/// Position, velocity and facing of an agent (Buckland's `MovingEntity`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// Agent id from the scene.
    pub id: u32,
    /// Index of the agent's profile in `World::profiles`.
    pub profile: u32,
    /// Position in metres.
    pub position: Vec2,
    /// Velocity in m/s.
    pub velocity: Vec2,
    /// Unit facing direction; updated only above the speed threshold.
    pub heading: Vec2,
    /// Body radius in metres.
    pub radius: f32,
    /// Life-cycle status.
    pub status: Status,
}

impl Body {
    /// Side vector: the heading rotated +90° (left-hand side in a y-up world).
    pub fn side(&self) -> Vec2 {
        self.heading.perp()
    }
}

/// The index and body of every present agent among `bodies`, in order.
pub fn present(bodies: &[Body]) -> impl Iterator<Item = (u32, &Body)> {
    bodies
        .iter()
        .enumerate()
        .filter(|(_, b)| b.status.present())
        .map(|(i, b)| (i as u32, b))
}
