//! ClearPath's boundary edges (BE) and the search for the permitted velocity nearest the
//! preferred one among the forbidden regions of the cone methods.
//!
//! A candidate edge is cut wherever it enters another region or leaves the max-speed disc;
//! since every region is convex, the part of the edge inside one region is a single parameter
//! interval, found from the region's edges alone ([`Region::inside_interval`]). What remains
//! of the edge is outer: its points bound permitted velocities (ClearPath's steps 3–6).
//!
//! The search takes the candidate edges nearest the preferred velocity first and stops as soon
//! as the next edge lies farther away than the best velocity found, so in a crowd only the few
//! edges around the preferred velocity are cut at all. Edges outside the part of the disc that
//! the half-planes among the regions leave ([`HalfPlanes::free_box`]) are not candidates at all,
//! and each cut first tests the region that covered the edge cut before it.

use glam::Vec2;

use super::half_planes::HalfPlanes;
use super::region::Region;
use super::region_boxes::{BLOCK, RegionBoxes};
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
}

/// What [`cut_edge`] records of an interval where a candidate edge is not permitted: its
/// parameter range and the region inside which it lies ([`BEYOND_MAX_SPEED`] for the disc).
pub type Blocked = (f32, f32, u32);

/// The "region" of the intervals beyond max speed.
pub(super) const BEYOND_MAX_SPEED: u32 = u32::MAX;

/// The "region" of the intervals that the half-planes cover together (see [`cut_edge`]).
pub(super) const HALF_PLANES: u32 = u32::MAX - 1;

/// Fills `blocked` with the open parameter intervals, by start and clamped to `window` (a part
/// of [0, 1]), where the point `p + t·d` of a candidate edge of region `r` is not permitted:
/// beyond `max_speed` or inside another region. Returns false, leaving `blocked` incomplete,
/// as soon as one interval covers the whole window, or the intervals found so far cover the
/// window's part within the max-speed disc from its ends inward, of regions for which
/// `ends(region)` says they end the cut; intervals wholly within the part so covered may be
/// left out (they cannot change which pieces are permitted)
/// (always, in a plain search; only for regions present at every neighbour count when the
/// N − 1 relaxation asks which counts leave the edge a permitted piece). `boxes` holds the boxes
/// of `regions` (or of a longer list they begin): a region is tested only when its box meets the
/// box of the part still uncovered. With `sides` (which
/// then holds every half-plane among `regions`), the half-planes are met through it, at once,
/// their intervals labelled [`HALF_PLANES`] (for a plain search: the labels only matter to the
/// relaxation). `hint` names a region to test before the others (`usize::MAX`: none): the
/// cut sets it to the region that covered the window, for the next cut of the same search. The
/// order of the tests changes neither the answer nor the permitted pieces.
pub(super) fn cut_edge(
    (regions, boxes, sides): (&[Region], &RegionBoxes, Option<&HalfPlanes>),
    r: usize,
    edge: (Vec2, Vec2),
    max_speed: f32,
    window: (f32, f32),
    (blocked, hint): (&mut Vec<Blocked>, &mut usize),
    ends: impl Fn(u32) -> bool,
) -> bool {
    // Two copies, so that a cut without half-planes tests no region for being one.
    match sides {
        Some(sides) => cut::<true>(
            (regions, boxes, sides),
            r,
            edge,
            max_speed,
            window,
            (blocked, hint),
            ends,
        ),
        None => cut::<false>(
            (regions, boxes, &HalfPlanes::NONE),
            r,
            edge,
            max_speed,
            window,
            (blocked, hint),
            ends,
        ),
    }
}

/// [`cut_edge`], with the half-planes met through `sides` when `SIDES` (else `sides` is not
/// read).
#[inline(always)]
fn cut<const SIDES: bool>(
    (regions, boxes, sides): (&[Region], &RegionBoxes, &HalfPlanes),
    r: usize,
    (p, d): (Vec2, Vec2),
    max_speed: f32,
    (w0, w1): (f32, f32),
    (blocked, hint): (&mut Vec<Blocked>, &mut usize),
    ends: impl Fn(u32) -> bool,
) -> bool {
    blocked.clear();
    let mut block = |lo: f32, hi: f32, region: u32| {
        if lo < w1 && hi > w0 {
            // `+ 0.0` turns a start of −0 into +0.
            blocked.push((lo.max(w0) + 0.0, hi.min(w1), region));
        }
        !(lo <= w0 && hi >= w1 && ends(region))
    };
    let a = d.length_squared();
    let b = p.dot(d);
    let c = p.length_squared() - max_speed * max_speed;
    let discriminant = b * b - a * c;
    // Within the max-speed disc for t in [t0, t1].
    let (t0, t1) = if a > 0.0 && discriminant > 0.0 {
        let root = discriminant.sqrt();
        ((-b - root) / a, (-b + root) / a)
    } else if a > 0.0 || c > 0.0 {
        (f32::INFINITY, f32::NEG_INFINITY)
    } else {
        (f32::NEG_INFINITY, f32::INFINITY)
    };
    if !block(f32::NEG_INFINITY, t0, BEYOND_MAX_SPEED) || !block(t1, f32::INFINITY, BEYOND_MAX_SPEED) {
        return false;
    }
    // Other regions matter only where the window lies within the disc.
    let inner = (w0.max(t0), w1.min(t1));
    // The part within the disc not yet known to be covered, shrunk from either end by the
    // intervals (of regions that end the cut) reaching it: once empty, the window is covered,
    // the rest of it lying beyond max speed. Regions that miss this part are not tested: in the
    // covered part they cannot open a gap.
    let (mut from, mut to) = inner;
    let d_len = d.length();
    let part_box = |from: f32, to: f32| {
        let (a, b) = (p + d * from, p + d * to);
        (a.min(b), a.max(b))
    };
    let (mut low, mut high) = part_box(from, to);
    if SIDES {
        // The rays meeting the part, as each half-plane's own interval would.
        let (before, after, all) = sides.rays(p, d, d_len, regions[r].is_half_plane().then_some(r));
        let (start, end) = (f32::NEG_INFINITY, f32::INFINITY);
        for ray in 0..3 {
            let (lo, hi, meets) = match ray {
                0 => (start, end, all),
                1 => (start, before, before > from),
                _ => (after, end, after < to),
            };
            if meets {
                blocked.push((lo.max(w0) + 0.0, hi.min(w1), HALF_PLANES));
                if ends(HALF_PLANES) && narrow((&mut from, &mut to), (lo, hi)) {
                    return false;
                }
            }
        }
        (low, high) = part_box(from, to);
    }
    let count = regions.len();
    let mut part = Part { from, to, low, high };
    let mut meet = |s: usize, part: &mut Part| -> Option<bool> {
        let (lo, hi) = regions[s].inside_interval(p, d, d_len, (part.from, part.to));
        if lo >= hi {
            return None;
        }
        // Within (from, to), so within the window; covering it is found below.
        blocked.push((lo.max(w0) + 0.0, hi.min(w1), s as u32));
        if !(ends(s as u32) && (lo <= part.from || hi >= part.to)) {
            return None;
        }
        if narrow((&mut part.from, &mut part.to), (lo, hi)) {
            return Some(true);
        }
        (part.low, part.high) = part_box(part.from, part.to);
        Some(false)
    };
    // The region that ended the previous cut is tried first: along the edges of one search the
    // same region mostly covers the next one too, and the cut then ends after one test.
    let first = (*hint < count && *hint != r && !(SIDES && regions[*hint].is_half_plane())).then_some(*hint);
    if let Some(h) = first
        && !regions[h].box_misses(part.low, part.high)
        && meet(h, &mut part) == Some(true)
    {
        return false;
    }
    for block in 0..count.div_ceil(BLOCK) {
        // The regions whose boxes meet the part's, as it is now; once it has shrunk, each is
        // tested again against the smaller box.
        let mut meeting = boxes.meeting(block, count, (part.low, part.high), SIDES);
        if r / BLOCK == block {
            meeting &= !(1 << (r % BLOCK));
        }
        if let Some(h) = first
            && h / BLOCK == block
        {
            meeting &= !(1 << (h % BLOCK));
        }
        let mut shrunk = false;
        while meeting != 0 {
            let s = block * BLOCK + meeting.trailing_zeros() as usize;
            meeting &= meeting - 1;
            if shrunk && regions[s].box_misses(part.low, part.high) {
                continue;
            }
            match meet(s, &mut part) {
                Some(true) => {
                    *hint = s;
                    return false;
                }
                Some(false) => shrunk = true,
                None => {}
            }
        }
    }
    // Starts clamped to the window are not negative, so their bits order as they do.
    blocked.sort_unstable_by_key(|x| x.0.to_bits());
    true
}

/// The part of a cut's window within the max-speed disc not yet known to be covered, and its
/// box (corners with the smaller and the larger coordinates).
struct Part {
    from: f32,
    to: f32,
    low: Vec2,
    high: Vec2,
}

/// Shrinks the part (`from`, `to`) of a cut not yet known to be covered by an interval
/// (`lo`, `hi`) that covers it from one end or both; true once nothing is left.
#[inline(always)]
fn narrow((from, to): (&mut f32, &mut f32), (lo, hi): (f32, f32)) -> bool {
    if lo <= *from {
        *from = from.max(hi);
    }
    if hi >= *to {
        *to = to.min(lo);
    }
    *from >= *to
}

/// Calls `piece(t0, t1, outer)` for the pieces of `window` that `blocked` (intervals by start)
/// leaves permitted (`outer`) or covers, in order; pieces no longer than `f32::EPSILON` are
/// skipped.
pub(super) fn for_each_piece(
    blocked: impl IntoIterator<Item = (f32, f32)>,
    (w0, w1): (f32, f32),
    mut piece: impl FnMut(f32, f32, bool),
) {
    let mut at = w0;
    for (lo, hi) in blocked {
        let (lo, hi) = (lo.clamp(at, w1), hi.clamp(at, w1));
        if lo - at > f32::EPSILON {
            piece(at, lo, true);
        }
        if hi - lo > f32::EPSILON {
            piece(lo, hi, false);
        }
        at = at.max(hi);
    }
    if w1 - at > f32::EPSILON {
        piece(at, w1, true);
    }
}

/// The `(lo, hi)` ranges of `blocked`.
pub(super) fn ranges(blocked: &[Blocked]) -> impl Iterator<Item = (f32, f32)> + '_ {
    blocked.iter().map(|&(lo, hi, _)| (lo, hi))
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
    if !regions.iter().any(|r| r.contains(preferred)) {
        return Nearest::Velocity(preferred);
    }
    let BoundaryScratch {
        edges,
        blocked,
        half_planes,
        boxes,
    } = scratch;
    half_planes.clear();
    boxes.fill(regions);
    edges.clear();
    // A region's rank in the order of ties: the static ones after the others.
    let movers = regions.len() - statics;
    let rank = |r: usize| if r < statics { r + movers } else { r - statics };
    let unrank = |k: usize| if k < movers { k + statics } else { k - movers };
    for (r, region) in regions.iter().enumerate() {
        half_planes.take(r, region);
    }
    // Only edges that meet the part of the max-speed disc the half-planes leave can carry a
    // permitted velocity (with ClearPath-1's side half-planes, most edges lie wholly in them).
    let Some((low, high)) = half_planes.free_box(max_speed) else {
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
    let sides = half_planes.seal().then_some(&*half_planes);
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
