//! ClearPath's boundary edges (BE) and the search for the permitted velocity nearest the
//! preferred one among the forbidden regions of the cone methods.
//!
//! Each candidate edge is cut into the pieces that bound permitted velocities and those that do
//! not ([`cut_edge`]). The search takes the candidate edges nearest the preferred velocity first
//! and stops as soon as the next edge lies farther away than the best velocity found, so in a
//! crowd only the few edges around the preferred velocity are cut at all. Edges outside the part
//! of the disc that the half-planes among the regions leave ([`HalfPlanes::free_box`]) are not
//! candidates at all, and each cut first tests the region that covered the edge cut before it.

use glam::Vec2;

use super::edge_cut::{Blocked, cut_edge, for_each_piece, ranges};
use super::half_planes::HalfPlanes;
use super::region::Region;
use super::region_boxes::RegionBoxes;
use crate::record::Constraint;

/// A piece of a candidate edge; `outer` when it bounds permitted velocities.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundaryPiece {
    /// Start.
    pub a: Vec2,
    /// End.
    pub b: Vec2,
    /// True when its points are in no other region and within max speed.
    pub outer: bool,
}

/// Reused buffers of [`nearest_free`].
#[derive(Clone, Debug, Default)]
pub struct BoundaryScratch {
    /// Candidate edges, nearest the preferred velocity first: the squared distance's bits
    /// (which order as the non-negative distances do) above the region and edge numbers.
    edges: Vec<u64>,
    /// Parameter intervals where the edge being cut is not permitted, by start.
    blocked: Vec<Blocked>,
    /// The half-planes among the regions searched.
    half_planes: HalfPlanes,
    /// The boxes of the regions searched.
    boxes: RegionBoxes,
    /// The free box of the last search's half-planes (`None` inside: they cover the disc), when
    /// that search derived it.
    free: Option<Option<(Vec2, Vec2)>>,
    /// True when the next search keeps the last one's half-planes (see
    /// [`BoundaryScratch::same_half_planes`]).
    reuse: bool,
}

impl BoundaryScratch {
    /// Tells the next search that its half-plane regions are the last search's, in the same
    /// order and for the same max speed (only the other regions, or where the half-planes lie
    /// among them, have changed), so that it takes their lines and free box as they are instead
    /// of deriving them again: ClearPath-1's ΔT halvings change only the cones. Without a last
    /// search that derived them, nothing is kept.
    pub fn same_half_planes(&mut self) {
        self.reuse = self.free.is_some();
    }
}

/// Cuts every candidate edge of `regions` and classifies the pieces (for display).
pub fn classify_boundary(regions: &[Region], max_speed: f32) -> Vec<BoundaryPiece> {
    let mut pieces = Vec::new();
    let mut blocked = Vec::new();
    let mut boxes = RegionBoxes::default();
    boxes.fill(regions);
    let mut hint = usize::MAX;
    for (r, region) in regions.iter().enumerate() {
        for i in region.candidate_edges() {
            let (p, end) = region.edge(i);
            let d = end - p;
            if !cut_edge(
                (regions, &boxes, None),
                r,
                (p, d),
                max_speed,
                (0.0, 1.0),
                (&mut blocked, &mut hint),
                |_| true,
            ) {
                pieces.push(BoundaryPiece {
                    a: p,
                    b: end,
                    outer: false,
                });
                continue;
            }
            for_each_piece(ranges(&blocked), (0.0, 1.0), |t0, t1, outer| {
                pieces.push(BoundaryPiece {
                    a: p + d * t0,
                    b: p + d * t1,
                    outer,
                })
            });
        }
    }
    pieces
}

/// What [`nearest_free`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Nearest {
    /// The permitted velocity nearest the preferred one.
    Velocity(Vec2),
    /// No velocity within max speed is permitted.
    Blocked,
    /// The first `patience` candidate edges gave no permitted piece, and the search stopped
    /// undecided.
    GaveUp,
}

impl Nearest {
    /// The velocity found, if any (`GaveUp` found none).
    pub fn velocity(self) -> Option<Vec2> {
        match self {
            Nearest::Velocity(v) => Some(v),
            Nearest::Blocked | Nearest::GaveUp => None,
        }
    }
}

/// The permitted velocity nearest `preferred` (clamped to the max-speed disc): `preferred` itself
/// when no region contains it, else the nearest point of an outer boundary piece; ties go to the
/// earlier edge of the earlier region, the first `statics` regions (those of static obstacles)
/// counting as after the others; [`Nearest::Blocked`] when no velocity within max speed is
/// permitted. When `patience` candidate edges in a row, nearest first, give no permitted piece,
/// the search gives up ([`Nearest::GaveUp`]; `usize::MAX` never does): a search that finds
/// nothing so far mostly finds nothing at all, and proving it costs a cut of every edge.
/// `scratch` is reused between calls; `debug` receives the regions and the pieces.
pub fn nearest_free(
    (regions, statics): (&[Region], usize),
    max_speed: f32,
    (preferred, patience): (Vec2, usize),
    scratch: &mut BoundaryScratch,
    debug: Option<&mut Vec<Constraint>>,
) -> Nearest {
    let preferred = crate::geom::truncate(preferred, max_speed);
    if let Some(out) = debug {
        out.extend(regions.iter().map(|r| Constraint::Region {
            vertices: r.vertices().to_vec(),
        }));
        out.extend(classify_boundary(regions, max_speed).iter().map(|p| Constraint::Edge {
            a: p.a,
            b: p.b,
            outer: p.outer,
        }));
    }
    // What the last search derived is kept only when this one is told to keep it.
    if !std::mem::take(&mut scratch.reuse) {
        scratch.free = None;
    }
    if !regions.iter().any(|r| r.contains(preferred)) {
        return Nearest::Velocity(preferred);
    }
    let BoundaryScratch {
        edges,
        blocked,
        half_planes,
        boxes,
        free,
        ..
    } = scratch;
    boxes.fill(regions);
    edges.clear();
    // A region's rank in the order of ties: the static ones after the others.
    let movers = regions.len() - statics;
    let rank = |r: usize| if r < statics { r + movers } else { r - statics };
    let unrank = |k: usize| if k < movers { k + statics } else { k - movers };
    let free_box = match *free {
        Some(kept) => {
            half_planes.renumber(regions);
            kept
        }
        None => {
            half_planes.clear();
            for (r, region) in regions.iter().enumerate() {
                half_planes.take(r, region);
            }
            let derived = half_planes.free_box(max_speed);
            half_planes.seal();
            *free = Some(derived);
            derived
        }
    };
    // Only edges that meet the part of the max-speed disc the half-planes leave can carry a
    // permitted velocity (with ClearPath-1's side half-planes, most edges lie wholly in them).
    let Some((low, high)) = free_box else {
        return Nearest::Blocked;
    };
    for (r, region) in regions.iter().enumerate() {
        if region.box_misses(low, high) {
            continue;
        }
        for i in region.candidate_edges() {
            let (a, b) = region.edge(i);
            if a.max(b).cmplt(low).any() || a.min(b).cmpgt(high).any() {
                continue;
            }
            let near = crate::geom::closest_point_on_segment(preferred, a, b);
            let bound = near.distance_squared(preferred);
            // A degenerate (NaN) edge bounds nothing.
            if !bound.is_nan() {
                edges.push((bound.to_bits() as u64) << 32 | (rank(r) as u64) << 8 | i as u64);
            }
        }
    }
    edges.sort_unstable();
    let sides = half_planes.any().then_some(&*half_planes);
    let mut best: Option<(f32, Vec2)> = None;
    let mut hint = usize::MAX;
    for (tried, &key) in edges.iter().enumerate() {
        if best.is_none() && tried == patience {
            return Nearest::GaveUp;
        }
        let (bound, r, i) = (
            f32::from_bits((key >> 32) as u32),
            unrank((key >> 8) as usize & 0xff_ffff),
            key as u32 & 0xff,
        );
        // Only a strictly nearer velocity replaces the best, so an edge no nearer cannot.
        if best.is_some_and(|(dist, _)| bound >= dist) {
            break;
        }
        let (p, end) = regions[r].edge(i as usize);
        let d = end - p;
        let len_sq = d.length_squared();
        let along = if len_sq > 0.0 {
            (preferred - p).dot(d) / len_sq
        } else {
            0.0
        };
        // Only the part of the edge nearer than the best so far can improve on it.
        let window = match best {
            Some((dist, _)) if len_sq > 0.0 => {
                let off_line = (p + d * along).distance_squared(preferred);
                let half = ((dist - off_line).max(0.0) / len_sq).sqrt();
                ((along - half).max(0.0), (along + half).min(1.0))
            }
            _ => (0.0, 1.0),
        };
        if window.0 > window.1
            || !cut_edge(
                (regions, boxes, sides),
                r,
                (p, d),
                max_speed,
                window,
                (blocked, &mut hint),
                |_| true,
            )
        {
            continue;
        }
        let mut nearest: Option<f32> = None;
        for_each_piece(ranges(blocked), window, |t0, t1, outer| {
            let t = along.clamp(t0, t1);
            if outer && nearest.is_none_or(|n| (t - along).abs() < (n - along).abs()) {
                nearest = Some(t);
            }
        });
        if let Some(t) = nearest {
            let v = p + d * t;
            let dist = v.distance_squared(preferred);
            if best.is_none_or(|(b, _)| dist < b) {
                best = Some((dist, v));
            }
        }
    }
    best.map_or(Nearest::Blocked, |(_, v)| Nearest::Velocity(v))
}

#[cfg(test)]
mod tests;
