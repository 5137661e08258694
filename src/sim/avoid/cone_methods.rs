//! VO, RVO, ClearPath and Brandejský's variant: build one forbidden cone per neighbour
//! (apex, truncation and side handling depending on the method), then take the permitted
//! velocity nearest the preferred one on the outer boundary edges (see `region`).
//!
//! - **VO**: apex at the neighbour's velocity for everyone (no reciprocity).
//! - **RVO**: apex at (v_A + v_B)/2 for reactive neighbours, v_B for non-reactive ones.
//! - **ClearPath**: the FVO — the RVO cone truncated at ΔT (type I); ClearPath-1 adds the
//!   type-II side half-plane per reactive neighbour and halves ΔT while no solution exists;
//!   ClearPath-2 drops the side constraints.
//! - **Brandejský**: ClearPath-2's FVOs, but only the side of each cone nearer the agent's
//!   current velocity may carry the new velocity (the inside test still uses whole cones).
//!
//! Every method recovers from an overlap as ClearPath-2 does: the overlapped neighbour
//! contributes the velocities that would still overlap after one tick (a disc), and the
//! preferred velocity becomes zero, so the smallest separating velocity is chosen. When no
//! permitted velocity exists, the farthest neighbour is dropped and the search repeated
//! (ClearPath's N − 1 relaxation); with none left the agent stops. ClearPath-1 skips the
//! halvings that cannot succeed: when the regions that do not depend on ΔT (side half-planes,
//! overlaps) already forbid every velocity, it drops the next neighbour straight away.
//!
//! The regions and the boundary search's buffers live in the worker's [`Neighbourhood`], so
//! a decision allocates nothing.

use glam::Vec2;

use super::AvoidingAgent;
use super::boundary::nearest_free;
use super::cone::{Cone, Side, collision_disc, half_plane};
use super::neighbours::{Mover, Neighbourhood};
use super::obstacles::AvoidObstacles;
use super::region::Region;
use crate::record::Constraint;
use crate::scene::avoidance::ClearPathVariant;

/// How many times ClearPath-1 halves ΔT before it falls back to dropping neighbours.
const MAX_HALVINGS: u32 = 6;

/// The cone-based method to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConeMethod {
    /// Plain velocity obstacles.
    Vo,
    /// Reciprocal velocity obstacles.
    Rvo,
    /// ClearPath-1 or -2.
    ClearPath(ClearPathVariant),
    /// Brandejský's per-VO side selection.
    Brandejsky,
}

/// Time horizons of a cone method (s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Horizons {
    /// For agents and moving obstacles.
    pub agents: f32,
    /// For static obstacles.
    pub obstacles: f32,
}

impl Horizons {
    /// ClearPath-1's step when no velocity is permitted: both horizons halved.
    fn halve(&mut self) {
        self.agents *= 0.5;
        self.obstacles *= 0.5;
    }
}

impl ConeMethod {
    fn apex(self, agent: &AvoidingAgent, other: &Mover) -> Vec2 {
        match self {
            ConeMethod::Rvo | ConeMethod::ClearPath(_) | ConeMethod::Brandejsky if other.reactive => {
                (agent.velocity + other.velocity) * 0.5
            }
            _ => other.velocity,
        }
    }

    /// The region of one cone, restricted to one side for Brandejský.
    fn cone_region(self, cone: &Cone, agent: &AvoidingAgent) -> Region {
        let only = (self == ConeMethod::Brandejsky).then(|| cone.side_of(agent.velocity));
        cone.region(agent.max_speed, only)
    }

    /// Fills `out` with the forbidden regions of one attempt; true when the agent overlaps
    /// something. Without `horizons`, only the regions that do not depend on them: ClearPath's
    /// side half-planes and the overlap regions.
    #[allow(clippy::too_many_arguments)]
    fn build(
        self,
        agent: &AvoidingAgent,
        movers: &[Mover],
        statics: &[Mover],
        edges: &[usize],
        obstacles: &AvoidObstacles,
        horizons: Option<Horizons>,
        dt: f32,
        out: &mut Vec<Region>,
    ) -> bool {
        out.clear();
        let mut colliding = false;
        // Without horizons the cones only give their axes (for the side half-planes).
        let Horizons {
            agents,
            obstacles: static_tau,
        } = horizons.unwrap_or(Horizons {
            agents: 1.0,
            obstacles: 1.0,
        });
        let discs = movers
            .iter()
            .map(|m| (m, agents))
            .chain(statics.iter().map(|m| (m, static_tau)));
        for (other, tau) in discs {
            let p = other.position - agent.position;
            let radius = agent.radius + other.radius;
            let apex = self.apex(agent, other);
            let Some(cone) = Cone::of_disc(p, radius, apex, tau) else {
                colliding = true;
                out.push(collision_disc(p, radius, apex, dt));
                continue;
            };
            if horizons.is_some() {
                out.push(self.cone_region(&cone, agent));
            }
            if self == ConeMethod::ClearPath(ClearPathVariant::Guaranteed) && other.reactive {
                let permitted = if p.perp_dot(agent.velocity - other.velocity) > 0.0 {
                    Side::Left
                } else {
                    Side::Right
                };
                let normal = match permitted {
                    Side::Left => -cone.axis.perp(),
                    Side::Right => cone.axis.perp(),
                };
                out.push(half_plane(apex, normal, agent.max_speed));
            }
        }
        for &e in edges {
            let v = &obstacles.vertices[e];
            let a = v.point - agent.position;
            let b = obstacles.vertices[v.next].point - agent.position;
            match Cone::of_segment(a, b, agent.radius, static_tau) {
                Some(cone) => {
                    if horizons.is_some() {
                        out.push(self.cone_region(&cone, agent));
                    }
                }
                None => {
                    colliding = true;
                    let nearest = crate::geom::closest_point_on_segment(Vec2::ZERO, a, b);
                    let dist = nearest.length();
                    let normal = if dist > 0.0 { nearest / dist } else { -v.unit_dir.perp() };
                    out.push(half_plane(
                        normal * ((dist - agent.radius) / dt),
                        normal,
                        agent.max_speed,
                    ));
                }
            }
        }
        colliding
    }

    /// The new velocity of `agent` (the neighbourhood's region and boundary buffers are
    /// reused); `debug` receives the regions and boundary pieces of the attempt that produced it.
    pub fn velocity(
        self,
        agent: &AvoidingAgent,
        nb: &mut Neighbourhood,
        obstacles: &AvoidObstacles,
        horizons: Horizons,
        dt: f32,
        mut debug: Option<&mut Vec<Constraint>>,
    ) -> Vec2 {
        let mut horizons = horizons;
        let mut halvings = 0;
        let mut movers = nb.movers.len();
        let mut attempt = Vec::new();
        // The neighbour count at which the regions halving leaves alone are known to permit a velocity.
        let mut fixed_feasible = None;
        loop {
            let colliding = self.build(
                agent,
                &nb.movers[..movers],
                &nb.static_circles,
                &nb.edges,
                obstacles,
                Some(horizons),
                dt,
                &mut nb.regions,
            );
            let preferred = if colliding { Vec2::ZERO } else { agent.preferred };
            attempt.clear();
            let found = nearest_free(
                &nb.regions,
                agent.max_speed,
                preferred,
                &mut nb.boundary,
                debug.is_some().then_some(&mut attempt),
            );
            let exhausted = movers == 0 && halvings >= MAX_HALVINGS;
            if found.is_some() || exhausted || (movers == 0 && !self.halves()) {
                if let Some(out) = debug.as_deref_mut() {
                    out.append(&mut attempt);
                }
                return found.unwrap_or(Vec2::ZERO);
            }
            if self.halves() && halvings < MAX_HALVINGS {
                halvings += 1;
                horizons.halve();
            } else {
                movers -= 1;
            }
            // ClearPath-1: when the regions that do not depend on ΔT already forbid every
            // velocity, no attempt with this many neighbours can succeed, halved or not; go
            // straight to the next neighbour count (the last attempt still runs, for `debug`).
            while self.halves() && (movers > 0 || halvings < MAX_HALVINGS) && fixed_feasible != Some(movers) {
                self.build(
                    agent,
                    &nb.movers[..movers],
                    &nb.static_circles,
                    &nb.edges,
                    obstacles,
                    None,
                    dt,
                    &mut nb.regions,
                );
                if nearest_free(&nb.regions, agent.max_speed, agent.preferred, &mut nb.boundary, None).is_some() {
                    fixed_feasible = Some(movers);
                } else {
                    while halvings < MAX_HALVINGS {
                        halvings += 1;
                        horizons.halve();
                    }
                    movers = movers.saturating_sub(1);
                }
            }
        }
    }

    fn halves(self) -> bool {
        self == ConeMethod::ClearPath(ClearPathVariant::Guaranteed)
    }
}
