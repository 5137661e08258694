//! What a behaviour may read when it computes its force: the agent, its profile, its goal
//! point, its neighbours, the other agents by id and the obstacles, all from the previous tick's
//! immutable snapshot.

use glam::Vec2;

use super::local_space::LocalFrame;
use super::obstacles::SteeringObstacles;
use super::tagged_sums::{TaggedMemo, TaggedSums, TaggedView};
use crate::sim::{Body, NeighbourGrid, ResolvedProfile, StaticGeometry};

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
    /// grid's cell order (deterministic, but not ascending), for the behaviours that read them one
    /// by one (Popelová's, Stria's) and the avoidance method; empty when none of them does.
    pub neighbours: &'a [u32],
    /// The neighbour index of the snapshot, for the flock sums ([`SteeringContext::tagged_sums`]).
    pub grid: &'a NeighbourGrid,
    /// The agent's index in `bodies`.
    pub index: u32,
    /// The largest body radius of any agent.
    pub max_radius: f32,
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
    /// The flock sums of the last view asked for ([`SteeringContext::tagged_sums`]); for a new
    /// context, the sums computed ahead for the agent this tick, if any ([`TaggedMemo::new`]).
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

    /// Separation's, alignment's and cohesion's sums over the neighbours tagged with `radius`
    /// and a field of view of `fov_deg`, computed once per view and agent.
    pub fn tagged_sums(&self, radius: f32, fov_deg: f32) -> TaggedSums {
        let view = TaggedView::new(radius, fov_deg);
        self.memo.get_or(view, || {
            let body = self.body;
            self.grid
                .flock_sums(body.position, body.heading, view, self.index, self.max_radius)
        })
    }
}
