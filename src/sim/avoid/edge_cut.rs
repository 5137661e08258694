//! Cutting one candidate edge of a cone method's forbidden region (ClearPath's boundary edges)
//! into the pieces that bound permitted velocities and those that do not.
//!
//! The edge is cut wherever it enters another region or leaves the max-speed disc; since every
//! region is convex, the part of the edge inside one region is a single parameter interval,
//! found from the region's edges alone ([`Region::inside_interval`]). What remains of the edge
//! is outer: its points bound permitted velocities (ClearPath's steps 3–6). Regions whose boxes
//! miss the part of the edge not yet known to be covered are not tested, the half-planes among
//! the regions are met together ([`HalfPlanes::rays`]), and the region that covered the edge
//! cut before is tested first.

use glam::Vec2;

use super::half_planes::HalfPlanes;
use super::region::Region;
use super::region_boxes::{BLOCK, RegionBoxes};

/// What [`cut_edge`] records of an interval where a candidate edge is not permitted: its
/// parameter range and the region inside which it lies ([`BEYOND_MAX_SPEED`] for the disc).
pub type Blocked = (f32, f32, u32);

/// The "region" of the intervals beyond max speed.
pub(super) const BEYOND_MAX_SPEED: u32 = u32::MAX;

/// The "region" of the intervals that the half-planes cover together (see [`cut_edge`]).
const HALF_PLANES: u32 = u32::MAX - 1;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::avoid::cone::half_plane;
    use crate::sim::avoid::region::square;

    #[test]
    fn the_region_tried_first_changes_no_permitted_piece() {
        // Pseudo-random squares, triangles and half-planes: every candidate edge, cut with each
        // region (and none) tried first, with and without the half-planes met together, gives
        // the same permitted pieces (none when the cut finds the edge covered: whether it finds
        // that before the last region may depend on the order).
        const MAX_SPEED: f32 = 2.0;
        let mut next = crate::test_rng::unit_floats(909);
        let (mut blocked, mut boxes, mut sides) = (Vec::new(), RegionBoxes::default(), HalfPlanes::default());
        let (mut covered, mut cut_into_pieces) = (0, 0);
        for case in 0..200 {
            let mut regions: Vec<Region> = (0..2 + case % 7)
                .map(|_| {
                    let s = square((next() * 3.0 - 2.0, next() * 3.0 - 2.0), 0.4 + next() * 2.0);
                    let v = s.vertices();
                    if next() < 0.5 {
                        s
                    } else {
                        Region::polygon([v[0], v[1], v[2]])
                    }
                })
                .collect();
            for _ in 0..case % 3 {
                let point = Vec2::new(next() * 2.0 - 1.0, next() * 2.0 - 1.0);
                regions.push(half_plane(point, Vec2::from_angle(next() * 6.3), MAX_SPEED));
            }
            boxes.fill(&regions);
            sides.clear();
            for (r, region) in regions.iter().enumerate() {
                sides.take(r, region);
            }
            sides.seal();
            let together = sides.any().then_some(&sides);
            for (r, region) in regions.iter().enumerate() {
                for i in region.candidate_edges() {
                    let (p, end) = region.edge(i);
                    let mut pieces_with = |hint: usize, sides: Option<&HalfPlanes>| {
                        let mut hint = hint;
                        let edge = (p, end - p);
                        let window = (0.0, 1.0);
                        let open = cut_edge(
                            (&regions, &boxes, sides),
                            r,
                            edge,
                            MAX_SPEED,
                            window,
                            (&mut blocked, &mut hint),
                            |_| true,
                        );
                        let mut outer = Vec::new();
                        if open {
                            for_each_piece(ranges(&blocked), window, |t0, t1, permitted| {
                                if permitted {
                                    outer.push((t0, t1));
                                }
                            });
                        }
                        outer
                    };
                    for sides in [None, together] {
                        let plain = pieces_with(usize::MAX, sides);
                        for hint in 0..regions.len() {
                            assert_eq!(
                                pieces_with(hint, sides),
                                plain,
                                "case {case}, edge {r}.{i}, hint {hint}"
                            );
                        }
                        covered += plain.is_empty() as u32;
                        cut_into_pieces += (plain.len() > 1) as u32;
                    }
                }
            }
        }
        assert!(
            covered > 100 && cut_into_pieces > 50,
            "{covered} covered, {cut_into_pieces} cut into pieces"
        );
    }
}
