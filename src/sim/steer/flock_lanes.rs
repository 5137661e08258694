//! The flock's view of the agents in a neighbour grid's cell order, stored by axis (position,
//! heading, body radius), and the flock sums of one agent computed from it eight candidates at a
//! time: every agent in the cells around the agent is tested and added under a mask, with no
//! list of neighbours and no branch per candidate. Each of the eight lanes sums its own share of
//! the candidates, in cell order, and the lanes are added at the end in a fixed order, so the
//! sums are the same at any thread count and on every processor (they differ from a one-by-one
//! sum by rounding only).

use std::ops::Range;

use glam::{Vec2, Vec4};
use rayon::prelude::*;

use super::eight_lanes::{EightLaneWork, Lanes, WIDTH, with_eight_lanes};
use super::tagged_sums::{TaggedSums, TaggedView};

/// Candidates [`FlockLanes::each_within`] tests at once.
const SCAN_WIDTH: usize = 4;

/// Places a task of [`FlockLanes::fill`] writes.
pub const GATHER_BLOCK: usize = 2048;

/// Each lane's offset from the first candidate of a group of [`WIDTH`].
const LANE: [f32; WIDTH] = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];

/// The indexed agents by axis, in the grid's cell order, with room for one group past the end
/// (a run's last group may read beyond it; those lanes are masked out).
#[derive(Debug, Default)]
pub struct FlockLanes {
    xs: Vec<f32>,
    ys: Vec<f32>,
    heading_xs: Vec<f32>,
    heading_ys: Vec<f32>,
    radii: Vec<f32>,
    /// Each agent's place in the lanes, by agent index (`u32::MAX` when not indexed).
    lane_of: Vec<u32>,
}

/// The places of `run`'s groups of `width`: the last one reaches into the next run or the
/// padding, whose lanes the caller masks out.
fn groups(run: &Range<usize>, width: usize) -> Range<usize> {
    run.start..run.start + run.len().div_ceil(width) * width
}

/// What the flock sees of one indexed agent besides its position.
#[derive(Clone, Copy, Debug, Default)]
pub struct FlockView {
    /// Its heading (unit vector).
    pub heading: Vec2,
    /// Its body radius.
    pub radius: f32,
}

impl FlockLanes {
    /// Empties the place of each agent, by agent index, for `agents` agents, and returns it for
    /// the sort to fill in (`u32::MAX` stays for an agent not indexed).
    pub fn places(&mut self, agents: usize) -> &mut [u32] {
        self.lane_of.clear();
        self.lane_of.resize(agents, u32::MAX);
        &mut self.lane_of
    }

    /// Fills the lanes from `entries` (agent index, position) seen as `views` (in the same
    /// order), entry `entry_at[k]` at place `k`, in blocks written in parallel unless `serial`.
    pub fn fill(&mut self, entry_at: &[u32], entries: &[(u32, Vec2)], views: &[FlockView], serial: bool) {
        let count = entry_at.len();
        let [xs, ys, hxs, hys, radii] = [
            &mut self.xs,
            &mut self.ys,
            &mut self.heading_xs,
            &mut self.heading_ys,
            &mut self.radii,
        ]
        .map(|lane| {
            lane.clear();
            lane.resize(count + WIDTH, 0.0);
            lane[..count].par_chunks_mut(GATHER_BLOCK)
        });
        let block =
            |xs: &mut [f32], ys: &mut [f32], hxs: &mut [f32], hys: &mut [f32], radii: &mut [f32], at: &[u32]| {
                for (k, &j) in at.iter().enumerate() {
                    let ((_, p), view) = (entries[j as usize], views[j as usize]);
                    (xs[k], ys[k]) = (p.x, p.y);
                    (hxs[k], hys[k]) = (view.heading.x, view.heading.y);
                    radii[k] = view.radius;
                }
            };
        xs.zip(ys)
            .zip(hxs)
            .zip(hys)
            .zip(radii)
            .zip(entry_at.par_chunks(GATHER_BLOCK))
            .with_min_len(if serial { usize::MAX } else { 1 })
            .for_each(|(((((xs, ys), hxs), hys), radii), at)| block(xs, ys, hxs, hys, radii, at));
    }

    /// Calls `visit(k, radius)`, in order, for every place `k` in `run` whose agent's centre lies
    /// strictly within √`r_sq` of `p`, with that agent's body radius: the squared distances of
    /// four candidates at a time, computed as `Vec2::distance_squared` computes them.
    #[inline]
    pub fn each_within(&self, run: Range<usize>, p: Vec2, r_sq: f32, mut visit: impl FnMut(usize, f32)) {
        let (px, py, r_sq) = (Vec4::splat(p.x), Vec4::splat(p.y), Vec4::splat(r_sq));
        let span = groups(&run, SCAN_WIDTH);
        let positions = self.xs[span.clone()]
            .chunks_exact(SCAN_WIDTH)
            .zip(self.ys[span].chunks_exact(SCAN_WIDTH));
        for (start, (x, y)) in run.clone().step_by(SCAN_WIDTH).zip(positions) {
            let (to_x, to_y) = (Vec4::from_slice(x) - px, Vec4::from_slice(y) - py);
            let mut hits = (to_x * to_x + to_y * to_y).cmplt(r_sq).bitmask();
            while hits != 0 {
                let k = start + hits.trailing_zeros() as usize;
                if k >= run.end {
                    break;
                }
                visit(k, self.radii[k]);
                hits &= hits - 1;
            }
        }
    }

    /// The flock sums of agent `agent` at `p` facing `heading` over the agents placed in `runs`
    /// that it tags with `view` (Buckland's tagging: centre within the view's radius plus the
    /// other's radius, inside its field of view; never itself). With `touch` =
    /// (`r_sq`, `visit`), the same pass also calls `visit(k, radius)`, in order, for every place
    /// `k` in `runs` but its own whose agent's centre lies strictly within √`r_sq` of `p`, as
    /// [`FlockLanes::each_within`] would (which also visits the agent itself): the frame's
    /// contact check, answered by the scan that the next tick's flock sums make anyway (`r_sq`
    /// must not reach beyond the runs).
    ///
    /// The candidates are tested eight at a time (one AVX vector where the processor has it): each
    /// lane sums its own share of them, in cell order, and the lanes are added at the end in a
    /// fixed order, so the sums have the same bits on every processor and at any thread count
    /// (they differ from a one-by-one sum by rounding only).
    #[inline]
    pub fn sums<V: FnMut(usize, f32)>(
        &self,
        runs: impl Iterator<Item = Range<usize>>,
        p: Vec2,
        heading: Vec2,
        view: TaggedView,
        agent: u32,
        touch: Option<(f32, V)>,
    ) -> TaggedSums {
        with_eight_lanes(self.scan(runs, p, heading, view, agent, touch))
    }

    /// The scan of [`FlockLanes::sums`], to run on any [`Lanes`].
    #[inline(always)]
    fn scan<R, V>(
        &self,
        runs: R,
        p: Vec2,
        heading: Vec2,
        view: TaggedView,
        agent: u32,
        touch: Option<(f32, V)>,
    ) -> FlockScan<'_, R, V> {
        FlockScan {
            lanes: self,
            runs,
            p,
            heading,
            view,
            own: self.lane_of.get(agent as usize).map_or(-1.0, |&at| at as f32),
            touch,
        }
    }
}

/// One agent's scan of [`FlockLanes::sums`], written once for any [`Lanes`].
struct FlockScan<'a, R, V> {
    lanes: &'a FlockLanes,
    runs: R,
    p: Vec2,
    heading: Vec2,
    view: TaggedView,
    /// The agent's own place (−1 when not indexed).
    own: f32,
    touch: Option<(f32, V)>,
}

impl<R: Iterator<Item = Range<usize>>, V: FnMut(usize, f32)> EightLaneWork for FlockScan<'_, R, V> {
    type Output = TaggedSums;

    #[inline(always)]
    fn run<L: Lanes>(self) -> TaggedSums {
        let FlockScan {
            lanes,
            runs,
            p,
            heading,
            view,
            own,
            touch,
        } = self;
        let (own, px, py) = (L::splat(own), L::splat(p.x), L::splat(p.y));
        let (hx, hy, view_radius) = (L::splat(heading.x), L::splat(heading.y), L::splat(view.radius));
        let [
            mut sep_x,
            mut sep_y,
            mut head_x,
            mut head_y,
            mut pos_x,
            mut pos_y,
            mut count,
        ] = [L::splat(0.0); 7];
        let (zero, one, step) = (L::splat(0.0), L::splat(1.0), L::splat(WIDTH as f32));
        let fov = view.cos_half_fov.map(L::splat);
        let mut touch = touch.map(|(r_sq, visit)| (L::splat(r_sq), visit));
        for run in runs {
            // Sliced once, so that the loop checks no bounds.
            let span = groups(&run, WIDTH);
            let [xs, ys, radii, heading_xs, heading_ys] =
                [&lanes.xs, &lanes.ys, &lanes.radii, &lanes.heading_xs, &lanes.heading_ys]
                    .map(|lane| lane[span.clone()].chunks_exact(WIDTH));
            let end = L::splat(run.end as f32);
            let mut at = L::splat(run.start as f32) + L::load(&LANE);
            let places = run.clone().step_by(WIDTH);
            for (start, ((((x, y), radius), heading_x), heading_y)) in
                places.zip(xs.zip(ys).zip(radii).zip(heading_xs).zip(heading_ys))
            {
                let (x, y) = (L::load(x), L::load(y));
                let reach = view_radius + L::load(radius);
                let (to_x, to_y) = (x - px, y - py);
                let d_sq = to_x * to_x + to_y * to_y;
                // The lanes of the run but the agent's own: with itself left out of the contact
                // hits, nearly every group has none.
                let others = at.lt(end) & at.ne(own);
                if let Some((r_sq, visit)) = &mut touch {
                    let mut hits = L::bitmask(others & d_sq.lt(*r_sq));
                    while hits != 0 {
                        let k = start + hits.trailing_zeros() as usize;
                        visit(k, lanes.radii[k]);
                        hits &= hits - 1;
                    }
                }
                let mut tagged = others & d_sq.lt(reach * reach);
                if let Some(c) = fov {
                    let in_view = (hx * to_x + hy * to_y).ge(c * d_sq.sqrt());
                    tagged = tagged & (d_sq.eq(zero) | in_view);
                }
                let pushed = tagged & d_sq.gt(zero);
                sep_x = sep_x + ((px - x) / d_sq).or_zero(pushed);
                sep_y = sep_y + ((py - y) / d_sq).or_zero(pushed);
                head_x = head_x + L::load(heading_x).or_zero(tagged);
                head_y = head_y + L::load(heading_y).or_zero(tagged);
                pos_x = pos_x + x.or_zero(tagged);
                pos_y = pos_y + y.or_zero(tagged);
                count = count + one.or_zero(tagged);
                at = at + step;
            }
        }
        let pair = |x: L, y: L| Vec2::new(x.sum(), y.sum());
        TaggedSums {
            separation: pair(sep_x, sep_y),
            headings: pair(head_x, head_y),
            positions: pair(pos_x, pos_y),
            count: count.sum() as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::eight_lanes::Pair;
    use super::super::tagging::{cos_half_fov, is_tagged};
    use super::*;
    use crate::scene::{Bounds, NeighbourIndex};
    use crate::sim::body::scattered;
    use crate::sim::{Body, NeighbourGrid};

    /// The 30 m × 20 m area [`crowd`] stands on.
    const AREA: Bounds = Bounds {
        min: Vec2::ZERO,
        max: Vec2::new(30.0, 20.0),
    };

    /// A crowd on [`AREA`], some agents absent, two on one spot, radii 0.1–0.5 m.
    fn crowd() -> Vec<Body> {
        let mut bodies = scattered(2024, 500, AREA, (0.1, 0.5), (9, 4));
        bodies[7].position = bodies[3].position;
        bodies
    }

    #[test]
    fn lanes_tag_exactly_the_neighbours_buckland_tags_and_sum_them_up_to_rounding() {
        let bodies = crowd();
        let max_radius = 0.5;
        for mode in [NeighbourIndex::Grid { cell_size: 1.3 }, NeighbourIndex::BruteForce] {
            let mut grid = NeighbourGrid::new(mode, AREA).with_flock_lanes();
            grid.rebuild_bodies(&bodies);
            for (i, body) in bodies.iter().enumerate().filter(|(_, b)| b.status.present()) {
                for (view, fov) in [(1.5, 360.0), (3.0, 270.0), (2.0, 90.0)] {
                    let cos = cos_half_fov(fov);
                    let (p, heading) = (body.position, body.heading);
                    let tagged_view = TaggedView {
                        radius: view,
                        cos_half_fov: cos,
                    };
                    let got = grid.flock_sums(p, heading, tagged_view, i as u32, max_radius);
                    let tagged = bodies.iter().enumerate().filter(|&(j, n)| {
                        j != i && n.status.present() && is_tagged(p, heading, n.position, n.radius, view, cos)
                    });
                    let want = TaggedSums::over(p, tagged.map(|(_, n)| (n.position, n.heading)));
                    assert_eq!(got.count, want.count, "agent {i}, view {view}, fov {fov}");
                    let close = |a: Vec2, b: Vec2| (a - b).length() <= 1e-4 * (1.0 + b.length());
                    assert!(close(got.separation, want.separation), "{got:?} against {want:?}");
                    assert!(close(got.headings, want.headings), "{got:?} against {want:?}");
                    assert!(close(got.positions, want.positions), "{got:?} against {want:?}");
                }
            }
        }
    }

    #[test]
    fn the_processors_lanes_give_the_bits_of_the_portable_pair() {
        // The lanes this processor runs (AVX where it has it) against the pair of 4-lane vectors
        // that processors without AVX run, over runs that end inside a group of eight.
        let bodies = crowd();
        let present: Vec<(u32, Vec2)> = (bodies.iter().enumerate())
            .filter(|(_, b)| b.status.present())
            .map(|(i, b)| (i as u32, b.position))
            .collect();
        let views: Vec<FlockView> = (present.iter())
            .map(|&(i, _)| FlockView {
                heading: bodies[i as usize].heading,
                radius: bodies[i as usize].radius,
            })
            .collect();
        let mut lanes = FlockLanes::default();
        let places = lanes.places(bodies.len());
        for (k, &(i, _)) in present.iter().enumerate() {
            places[i as usize] = k as u32;
        }
        let entry_at: Vec<u32> = (0..present.len() as u32).collect();
        lanes.fill(&entry_at, &present, &views, true);
        let n = present.len();
        let runs = || [0..37, 37..38, 45..n - 3].into_iter();
        let bits = |s: TaggedSums| {
            let [a, b, c] = [s.separation, s.headings, s.positions].map(|v| [v.x.to_bits(), v.y.to_bits()]);
            (a, b, c, s.count)
        };
        let mut compared = 0;
        for &(i, p) in &present {
            let heading = bodies[i as usize].heading;
            for view in [TaggedView::new(1.5, 360.0), TaggedView::new(3.0, 270.0)] {
                let (mut here, mut pair) = (Vec::new(), Vec::new());
                let touch_here = Some((0.6, |k: usize, r: f32| here.push((k, r))));
                let sums_here = lanes.sums(runs(), p, heading, view, i, touch_here);
                let touch_pair = Some((0.6, |k: usize, r: f32| pair.push((k, r))));
                let sums_pair = lanes.scan(runs(), p, heading, view, i, touch_pair).run::<Pair>();
                assert_eq!(bits(sums_here), bits(sums_pair), "agent {i}, {view:?}");
                assert_eq!(here, pair, "agent {i}, {view:?}");
                compared += usize::from(sums_pair.count > 0);
            }
        }
        assert!(compared > n, "most agents tag someone ({compared} of {})", 2 * n);
    }

    #[test]
    fn an_agent_on_the_same_spot_counts_but_does_not_push() {
        let bodies = crowd();
        let mut grid = NeighbourGrid::new(NeighbourIndex::Grid { cell_size: 2.0 }, AREA).with_flock_lanes();
        grid.rebuild_bodies(&bodies);
        // Agent 3 with agent 7 on its spot, and a view too small to reach anyone else.
        let alone = grid.flock_sums(bodies[3].position, Vec2::X, TaggedView::new(1e-3, 360.0), 3, 0.5);
        assert_eq!(alone.count, 1);
        assert_eq!(alone.separation, Vec2::ZERO);
        assert_eq!(alone.positions, bodies[7].position);
    }
}
