//! Spawned agents appear only where they touch nobody. When a spawned agent's start time has
//! come, it appears at its scheduled place if no present body overlaps it there; a gate arrival
//! whose place is taken takes the free slot of its gate nearest to it
//! ([`crate::sim::mind::gate_slots_near`]), and one that finds none waits for the next tick, as
//! do the later arrivals at that gate in that tick (a gate lets agents in in agent order). An
//! area's agent waits until its own place is clear. Placed agents appear at their start time as
//! the scene says (validation keeps them apart). Admission runs in agent order in the sequential
//! apply phase, so a run stays deterministic at any thread count.

use std::collections::HashMap;

use glam::Vec2;

use super::AgentMind;
use crate::record::AgentEvent;
use crate::scene::Scene;
use crate::sim::mind::{WorldMap, gate_slots_near};
use crate::sim::{Body, Status};

/// Where the spawned agents of a run come from.
pub(super) struct Arrivals {
    /// Index of the first spawned body (the placed agents come first).
    first: usize,
    /// The gate of each spawned body (indexed from `first`); `None` for an area's agent.
    gates: Vec<Option<usize>>,
    /// The largest body radius of the run (metres).
    max_radius: f32,
}

/// The bodies in the scene at the moment of admission, hashed by cell for clearance tests.
struct Occupancy {
    /// Side of a cell: the largest body diameter, so overlapping bodies are in adjacent cells.
    cell: f32,
    cells: HashMap<(i64, i64), Vec<(Vec2, f32)>>,
}

impl Occupancy {
    /// The cell holding `p`.
    fn key(&self, p: Vec2) -> (i64, i64) {
        ((p.x / self.cell).floor() as i64, (p.y / self.cell).floor() as i64)
    }

    /// Adds a body of `radius` at `p`.
    fn insert(&mut self, p: Vec2, radius: f32) {
        self.cells.entry(self.key(p)).or_default().push((p, radius));
    }

    /// True when a body of `radius` at `p` overlaps none of the bodies.
    fn clear(&self, p: Vec2, radius: f32) -> bool {
        let (x, y) = self.key(p);
        (y.saturating_sub(1)..=y.saturating_add(1))
            .flat_map(|row| (x.saturating_sub(1)..=x.saturating_add(1)).map(move |column| (column, row)))
            .filter_map(|key| self.cells.get(&key))
            .flatten()
            .all(|&(q, r)| p.distance(q) >= radius + r)
    }
}

impl Arrivals {
    /// The spawned agents are the bodies from `first` on, entering at `gates` (one per body);
    /// no body of the run is larger than `max_radius`.
    pub(super) fn new(first: usize, gates: Vec<Option<usize>>, max_radius: f32) -> Arrivals {
        Arrivals {
            first,
            gates,
            max_radius,
        }
    }

    /// The index of the first spawned body: the bodies before it are placed agents.
    pub(super) fn first(&self) -> usize {
        self.first
    }

    /// Lets in every waiting spawned agent whose start time has come by time `t` and whose place
    /// (or, at a gate, another slot of the gate) is clear of every present body: it becomes
    /// active there and an `Appeared` event is recorded. Returns the least start time of the
    /// spawned agents still waiting (infinite when none is): one whose place was taken keeps a
    /// time at or before `t`, so it is tried again at the next admission.
    pub(super) fn admit(
        &self,
        t: f32,
        bodies: &mut [Body],
        minds: &[AgentMind],
        scene: &Scene,
        map: &WorldMap,
        events: &mut Vec<AgentEvent>,
    ) -> f32 {
        let mut next = f32::INFINITY;
        let mut due = Vec::new();
        for i in (self.first..bodies.len()).filter(|&i| bodies[i].status == Status::Waiting) {
            let start = minds[i].mind.start_time;
            if t >= start {
                due.push(i);
            } else {
                next = next.min(start);
            }
        }
        if due.is_empty() {
            return next;
        }
        let mut occupied = Occupancy {
            cell: (2.0 * self.max_radius).max(1e-3),
            cells: HashMap::new(),
        };
        for b in bodies.iter().filter(|b| b.status.present()) {
            occupied.insert(b.position, b.radius);
        }
        let mut full_gates = Vec::new();
        for i in due {
            let gate = self.gates[i - self.first];
            if gate.is_some_and(|g| full_gates.contains(&g)) {
                next = next.min(minds[i].mind.start_time);
                continue;
            }
            let body = &mut bodies[i];
            let (scheduled, radius) = (body.position, body.radius);
            let alternatives = gate.map(|g| gate_slots_near(scene, map, g, radius, scheduled));
            let place = std::iter::once(scheduled)
                .chain(alternatives.into_iter().flatten())
                .find(|&p| occupied.clear(p, radius));
            match place {
                Some(p) => {
                    body.position = p;
                    body.status = Status::Active;
                    occupied.insert(p, radius);
                    events.push(AgentEvent::Appeared { agent: body.id });
                }
                None => {
                    next = next.min(minds[i].mind.start_time);
                    full_gates.extend(gate);
                }
            }
        }
        next
    }
}
