//! What one agent avoids this tick: the nearest agents (RVO2's agent neighbours), moving and
//! static circles, and the obstacle edges facing it — all read from the snapshot.

use glam::Vec2;

use super::boundary::BoundaryScratch;
use super::lp::Line;
use super::obstacles::AvoidObstacles;
use super::region::Region;
use super::relaxation::Relaxation;
use crate::scene::avoidance::Reach;
use crate::sim::Body;

/// A disc the agent must not touch: another agent or a circular obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mover {
    /// Centre in metres.
    pub position: Vec2,
    /// Velocity in m/s (assumed constant over the horizon).
    pub velocity: Vec2,
    /// Radius in metres.
    pub radius: f32,
    /// True when it avoids in turn, so that responsibility is shared (half each).
    pub reactive: bool,
}

impl Mover {
    /// A non-reactive disc (obstacle or non-reactive agent): the agent takes full responsibility.
    pub fn obstacle(position: Vec2, radius: f32, velocity: Vec2) -> Mover {
        Mover {
            position,
            velocity,
            radius,
            reactive: false,
        }
    }
}

/// The snapshot as the avoidance layer reads it.
pub struct Snapshot<'a> {
    /// Every body of the previous tick.
    pub bodies: &'a [Body],
    /// Per profile index: true when agents of that profile do not avoid anyone.
    pub non_reactive: &'a [bool],
    /// The scene's obstacles.
    pub obstacles: &'a AvoidObstacles,
    /// Simulation time of the snapshot (s), where moving obstacles are placed.
    pub time: f32,
}

/// Everything one agent avoids this tick.
#[derive(Clone, Debug, Default)]
pub struct Neighbourhood {
    /// Agents (nearest first, at most `max_neighbors`), then moving circles.
    pub movers: Vec<Mover>,
    /// Static circles (avoided with the obstacle time horizon, never relaxed).
    pub static_circles: Vec<Mover>,
    /// Obstacle edges facing the agent, by start vertex, nearest first.
    pub edges: Vec<usize>,
    /// Reused buffers: candidate agents by distance, and edges with their distances.
    near: Vec<(f32, u32)>,
    near_edges: Vec<(f32, usize)>,
    /// Reused buffers of ORCA's linear program: its half-planes and the 3-D fallback's.
    pub(super) lines: Vec<Line>,
    pub(super) projected: Vec<Line>,
    /// Reused buffers of the cone methods: their forbidden regions and the boundary search's.
    pub(super) regions: Vec<Region>,
    pub(super) boundary: BoundaryScratch,
    /// The cone methods' N − 1 relaxation: region levels, the regions of one count, and which
    /// counts permit a velocity.
    pub(super) relax: Relaxation,
}

/// The agents one decision may avoid, as the neighbour index found them (indices into the
/// snapshot's bodies).
#[derive(Clone, Copy, Debug)]
pub enum Candidates<'a> {
    /// Already the method's own choice: its `max_neighbors` nearest within its
    /// `neighbor_dist`, nearest first (ties by index) — RVO2's k-nearest query.
    Nearest(&'a [u32]),
    /// Every agent within some range, in any order; the method picks its own.
    InRange(&'a [u32]),
}

impl Neighbourhood {
    /// Gathers the neighbourhood of `body` among `candidates`, reusing the vectors' allocations.
    pub fn gather(&mut self, body: &Body, max_speed: f32, reach: &Reach, candidates: Candidates, snap: &Snapshot) {
        let p = body.position;
        self.movers.clear();
        match candidates {
            Candidates::Nearest(nearest) => self.movers.extend(nearest.iter().map(|&j| mover(snap, j))),
            Candidates::InRange(all) => {
                self.pick_nearest(body, reach, all, snap);
                self.movers.extend(self.near.iter().map(|&(_, j)| mover(snap, j)));
            }
        }
        let agent_range = reach.neighbor_dist.unwrap_or(reach.reaction_distance + body.radius);
        snap.obstacles.moving_near(p, agent_range, snap.time, &mut self.movers);
        let obstacle_range = match reach.neighbor_dist {
            Some(_) => reach.time_horizon_obst * max_speed + body.radius,
            None => reach.reaction_distance + body.radius,
        };
        self.static_circles.clear();
        snap.obstacles.circles_near(p, obstacle_range, &mut self.static_circles);
        snap.obstacles.edges_near(p, obstacle_range, &mut self.near_edges);
        self.edges.clear();
        self.edges.extend(self.near_edges.iter().map(|e| e.1));
    }

    /// Fills `near` with the other present agents of `candidates` within the reach of `body`,
    /// nearest first (ties by index), at most `max_neighbors` of them.
    fn pick_nearest(&mut self, body: &Body, reach: &Reach, candidates: &[u32], snap: &Snapshot) {
        let p = body.position;
        let near = &mut self.near;
        near.clear();
        near.extend(candidates.iter().filter_map(|&j| {
            let other = &snap.bodies[j as usize];
            if other.id == body.id || !other.status.present() {
                return None;
            }
            let dist_sq = other.position.distance_squared(p);
            let inside = match reach.neighbor_dist {
                Some(d) => dist_sq < d * d,
                None => dist_sq.sqrt() <= reach.reaction_distance + body.radius + other.radius,
            };
            inside.then_some((dist_sq, j))
        }));
        // (distance, index) is a total order (indices are unique), so selecting the k smallest
        // and sorting only those gives exactly the head of the fully sorted list.
        let order = |a: &(f32, u32), b: &(f32, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if near.len() > reach.max_neighbors && reach.max_neighbors > 0 {
            near.select_nth_unstable_by(reach.max_neighbors - 1, order);
        }
        near.truncate(reach.max_neighbors);
        near.sort_unstable_by(order);
    }
}

/// Agent `j` of the snapshot as a disc to avoid.
fn mover(snap: &Snapshot, j: u32) -> Mover {
    let other = &snap.bodies[j as usize];
    Mover {
        position: other.position,
        velocity: other.velocity,
        radius: other.radius,
        reactive: !snap.non_reactive[other.profile as usize],
    }
}
