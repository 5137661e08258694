//! What a behaviour may read when it computes its force: the agent, its profile, its goal
//! point and its neighbours, all from the previous tick's immutable snapshot.

use glam::Vec2;

use crate::sim::{Body, ResolvedProfile, StaticGeometry};

/// The point the mind wants the agent to head for this tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoalPoint {
    /// Where to go, in metres.
    pub position: Vec2,
    /// True for the last point of the route (arrive there); false for an intermediate waypoint.
    pub is_final: bool,
}

/// Read-only inputs of one agent's steering this tick.
pub struct SteeringContext<'a> {
    /// The agent's own body.
    pub body: &'a Body,
    /// The agent's physical parameters.
    pub profile: &'a ResolvedProfile,
    /// The goal point chosen by the mind, if any.
    pub goal: Option<GoalPoint>,
    /// Indices into `bodies` of the agents within the profile's neighbour radius, ascending.
    pub neighbours: &'a [u32],
    /// Every body of the snapshot.
    pub bodies: &'a [Body],
    /// Tick length in seconds.
    pub dt: f32,
    /// The obstacles, for ray sensing.
    pub statics: &'a StaticGeometry,
    /// Simulation time of the snapshot in seconds (places moving obstacles).
    pub time: f32,
    /// The path the agent walks, if its goal is one.
    pub path: Option<&'a crate::scene::Path>,
}

impl SteeringContext<'_> {
    /// The agent's position.
    pub fn position(&self) -> Vec2 {
        self.body.position
    }

    /// The agent's velocity.
    pub fn velocity(&self) -> Vec2 {
        self.body.velocity
    }

    /// Neighbours whose body comes within `radius` of the agent's centre
    /// (centre distance < radius + their body radius).
    pub fn neighbours_within(&self, radius: f32) -> impl Iterator<Item = &Body> {
        let p = self.body.position;
        self.neighbours
            .iter()
            .map(|&i| &self.bodies[i as usize])
            .filter(move |n| {
                let reach = radius + n.radius;
                n.position.distance_squared(p) < reach * reach
            })
    }
}
