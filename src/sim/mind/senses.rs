//! What a mind perceives this tick, from the immutable snapshot of the previous tick: the
//! bodies, every agent's public [`Signals`], the neighbour index, hazards and exits.
//!
//! Panic and knowledge spreading (Oblak §2.4, 6.1.6): an agent's *shared* panic and *shared*
//! exit knowledge are what its neighbours can pick up; each is published only `hop_delay`
//! seconds after the agent acquired it, so both spread hop by hop with a delay.

use glam::Vec2;

use super::world_map::WorldMap;
use crate::scene::{Role, Scene};
use crate::sim::{Body, NeighbourGrid};

/// What every agent shows the others (read from the previous tick's snapshot).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Signals {
    /// The agent's role, if a state machine drives it.
    pub role: Option<Role>,
    /// Panic its neighbours can pick up (0–1).
    pub panic: f32,
    /// Exits (bit i = `evacuation.exits[i]`) its neighbours can learn from it.
    pub exits: u64,
    /// Caught by a zombie (no longer prey).
    pub caught: bool,
}

/// Neighbours within this distance (metres) talk: panic and exit knowledge pass between them.
pub const TALK_RADIUS: f32 = 3.0;

/// The read-only inputs of one mind's update.
pub struct Senses<'a> {
    /// This agent's index in `bodies`.
    pub index: usize,
    /// Every body of the snapshot.
    pub bodies: &'a [Body],
    /// Every agent's signals, indexed like `bodies` (empty when no agent has a state machine:
    /// only machines read them).
    pub signals: &'a [Signals],
    /// Neighbour index over the present bodies.
    pub neighbours: &'a NeighbourGrid,
    /// The shared static map.
    pub map: &'a WorldMap,
    /// The scene.
    pub scene: &'a Scene,
    /// Agents crowding each exit (for exit balancing).
    pub exit_load: &'a [u32],
    /// Simulation time at the start of the tick (s).
    pub time: f32,
    /// Tick being computed.
    pub tick: u64,
    /// Tick length (s).
    pub dt: f32,
}

impl Senses<'_> {
    /// This agent's body.
    pub fn body(&self) -> &Body {
        &self.bodies[self.index]
    }

    /// This agent's position.
    pub fn position(&self) -> Vec2 {
        self.body().position
    }

    /// Indices of the present agents within `radius` whose centre this agent can see.
    pub fn visible_agents(&self, radius: f32, out: &mut Vec<u32>) {
        self.neighbours.query(self.position(), radius, out);
        let p = self.position();
        out.retain(|&j| {
            let other = &self.bodies[j as usize];
            j as usize != self.index
                && other.status.present()
                && other.position.distance_squared(p) <= radius * radius
                && self.map.clear_line(p, other.position)
        });
    }

    /// The nearest visible burning hazard within `radius`: (position, distance).
    pub fn nearest_hazard(&self, radius: f32) -> Option<(Vec2, f32)> {
        let p = self.position();
        self.scene
            .hazards
            .iter()
            .filter(|h| self.time >= h.start_time)
            .map(|h| (h.position, p.distance(h.position)))
            .filter(|&(q, d)| d <= radius && self.map.clear_line(p, q))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// Exits within `radius` in plain view, as a bit set.
    pub fn visible_exits(&self, radius: f32) -> u64 {
        let p = self.position();
        self.map
            .exits
            .iter()
            .enumerate()
            .filter(|(_, e)| p.distance(e.position) <= radius && self.map.clear_line(p, e.position))
            .fold(0, |bits, (i, _)| bits | 1 << i)
    }

    /// Panic acquired from the neighbours in `talkers`: the mean of their positive shared panic
    /// and the maximum, averaged (the thesis names both inputs but not the formula).
    pub fn acquired_panic(&self, talkers: &[u32]) -> f32 {
        let shared: Vec<f32> = talkers
            .iter()
            .map(|&j| self.signals[j as usize].panic)
            .filter(|&p| p > 0.0)
            .collect();
        if shared.is_empty() {
            return 0.0;
        }
        let mean = shared.iter().sum::<f32>() / shared.len() as f32;
        let max = shared.iter().copied().fold(0.0, f32::max);
        0.5 * (mean + max)
    }
}

/// Counts the present agents within `radius` of each exit.
pub fn exit_loads(map: &WorldMap, bodies: &[Body], radius: f32) -> Vec<u32> {
    map.exits
        .iter()
        .map(|e| {
            bodies
                .iter()
                .filter(|b| b.status.present() && b.position.distance_squared(e.position) <= radius * radius)
                .count() as u32
        })
        .collect()
}
