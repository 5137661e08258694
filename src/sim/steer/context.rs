//! What a behaviour may read when it computes its force: the agent, its profile, its goal
//! point, its neighbours, the other agents by id and the obstacles, all from the previous tick's
//! immutable snapshot.

use glam::Vec2;

use super::local_space::LocalFrame;
use super::obstacles::SteeringObstacles;
use super::tagged_sums::{TaggedMemo, TaggedSums};
use crate::sim::{Body, ResolvedProfile, StaticGeometry};

/// The point the mind wants the agent to head for this tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoalPoint {
    /// Where to go, in metres.
    pub position: Vec2,
    /// True for the last point of the route (arrive there); false for an intermediate waypoint.
    pub is_final: bool,
}

/// Finds an agent's body index from its scene id (sorted `(id, index)` pairs, binary search).
#[derive(Clone, Debug, Default)]
pub struct AgentIndex {
    by_id: Vec<(u32, u32)>,
}

impl AgentIndex {
    /// Indexes `ids`, given in body order.
    pub fn new(ids: impl Iterator<Item = u32>) -> AgentIndex {
        let mut by_id: Vec<(u32, u32)> = ids.enumerate().map(|(i, id)| (id, i as u32)).collect();
        by_id.sort_unstable();
        AgentIndex { by_id }
    }

    /// Body index of the agent with scene id `id`.
    pub fn get(&self, id: u32) -> Option<usize> {
        self.by_id
            .binary_search_by_key(&id, |&(k, _)| k)
            .ok()
            .map(|i| self.by_id[i].1 as usize)
    }
}

/// Read-only inputs of one agent's steering this tick.
pub struct SteeringContext<'a> {
    /// The agent's own body.
    pub body: &'a Body,
    /// The agent's physical parameters.
    pub profile: &'a ResolvedProfile,
    /// The goal point chosen by the mind, if any.
    pub goal: Option<GoalPoint>,
    /// Indices into `bodies` of the agents within the profile's neighbour radius, in the neighbour
    /// grid's cell order (deterministic, but not ascending).
    pub neighbours: &'a [u32],
    /// Every body of the snapshot.
    pub bodies: &'a [Body],
    /// Scene id → body index, for behaviours that name another agent.
    pub agents: &'a AgentIndex,
    /// The obstacles, for ray sensing (Popelová's human steerings).
    pub statics: &'a StaticGeometry,
    /// The scene's obstacles as Buckland's behaviours see them (circles and wall segments).
    pub obstacles: &'a SteeringObstacles,
    /// Simulation time of the snapshot in seconds (places moving obstacles).
    pub time: f32,
    /// The path the agent walks, if its goal is one.
    pub path: Option<&'a crate::scene::Path>,
    /// Tick length in seconds.
    pub dt: f32,
    /// The flock sums of the last view asked for ([`SteeringContext::tagged_sums`]); the default
    /// for a new context.
    pub memo: TaggedMemo,
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

    /// The agent's local frame (heading, side) at its position.
    pub fn frame(&self) -> LocalFrame {
        LocalFrame::new(self.body.position, self.body.heading)
    }

    /// The present agent with scene id `id`, unless it is this agent itself.
    pub fn other(&self, id: u32) -> Option<&Body> {
        self.agents
            .get(id)
            .map(|i| &self.bodies[i])
            .filter(|b| b.id != self.body.id && b.status.present())
    }

    /// Buckland's neighbour tagging: the neighbours within `radius` (plus their body radius) and,
    /// when `cos_half_fov` is given, inside the field of view around the heading.
    pub fn tagged(&self, radius: f32, cos_half_fov: Option<f32>) -> impl Iterator<Item = &Body> {
        let (p, heading) = (self.body.position, self.body.heading);
        self.neighbours
            .iter()
            .map(|&i| &self.bodies[i as usize])
            .filter(move |n| super::tagging::is_tagged(p, heading, n.position, n.radius, radius, cos_half_fov))
    }

    /// Separation's, alignment's and cohesion's sums over the neighbours tagged with `radius`
    /// and a field of view of `fov_deg`, computed once per view and agent.
    pub fn tagged_sums(&self, radius: f32, fov_deg: f32) -> TaggedSums {
        let cos_half_fov = super::tagging::cos_half_fov(fov_deg);
        self.memo.get_or(radius, cos_half_fov, || {
            TaggedSums::over(
                self.body.position,
                self.tagged(radius, cos_half_fov).map(|n| (n.position, n.heading)),
            )
        })
    }
}
