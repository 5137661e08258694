//! The static knowledge every mind shares: the planning map, Stria's regions, portals and gates
//! with the routing table, the exits and hazards — built once per world from the scene.

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use crate::scene::{GATE_SPAN, GateDirection, PlannerKind, Scene};
use crate::sim::nav::{NavMap, RoutingTable, SearchScratch};

/// An axis-aligned rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
}

impl Rect {
    /// True when `p` lies inside or on the edge.
    pub fn contains(&self, p: Vec2) -> bool {
        p.cmpge(self.min).all() && p.cmple(self.max).all()
    }

    /// Centre point.
    pub fn center(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }
}

/// A portal resolved to region indices.
#[derive(Clone, Debug)]
pub struct PortalSpan {
    /// The two regions it joins.
    pub regions: (usize, usize),
    /// Segment ends.
    pub from: Vec2,
    /// Segment ends.
    pub to: Vec2,
}

/// A gate resolved against the world.
#[derive(Clone, Debug)]
pub struct GateSpan {
    /// Segment ends.
    pub from: Vec2,
    /// Segment ends.
    pub to: Vec2,
    /// Entry, exit or both.
    pub direction: GateDirection,
}

/// An exit (safe zone) agents can escape to.
#[derive(Clone, Copy, Debug)]
pub struct Exit {
    /// Position in metres.
    pub position: Vec2,
    /// Reached within this distance.
    pub radius: f32,
}

/// Everything static a mind may consult.
pub struct WorldMap {
    /// The planning map (absent when the scene needs none: no planner, types, regions or gates).
    pub map: Option<NavMap>,
    /// Regions (one covering the bounds when the scene defines none).
    pub regions: Vec<Rect>,
    /// Portals between regions.
    pub portals: Vec<PortalSpan>,
    /// Gates on the world's edge.
    pub gates: Vec<GateSpan>,
    /// M(P, C) over the regions.
    pub routing: RoutingTable,
    /// Evacuation exits, in the order of `Scene::evacuation.exits`.
    pub exits: Vec<Exit>,
    /// Re-plan stagger in ticks.
    pub replan_stagger: u32,
    bounds: Rect,
}

/// Points generated on portals and gates are this far inside the region (metres).
pub const PORTAL_DEPTH: f32 = 1.0;

impl WorldMap {
    /// Builds the shared map of a valid scene.
    pub fn new(scene: &Scene) -> WorldMap {
        let nav = &scene.navigation;
        let needs_map = nav.planner != PlannerKind::Straight
            || !scene.agent_types.is_empty()
            || !scene.regions.is_empty()
            || !scene.gates.is_empty();
        let border = nav
            .border
            .unwrap_or_else(|| scene.profiles.iter().map(|p| p.radius).fold(0.0, f32::max));
        let map = needs_map.then(|| NavMap::new(scene.bounds, &scene.obstacles, nav.cell_size, border, nav.planner));
        let bounds = Rect {
            min: scene.bounds.min,
            max: scene.bounds.max,
        };
        let regions: Vec<Rect> = if scene.regions.is_empty() {
            vec![bounds]
        } else {
            scene.regions.iter().map(|r| Rect { min: r.min, max: r.max }).collect()
        };
        let region_index = |id: &str| scene.regions.iter().position(|r| r.id == id).unwrap_or(0);
        let portals: Vec<PortalSpan> = scene
            .portals
            .iter()
            .map(|p| PortalSpan {
                regions: (region_index(&p.regions.0), region_index(&p.regions.1)),
                from: p.from,
                to: p.to,
            })
            .collect();
        let edges: Vec<(usize, usize)> = portals.iter().map(|p| p.regions).collect();
        let exits = scene
            .evacuation
            .exits
            .iter()
            .filter_map(|id| scene.target(id))
            .map(|t| Exit {
                position: t.position,
                radius: t.radius,
            })
            .collect();
        WorldMap {
            map,
            routing: RoutingTable::new(regions.len(), &edges),
            regions,
            portals,
            gates: scene
                .gates
                .iter()
                .map(|g| GateSpan {
                    from: g.from,
                    to: g.to,
                    direction: g.direction,
                })
                .collect(),
            exits,
            replan_stagger: nav.replan_stagger.max(1),
            bounds,
        }
    }

    /// The region containing `p` (the nearest region's index when `p` is outside all).
    pub fn region_at(&self, p: Vec2) -> usize {
        self.regions.iter().position(|r| r.contains(p)).unwrap_or_else(|| {
            let distance = |r: &Rect| (p.clamp(r.min, r.max) - p).length_squared();
            (0..self.regions.len())
                .min_by(|&a, &b| distance(&self.regions[a]).total_cmp(&distance(&self.regions[b])))
                .unwrap_or(0)
        })
    }

    /// True when an agent can walk straight from `a` to `b` (always, without a map).
    pub fn clear_line(&self, a: Vec2, b: Vec2) -> bool {
        self.map.as_ref().is_none_or(|m| m.clear_line(a, b))
    }

    /// True when `p` is inside the bounds and in a walkable cell.
    pub fn walkable(&self, p: Vec2) -> bool {
        self.bounds.contains(p) && self.map.as_ref().is_none_or(|m| m.walkable(p))
    }

    /// A path from `from` to `to` (waypoints after `from`, ending on `to`).
    pub fn plan(&self, scratch: &mut SearchScratch, from: Vec2, to: Vec2) -> Option<Vec<Vec2>> {
        match &self.map {
            Some(m) => m.plan(scratch, from, to),
            None => Some(vec![to]),
        }
    }

    /// A random walkable point of `region` (its centre after 30 failed draws).
    pub fn random_point_in(&self, region: usize, rng: &mut Pcg32) -> Vec2 {
        let r = self.regions[region];
        (0..30)
            .map(|_| Vec2::new(rng.random_range(r.min.x..=r.max.x), rng.random_range(r.min.y..=r.max.y)))
            .find(|&p| self.walkable(p))
            .unwrap_or(r.center())
    }

    /// The point at fraction `t` of segment `from`–`to`, moved `depth` metres toward `inside`.
    fn beside(from: Vec2, to: Vec2, inside: Vec2, depth: f32, t: f32) -> Vec2 {
        let along = to - from;
        let mut normal = along.perp().normalize_or_zero();
        if normal.dot(inside - from) < 0.0 {
            normal = -normal;
        }
        from + along * t + normal * depth
    }

    /// A point of segment `from`–`to` moved `depth` metres toward `inside`, avoiding non-walkable
    /// cells where possible (Stria's trimming of portal and gate areas).
    pub fn point_beside(&self, from: Vec2, to: Vec2, inside: Vec2, depth: f32, rng: &mut Pcg32) -> Vec2 {
        let (lo, hi) = GATE_SPAN;
        let at = |t: f32| Self::beside(from, to, inside, depth, t);
        (0..12)
            .map(|_| at(rng.random_range(lo..=hi)))
            .find(|&p| self.walkable(p))
            .unwrap_or(at(0.5))
    }

    /// The portal point inside region `side` for crossing `portal`.
    pub fn portal_point(&self, portal: usize, side: usize, rng: &mut Pcg32) -> Vec2 {
        let p = &self.portals[portal];
        self.point_beside(p.from, p.to, self.regions[side].center(), PORTAL_DEPTH, rng)
    }

    /// A point just inside the world at gate `gate`, `depth` metres from the edge.
    pub fn gate_point(&self, gate: usize, depth: f32, rng: &mut Pcg32) -> Vec2 {
        let g = &self.gates[gate];
        self.point_beside(g.from, g.to, self.bounds.center(), depth, rng)
    }

    /// The point at fraction `t` of gate `gate`, `depth` metres inside the world (a slot of
    /// simultaneous arrivals, see `scene::gate_slot`).
    pub fn gate_slot_point(&self, gate: usize, depth: f32, t: f32) -> Vec2 {
        let g = &self.gates[gate];
        Self::beside(g.from, g.to, self.bounds.center(), depth, t)
    }

    /// Indices of the portals joining regions `a` and `b`.
    pub fn portals_between(&self, a: usize, b: usize) -> impl Iterator<Item = usize> + '_ {
        self.portals
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.regions == (a, b) || p.regions == (b, a))
            .map(|(i, _)| i)
    }
}
