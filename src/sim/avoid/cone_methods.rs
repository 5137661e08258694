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
use super::boundary::{Nearest, nearest_free};
use super::cone::{Cone, Outline, Side, collision_disc, half_plane};
use super::neighbours::{Mover, Neighbourhood};
use super::obstacles::AvoidObstacles;
use super::region::Region;
use super::relaxation::{Relaxation, Searched};
use crate::record::Constraint;
use crate::scene::avoidance::ClearPathVariant;

/// How many discs' cones are computed before their regions are built.
const DISC_BATCH: usize = 8;

/// How many times ClearPath-1 halves ΔT before it falls back to dropping neighbours.
const MAX_HALVINGS: u32 = 6;

/// How many candidate edges without a permitted piece the search at the full count cuts before
/// it leaves the question to the relaxation's pass (methods without halvings): in the hallway
/// of the cone bench, 99 % of the searches that succeed find their first piece within 16
/// edges, while one that fails cuts all of them (35 on average).
const PATIENCE: usize = 16;

/// The relaxation's view of `regions` (present from their `levels` on) for `agent`, who
/// overlaps something from count `colliding_from` on.
fn searched<'a>(
    agent: &AvoidingAgent,
    (regions, levels): (&'a [Region], &'a [u32]),
    colliding_from: u32,
) -> Searched<'a> {
    Searched {
        regions,
        levels,
        max_speed: agent.max_speed,
        preferred: agent.preferred,
        colliding_from,
    }
}

/// A disc to avoid (another agent, a moving or static circle) as [`ConeMethod::build`] takes
/// it: its level, position relative to the agent, combined radius, the cone's apex, the cone
/// (`None` when the agent overlaps the disc) and its outline (`None` too when the cone lies
/// beyond max speed).
#[derive(Clone, Copy)]
struct Disc<'a> {
    other: &'a Mover,
    level: u32,
    p: Vec2,
    radius: f32,
    apex: Vec2,
    cone: Option<Cone>,
    outline: Option<Outline>,
}

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

/// How far (m/s) the agent's velocity must lie from every side half-plane's border for
/// [`own_velocity_clear_of_sides`].
const SIDE_CLEARANCE: f32 = 1e-3;

/// True when the agent's own velocity lies within max speed and more than [`SIDE_CLEARANCE`]
/// from the border of every ClearPath-1 side half-plane of `movers`. It always lies on their
/// permitted side, at |p × (v_A − v_B)| / 2|p| from the border (the half-plane through the
/// apex (v_A + v_B)/2, with the relative velocity on the permitted side), so then, without an
/// overlap, those regions permit a velocity at every neighbour count.
fn own_velocity_clear_of_sides(agent: &AvoidingAgent, movers: &[Mover]) -> bool {
    agent.velocity.length() <= agent.max_speed - SIDE_CLEARANCE
        && movers.iter().filter(|m| m.reactive).all(|m| {
            let p = m.position - agent.position;
            p.perp_dot(agent.velocity - m.velocity).abs() >= 2.0 * SIDE_CLEARANCE * p.length()
        })
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
        self.outlined_region(cone, cone.outline(agent.max_speed), agent)
    }

    /// [`ConeMethod::cone_region`] from the cone's outline.
    fn outlined_region(self, cone: &Cone, outline: Outline, agent: &AvoidingAgent) -> Region {
        let only = (self == ConeMethod::Brandejsky).then(|| cone.side_of(agent.velocity));
        cone.region_within(outline, agent.max_speed, only)
    }

    /// Fills `out` with the forbidden regions of every neighbour, `levels` with each one's
    /// level (mover i: i + 1; static circles and obstacle edges: 0, see `relaxation`), in
    /// ascending order of level, so that the regions present at a count come first, and `cones`
    /// with the cone of each region built from one (`None` for the regions that do not depend
    /// on the horizons: ClearPath's side half-planes and the overlap regions); returns the
    /// lowest level of an overlap region (`u32::MAX` without one): from that neighbour count on
    /// the agent overlaps something. Cones that lie wholly beyond max speed are left out: they
    /// forbid no velocity the search could choose.
    #[allow(clippy::too_many_arguments)]
    fn build(
        self,
        agent: &AvoidingAgent,
        movers: &[Mover],
        statics: &[Mover],
        edges: &[usize],
        obstacles: &AvoidObstacles,
        horizons: Horizons,
        dt: f32,
        (out, levels, cones): (&mut Vec<Region>, &mut Vec<u32>, &mut Vec<Option<Cone>>),
    ) -> u32 {
        out.clear();
        levels.clear();
        cones.clear();
        let mut colliding_from = u32::MAX;
        let mut push = |region: Region, level: u32, cone: Option<Cone>| {
            out.push(region);
            levels.push(level);
            cones.push(cone);
        };
        let Horizons {
            agents,
            obstacles: static_tau,
        } = horizons;
        for &e in edges {
            let v = &obstacles.vertices[e];
            let a = v.point - agent.position;
            let b = obstacles.vertices[v.next].point - agent.position;
            match Cone::of_segment(a, b, agent.radius, static_tau) {
                Some(cone) => {
                    if !cone.beyond(agent.max_speed) {
                        push(self.cone_region(&cone, agent), 0, Some(cone));
                    }
                }
                None => {
                    colliding_from = 0;
                    let nearest = crate::geom::closest_point_on_segment(Vec2::ZERO, a, b);
                    let dist = nearest.length();
                    let normal = if dist > 0.0 { nearest / dist } else { -v.unit_dir.perp() };
                    let touching = half_plane(normal * ((dist - agent.radius) / dt), normal, agent.max_speed);
                    push(touching, 0, None);
                }
            }
        }
        let mut discs = (statics.iter().map(|m| (m, static_tau, 0)))
            .chain(movers.iter().zip(1..).map(|(m, level)| (m, agents, level)))
            .map(|(other, tau, level)| {
                let p = other.position - agent.position;
                let radius = agent.radius + other.radius;
                let apex = self.apex(agent, other);
                let cone = Cone::of_disc(p, radius, apex, tau);
                // The outline only of a cone whose region is built.
                let outline = cone
                    .filter(|cone| !cone.beyond(agent.max_speed))
                    .map(|cone| cone.outline(agent.max_speed));
                Disc {
                    other,
                    level,
                    p,
                    radius,
                    apex,
                    cone,
                    outline,
                }
            });
        // The cones and outlines of a batch of discs first, then their regions: their chains of
        // square roots and divisions do not wait on the regions' stores, so the processor
        // overlaps those of several discs (the regions and their order are the same).
        let mut batch = [None; DISC_BATCH];
        loop {
            let mut taken = 0;
            for (slot, disc) in batch.iter_mut().zip(discs.by_ref()) {
                *slot = Some(disc);
                taken += 1;
            }
            for disc in batch[..taken].iter().flatten() {
                if self.disc_regions(agent, disc, dt, &mut push) {
                    colliding_from = colliding_from.min(disc.level);
                }
            }
            if taken < DISC_BATCH {
                break;
            }
        }
        colliding_from
    }

    /// Pushes the regions of `disc`: its cone's, and ClearPath-1's side half-plane for a
    /// reactive neighbour, or the overlap region when the agent overlaps it (then returns true).
    #[inline(always)]
    fn disc_regions(
        self,
        agent: &AvoidingAgent,
        disc: &Disc,
        dt: f32,
        push: &mut impl FnMut(Region, u32, Option<Cone>),
    ) -> bool {
        let (level, apex) = (disc.level, disc.apex);
        let Some(cone) = disc.cone else {
            push(collision_disc(disc.p, disc.radius, apex, dt), level, None);
            return true;
        };
        if let Some(outline) = disc.outline {
            push(self.outlined_region(&cone, outline, agent), level, Some(cone));
        }
        let other = disc.other;
        if self == ConeMethod::ClearPath(ClearPathVariant::Guaranteed) && other.reactive {
            let permitted = if disc.p.perp_dot(agent.velocity - other.velocity) > 0.0 {
                Side::Left
            } else {
                Side::Right
            };
            let normal = match permitted {
                Side::Left => -cone.axis.perp(),
                Side::Right => cone.axis.perp(),
            };
            push(half_plane(apex, normal, agent.max_speed), level, None);
        }
        false
    }

    /// Builds the regions of every neighbour into `nb.regions` (levels and cones in
    /// `nb.relax`).
    fn build_all(
        self,
        agent: &AvoidingAgent,
        nb: &mut Neighbourhood,
        obstacles: &AvoidObstacles,
        horizons: Horizons,
        dt: f32,
    ) -> u32 {
        let Neighbourhood {
            movers,
            static_circles,
            edges,
            regions,
            relax,
            ..
        } = nb;
        let out = (regions, &mut relax.levels, &mut relax.cones);
        self.build(agent, movers, static_circles, edges, obstacles, horizons, dt, out)
    }

    /// Divides the horizons of the cones among `nb.regions` by `factor`, a power of two, and
    /// rebuilds their regions; those that now lie wholly beyond max speed are left out. The
    /// other regions do not depend on the horizons and stay. Each cone's cut, (d − R)/τ, is
    /// multiplied by `factor`, which gives what a build with the horizons divided would give,
    /// to the bit (scaling by a power of two is exact).
    fn retruncate(self, agent: &AvoidingAgent, nb: &mut Neighbourhood, factor: f32) {
        let (regions, Relaxation { levels, cones, .. }) = (&mut nb.regions, &mut nb.relax);
        let mut kept = 0;
        for i in 0..regions.len() {
            if let Some(mut cone) = cones[i] {
                cone.cut *= factor;
                if cone.beyond(agent.max_speed) {
                    continue;
                }
                regions[kept] = self.cone_region(&cone, agent);
                cones[kept] = Some(cone);
            } else if kept < i {
                regions[kept] = regions[i];
                cones[kept] = None;
            }
            levels[kept] = levels[i];
            kept += 1;
        }
        regions.truncate(kept);
        levels.truncate(kept);
        cones.truncate(kept);
    }

    /// Starts ClearPath-1's gate (see [`Relaxation::gate`]): whether its regions that do not
    /// depend on ΔT permit a velocity at a count (otherwise no attempt at that count can
    /// succeed). Finds the largest count they permit; which lower counts they permit is found
    /// when asked ([`ConeMethod::largest_gated`], [`ConeMethod::complete_gate`]). Without an
    /// overlap (`colliding_from` = `u32::MAX`) and with the agent's own velocity clear of every
    /// side half-plane, every count is open and nothing is built.
    fn gate(agent: &AvoidingAgent, nb: &mut Neighbourhood, colliding_from: u32) {
        let count = nb.movers.len() as u32;
        let relax = &mut nb.relax;
        if colliding_from == u32::MAX && own_velocity_clear_of_sides(agent, &nb.movers) {
            relax.gate.clear();
            relax.gate.resize(count as usize + 1, true);
            relax.gate_complete = true;
            relax.gate_largest = Some(count);
            return;
        }
        // Otherwise from the fixed regions themselves: a relaxation pass over them.
        relax.keep_fixed(&nb.regions);
        relax.gate_complete = false;
        relax.gate_largest = Self::fixed(agent, relax, colliding_from, count + 1);
    }

    /// The largest count below `below` that ClearPath-1's fixed regions (built by
    /// [`ConeMethod::gate`]) permit, by a relaxation pass over them.
    fn fixed(agent: &AvoidingAgent, relax: &mut Relaxation, colliding_from: u32, below: u32) -> Option<u32> {
        let searched = searched(agent, (&relax.fixed, &relax.fixed_levels), colliding_from);
        searched.largest_open(below, |_| true, &mut relax.pass)
    }

    /// The largest count below `below` that ClearPath-1's fixed regions permit; 0 when none
    /// does.
    fn largest_gated(agent: &AvoidingAgent, relax: &mut Relaxation, colliding_from: u32, below: u32) -> u32 {
        let largest = match relax.gate_largest {
            _ if relax.gate_complete => (0..below).rev().find(|&k| relax.gate[k as usize]),
            Some(top) if top >= below => Self::fixed(agent, relax, colliding_from, below),
            top => top,
        };
        largest.unwrap_or(0)
    }

    /// Fills in ClearPath-1's gate for every count, unless it is complete.
    fn complete_gate(agent: &AvoidingAgent, nb: &mut Neighbourhood, colliding_from: u32) {
        let relax = &mut nb.relax;
        if relax.gate_complete {
            return;
        }
        relax.gate.resize(nb.movers.len() + 1, false);
        let searched = searched(agent, (&relax.fixed, &relax.fixed_levels), colliding_from);
        searched.open_counts(&mut relax.pass, &mut relax.gate);
        relax.gate_complete = true;
    }

    /// The largest count below `below` (ClearPath-1: that its fixed regions permit) at which
    /// the search over the regions in `nb.regions` present there succeeds.
    fn open_below(self, agent: &AvoidingAgent, nb: &mut Neighbourhood, colliding_from: u32, below: u32) -> Option<u32> {
        if self.halves() {
            Self::complete_gate(agent, nb, colliding_from);
        }
        let Relaxation { levels, gate, pass, .. } = &mut nb.relax;
        let gated = |k: u32| !self.halves() || gate[k as usize];
        searched(agent, (&nb.regions, levels), colliding_from).largest_open(below, gated, pass)
    }

    /// The boundary search among the regions present at neighbour count `k`, giving up after
    /// `patience` edges without a permitted piece; `debug`, cleared first, receives its regions
    /// and pieces.
    fn search(
        agent: &AvoidingAgent,
        nb: &mut Neighbourhood,
        (k, patience): (u32, usize),
        colliding_from: u32,
        debug: Option<&mut Vec<Constraint>>,
    ) -> Nearest {
        let preferred = if k >= colliding_from {
            Vec2::ZERO
        } else {
            agent.preferred
        };
        // The levels ascend (see `build`): the regions present at k come first, the static
        // ones (level 0) at their head.
        let levels = &nb.relax.levels;
        let regions = &nb.regions[..levels.partition_point(|&level| level <= k)];
        let statics = levels.partition_point(|&level| level == 0);
        let mut debug = debug;
        if let Some(d) = debug.as_deref_mut() {
            d.clear();
        }
        nearest_free(
            (regions, statics),
            agent.max_speed,
            (preferred, patience),
            &mut nb.boundary,
            debug,
        )
    }

    /// The new velocity of `agent` (the neighbourhood's region and boundary buffers are
    /// reused); `debug` receives the regions and boundary pieces of the attempt that produced it.
    ///
    /// The attempts follow the relaxation's order, but after the failure at the full count
    /// (ClearPath-1: with each halving, and at the next count its fixed regions permit) the
    /// counts where the search would fail are not searched: one pass over the regions tells
    /// which counts succeed (`relaxation`), and the search runs again at the largest of them.
    /// Without halvings, the search at the full count leaves that pass to decide it, too, once
    /// `PATIENCE` edges have given nothing.
    pub fn velocity(
        self,
        agent: &AvoidingAgent,
        nb: &mut Neighbourhood,
        obstacles: &AvoidObstacles,
        horizons: Horizons,
        dt: f32,
        debug: Option<&mut Vec<Constraint>>,
    ) -> Vec2 {
        let count = nb.movers.len() as u32;
        let recording = debug.is_some();
        let mut attempt = Vec::new();
        let colliding_from = self.build_all(agent, nb, obstacles, horizons, dt);
        // ClearPath-1 overlapping something: the regions that do not depend on ΔT mostly forbid
        // every velocity at the full count already, and then its search is skipped.
        let gated_first = self.halves() && colliding_from < u32::MAX;
        if gated_first {
            Self::gate(agent, nb, colliding_from);
        }
        // Counts below `below` remain to be tried.
        let mut below = count;
        let patience = if self.halves() { usize::MAX } else { PATIENCE };
        let mut found = if gated_first && nb.relax.gate_largest != Some(count) {
            None
        } else {
            let first = (count, patience);
            match Self::search(agent, nb, first, colliding_from, recording.then_some(&mut attempt)) {
                Nearest::Velocity(v) => Some(v),
                Nearest::Blocked => None,
                Nearest::GaveUp => {
                    below = count + 1;
                    None
                }
            }
        };
        if found.is_none() && self.halves() {
            if !gated_first {
                Self::gate(agent, nb, colliding_from);
            }
            if nb.relax.gate_largest == Some(count) {
                for _ in 0..MAX_HALVINGS {
                    if found.is_some() {
                        break;
                    }
                    self.retruncate(agent, nb, 2.0);
                    nb.boundary.same_half_planes();
                    let full = (count, usize::MAX);
                    found = Self::search(agent, nb, full, colliding_from, recording.then_some(&mut attempt)).velocity();
                }
            } else {
                // The full count is skipped, even with every halving; the lower ones are tried.
                self.retruncate(agent, nb, (1u32 << MAX_HALVINGS) as f32);
                below = count + 1;
            }
        }
        // Which counts fail is found in one pass (then they are skipped), except that
        // ClearPath-1 first tries the next count its fixed regions permit plainly: after the
        // halvings, that one mostly succeeds.
        let mut skipping = !self.halves();
        while found.is_none() && below > 0 {
            let k = if skipping {
                self.open_below(agent, nb, colliding_from, below).unwrap_or(0)
            } else {
                Self::largest_gated(agent, &mut nb.relax, colliding_from, below)
            };
            found = Self::search(
                agent,
                nb,
                (k, usize::MAX),
                colliding_from,
                recording.then_some(&mut attempt),
            )
            .velocity();
            below = k;
            skipping = true;
        }
        if let Some(out) = debug {
            out.append(&mut attempt);
        }
        found.unwrap_or(Vec2::ZERO)
    }

    fn halves(self) -> bool {
        self == ConeMethod::ClearPath(ClearPathVariant::Guaranteed)
    }
}

#[cfg(test)]
mod tests;
