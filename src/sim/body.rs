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

/// `count` bodies scattered over `area` from `seed`, facing every way, with radii between
/// `radii.0` and `radii.1`; every agent whose index is `absent.1` modulo `absent.0` waits
/// (is absent). For the unit tests of the neighbour indexes.
#[cfg(test)]
pub fn scattered(
    seed: u32,
    count: u32,
    area: crate::scene::Bounds,
    radii: (f32, f32),
    absent: (u32, u32),
) -> Vec<Body> {
    let mut next = crate::test_rng::unit_floats(seed);
    let size = area.size();
    (0..count)
        .map(|i| Body {
            id: i,
            profile: 0,
            position: area.min + Vec2::new(next() * size.x, next() * size.y),
            velocity: Vec2::ZERO,
            heading: Vec2::from_angle(next() * std::f32::consts::TAU),
            radius: radii.0 + (radii.1 - radii.0) * next(),
            status: if i % absent.0 == absent.1 {
                Status::Waiting
            } else {
                Status::Active
            },
        })
        .collect()
}
