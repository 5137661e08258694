//! ClearPath's N − 1 relaxation in one pass: for every neighbour count k, whether the boundary
//! search ([`nearest_free`](super::boundary::nearest_free)) over the regions present at k would
//! find a permitted velocity, without running one search per count.
//!
//! A region's *level* is the smallest count at which it is present: mover i's regions have
//! level i + 1, those of static circles and obstacle edges level 0 (always present). The search
//! at count k succeeds when its preferred velocity lies in no present region, or when some
//! candidate edge of a present region keeps a permitted piece: a gap longer than
//! `f32::EPSILON` between the intervals where the speed limit or other present regions block
//! it. Dropping regions only widens gaps, so an edge of a region of level L is open from count
//! L up to the last count whose blocking intervals still leave a gap; one cut of the edge, each
//! interval labelled with its region, gives that range. When only the largest such count is
//! wanted ([`Searched::largest_open`]), edges that cannot open a larger count than one found are not cut.

use glam::Vec2;

use super::cone::Cone;
use super::edge_cut::{BEYOND_MAX_SPEED, Blocked, cut_edge, for_each_piece};
use super::region::Region;
use super::region_boxes::RegionBoxes;

/// The regions of a cone method at every neighbour count, and the buffers of the relaxation.
#[derive(Clone, Debug, Default)]
pub struct Relaxation {
    /// Per region of the full set: its level.
    pub levels: Vec<u32>,
    /// Per region of the full set: the cone it was built from, if any (the regions without one
    /// do not depend on ΔT).
    pub cones: Vec<Option<Cone>>,
    /// ClearPath-1's regions that do not depend on ΔT, and their levels.
    pub fixed: Vec<Region>,
    /// Levels of `fixed`.
    pub fixed_levels: Vec<u32>,
    /// ClearPath-1's gate, per count: whether its fixed regions permit a velocity there (then
    /// the count may be searched at all), once `gate_complete`.
    pub gate: Vec<bool>,
    /// Whether `gate` holds every count; until it does, only `gate_largest` is known.
    pub gate_complete: bool,
    /// The largest count the fixed regions permit (`None`: none).
    pub gate_largest: Option<u32>,
    /// Buffers of the pass over the regions.
    pub pass: PassScratch,
}

impl Relaxation {
    /// Copies the regions among `regions` (the full set) that were not built from a cone, with
    /// their levels, into `fixed`.
    pub fn keep_fixed(&mut self, regions: &[Region]) {
        self.fixed.clear();
        self.fixed_levels.clear();
        for ((region, &level), cone) in regions.iter().zip(&self.levels).zip(&self.cones) {
            if cone.is_none() {
                self.fixed.push(*region);
                self.fixed_levels.push(level);
            }
        }
    }
}

/// Reused buffers of [`Searched::open_counts`] and [`Searched::largest_open`].
#[derive(Clone, Debug, Default)]
pub struct PassScratch {
    /// An edge's blocked intervals.
    blocked: Vec<Blocked>,
    /// The levels at which an edge's gaps may close.
    steps: Vec<u32>,
    /// The boxes of the regions.
    boxes: RegionBoxes,
}

/// The regions of a boundary search at every neighbour count: those whose `levels` are at
/// most k are present at count k; the search looks for a velocity within `max_speed`, nearest
/// `preferred` below count `colliding_from` and nearest zero from there on (the overlap
/// recovery).
pub struct Searched<'a> {
    /// Every region.
    pub regions: &'a [Region],
    /// From which count each region is present.
    pub levels: &'a [u32],
    /// The speed limit.
    pub max_speed: f32,
    /// The velocity preferred below `colliding_from`.
    pub preferred: Vec2,
    /// The first count at which the agent already overlaps someone.
    pub colliding_from: u32,
}

impl Searched<'_> {
    /// Sets `open[k]`, for every count k below `open.len()`, to whether the search at count k
    /// finds a velocity.
    pub fn open_counts(&self, scratch: &mut PassScratch, open: &mut [bool]) {
        open.fill(false);
        let last = open.len() as u32 - 1;
        self.open_ranges(last, scratch, |from, to| {
            open[from as usize..=to as usize].fill(true);
            // The counts below the first one not known to be open are settled.
            open.iter().position(|&o| !o).map_or(last + 1, |k| k as u32)
        });
    }

    /// The largest count below `below` for which `wanted` holds and the search succeeds (as in
    /// [`Searched::open_counts`]); `None` when there is none. Edges that could only open
    /// smaller counts than one already found are not cut.
    pub fn largest_open(&self, below: u32, wanted: impl Fn(u32) -> bool, scratch: &mut PassScratch) -> Option<u32> {
        let last = below.checked_sub(1)?;
        let mut best: Option<u32> = None;
        self.open_ranges(last, scratch, |from, to| {
            best = best.max((from..=to).rev().find(|&k| wanted(k)));
            best.map_or(0, |k| k + 1)
        });
        best
    }

    /// Calls `mark(from, to)` with ranges of counts, from 0 to `last`, at which the search
    /// succeeds, so that every such count is in one of them; `mark` returns the smallest count
    /// still of interest, and ranges wholly below it may be left out.
    fn open_ranges(&self, last: u32, scratch: &mut PassScratch, mut mark: impl FnMut(u32, u32) -> u32) {
        let Searched {
            regions,
            levels,
            max_speed,
            preferred,
            colliding_from,
        } = *self;
        let mut floor = 0;
        let mut report = |from: u32, to: u32, floor: &mut u32| {
            if from <= to.min(last) {
                *floor = mark(from, to.min(last));
            }
        };
        // A preferred velocity is free below the lowest level of the regions containing it.
        let free_below = |v: Vec2| {
            let v = crate::geom::truncate(v, max_speed);
            (regions.iter().zip(levels))
                .filter(|(r, _)| r.contains(v))
                .map(|(_, &l)| l)
                .min()
                .unwrap_or(u32::MAX)
        };
        let preferred_end = free_below(preferred).min(colliding_from);
        if preferred_end > 0 {
            report(0, preferred_end - 1, &mut floor);
        }
        let zero_end = free_below(Vec2::ZERO);
        if zero_end > colliding_from {
            report(colliding_from, zero_end - 1, &mut floor);
        }
        let level_of = |s: u32| if s == BEYOND_MAX_SPEED { 0 } else { levels[s as usize] };
        let PassScratch { blocked, steps, boxes } = scratch;
        boxes.fill(regions);
        let mut hint = usize::MAX;
        for (r, region) in regions.iter().enumerate() {
            for i in region.candidate_edges() {
                // The edge is present from its region's level on; counts below `floor` no
                // longer matter, nor does it where a region present from `from` covers it.
                let from = levels[r].max(floor);
                if from > last {
                    break;
                }
                let (p, end) = region.edge(i);
                let covers = |s: u32| level_of(s) <= from;
                if cut_edge(
                    (regions, boxes, None),
                    r,
                    (p, end - p),
                    max_speed,
                    (0.0, 1.0),
                    (blocked, &mut hint),
                    covers,
                ) && let Some(to) = last_gap(blocked, level_of, from, last, steps)
                {
                    report(from, to, &mut floor);
                }
            }
        }
    }
}

/// The last count from `from` to `last` at which the `blocked` intervals (by start) of the
/// regions present (level at most the count) leave the edge a permitted piece; `None` when
/// not even `from` does.
fn last_gap(
    blocked: &[Blocked],
    level_of: impl Fn(u32) -> u32,
    from: u32,
    last: u32,
    steps: &mut Vec<u32>,
) -> Option<u32> {
    let has_gap = |count: u32| {
        let mut gap = false;
        let present = blocked.iter().filter(|b| level_of(b.2) <= count);
        for_each_piece(present.map(|&(lo, hi, _)| (lo, hi)), (0.0, 1.0), |_, _, outer| {
            gap |= outer
        });
        gap
    };
    if !has_gap(from) {
        return None;
    }
    // Gaps only close as counts grow, and only at the levels of the blocking regions.
    steps.clear();
    steps.extend(blocked.iter().map(|b| level_of(b.2)).filter(|&l| l > from && l <= last));
    steps.sort_unstable();
    steps.dedup();
    Some(steps.iter().find(|&&l| !has_gap(l)).map_or(last, |&l| l - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::avoid::boundary::{BoundaryScratch, nearest_free};

    /// Fills `out` with the `regions` whose `levels` are at most `count`, in order.
    fn present_at(regions: &[Region], levels: &[u32], count: u32, out: &mut Vec<Region>) {
        out.clear();
        out.extend(
            regions
                .iter()
                .zip(levels)
                .filter(|&(_, &l)| l <= count)
                .map(|(r, _)| *r),
        );
    }

    #[test]
    fn open_counts_match_one_search_per_count() {
        const MAX_SPEED: f32 = 1.0;
        // Pseudo-random squares and triangles with levels 0 to 6, some overlapping from a count
        // on, against one plain search per count.
        let mut next = crate::test_rng::unit_floats(12345);
        let scratch = &mut BoundaryScratch::default();
        let mut pass = PassScratch::default();
        let (mut disagreements, mut found_counts, mut searches) = (0, 0, 0);
        for case in 0..300 {
            let count = 6u32;
            let (mut regions, mut levels) = (Vec::new(), Vec::new());
            for _ in 0..3 + case % 8 {
                let s = 1.0 + next() * 3.0;
                let c = Vec2::new(next() * s, next() * s) - Vec2::splat(s * 0.8);
                let corners = [c, c + Vec2::new(s, 0.0), c + Vec2::new(s, s), c + Vec2::new(0.0, s)];
                regions.push(if next() < 0.5 {
                    Region::polygon(corners)
                } else {
                    Region::polygon([corners[0], corners[1], corners[2]])
                });
                levels.push((next() * 7.0) as u32);
            }
            let preferred = Vec2::new(next() * 2.0 - 1.0, next() * 2.0 - 1.0);
            let colliding_from = if case % 3 == 0 { (next() * 7.0) as u32 } else { u32::MAX };
            let mut open = vec![false; count as usize + 1];
            let searched = Searched {
                regions: &regions,
                levels: &levels,
                max_speed: MAX_SPEED,
                preferred,
                colliding_from,
            };
            searched.open_counts(&mut pass, &mut open);
            // The largest open count below each bound, every other count wanted.
            for below in 0..=count + 1 {
                let wanted = |k: u32| k % 2 == case % 2;
                let largest = (0..below).rev().find(|&k| open[k as usize] && wanted(k));
                let pass = searched.largest_open(below, wanted, &mut pass);
                assert_eq!(pass, largest, "case {case}, below {below}");
            }
            let mut present = Vec::new();
            for k in 0..=count {
                present_at(&regions, &levels, k, &mut present);
                let wanted = if k >= colliding_from { Vec2::ZERO } else { preferred };
                let found = nearest_free((&present, 0), MAX_SPEED, (wanted, usize::MAX), scratch, None)
                    .velocity()
                    .is_some();
                disagreements += (found != open[k as usize]) as u32;
                found_counts += found as u32;
                searches += 1;
            }
        }
        assert_eq!(disagreements, 0, "counts where one pass and the search disagree");
        assert!(
            found_counts > searches / 10 && found_counts < searches * 9 / 10,
            "{found_counts} of {searches}"
        );
    }
}
