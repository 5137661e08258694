//! Neighbour index over agent positions: a uniform grid rebuilt each tick by counting sort
//! (Buckland's cell-space partitioning without per-cell lists), or brute force for comparison.
//! Query results are sorted by agent index, so both give identical answers in the same order (or,
//! without the sort, in the index's own deterministic cell order).
//! The k-nearest query (RVO2's agent neighbours) runs on a k-d tree kept beside the grid.

use std::sync::{Mutex, OnceLock, PoisonError};

use glam::Vec2;
use rayon::prelude::*;

use super::agent_tree::{AgentTree, KNearest, Neighbour};
use super::body::Body;
use super::steer::{FlockLanes, FlockView, GATHER_BLOCK, TaggedSums, TaggedView};
use crate::scene::{Bounds, NeighbourIndex};

/// Finds the agents near a point. Built from the positions of the present agents.
pub struct NeighbourGrid {
    mode: NeighbourIndex,
    origin: Vec2,
    inv_cell: f32,
    cols: usize,
    rows: usize,
    /// The agents of the last rebuild, in its order.
    unsorted: Vec<(u32, Vec2)>,
    /// How the flock sees each of them, in the same order, when the index keeps the flock's
    /// lanes ([`NeighbourGrid::with_flock_lanes`]).
    views: Option<Vec<FlockView>>,
    /// The same agents sorted into cells, at the first query that reads cells after a rebuild
    /// (a tick of agents that only ask for their k nearest never sorts them).
    sorted: OnceLock<Cells>,
    /// The last sorted cells, whose buffers the next sort reuses.
    spare: Mutex<Cells>,
    /// The k-d tree for k-nearest queries, when kept ([`NeighbourGrid::with_nearest_tree`]).
    tree: Option<AgentTree>,
}

/// The agents sorted into cells.
#[derive(Debug, Default)]
struct Cells {
    /// `cell_start[c]..cell_start[c + 1]` indexes `ids` and `points` for cell `c`.
    cell_start: Vec<u32>,
    /// Agent indices, grouped by cell (ascending within a cell).
    ids: Vec<u32>,
    /// Their positions, in the same order (apart, so a query scans only positions).
    points: Vec<Vec2>,
    /// Each agent's cell, in the rebuild's order: a buffer of the counting sort.
    of_agent: Vec<u32>,
    /// The entry of the rebuild (its place in the rebuild's order) at each place of `ids`: a
    /// buffer of the counting sort.
    entry_at: Vec<u32>,
    /// The flock's view of the agents in the order of `ids`, when kept.
    lanes: FlockLanes,
}

/// Upper limit on grid cells, so a tiny cell size on a huge world cannot exhaust memory.
const MAX_CELLS: usize = 1 << 22;

impl NeighbourGrid {
    /// An empty index covering `bounds` (agents outside are clamped to the border cells).
    pub fn new(mode: NeighbourIndex, bounds: Bounds) -> NeighbourGrid {
        let (origin, inv_cell, cols, rows) = match mode {
            NeighbourIndex::Grid { cell_size } => {
                let size = bounds.size();
                let mut cell = cell_size.max(1e-3);
                while ((size.x / cell).ceil() as usize + 1) * ((size.y / cell).ceil() as usize + 1) > MAX_CELLS {
                    cell *= 2.0;
                }
                (
                    bounds.min,
                    1.0 / cell,
                    (size.x / cell).ceil() as usize + 1,
                    (size.y / cell).ceil() as usize + 1,
                )
            }
            NeighbourIndex::BruteForce => (bounds.min, 0.0, 1, 1),
        };
        NeighbourGrid {
            mode,
            origin,
            inv_cell,
            cols,
            rows,
            unsorted: Vec::new(),
            views: None,
            sorted: OnceLock::new(),
            spare: Mutex::new(Cells::default()),
            tree: None,
        }
    }

    #[inline]
    fn cell_coords(&self, p: Vec2) -> (usize, usize) {
        (self.column_of(p.x), self.row_of(p.y))
    }

    fn column_of(&self, x: f32) -> usize {
        axis_cell(x - self.origin.x, self.inv_cell, self.cols)
    }

    fn row_of(&self, y: f32) -> usize {
        axis_cell(y - self.origin.y, self.inv_cell, self.rows)
    }

    fn cell_of(&self, p: Vec2) -> usize {
        let (x, y) = self.cell_coords(p);
        y * self.cols + x
    }

    /// Rebuilds the index from `(agent index, position)` pairs: the k-d tree at once when kept,
    /// the cells at the first query that reads them.
    pub fn rebuild(&mut self, items: impl Iterator<Item = (u32, Vec2)>) {
        self.unsorted.clear();
        self.unsorted.extend(items);
        self.entries_changed();
    }

    /// Drops the cells of the entries before (their buffers kept for the next sort) and rebuilds
    /// the k-d tree when kept.
    fn entries_changed(&mut self) {
        if let Some(cells) = self.sorted.take() {
            *self.spare.get_mut().unwrap_or_else(PoisonError::into_inner) = cells;
        }
        if let Some(tree) = &mut self.tree {
            tree.rebuild(self.unsorted.iter().copied());
        }
    }

    /// Rebuilds the index from the present agents among `bodies` (agent index = place in
    /// `bodies`), with the flock's view of each when the index keeps it.
    pub fn rebuild_bodies(&mut self, bodies: &[Body]) {
        // Every body written at the next place, which advances only past a present one: one
        // pass over the bodies, with no branch but the loop-invariant one on the views.
        self.unsorted.resize(bodies.len(), (0, Vec2::ZERO));
        if let Some(views) = &mut self.views {
            views.resize(bodies.len(), FlockView::default());
        }
        let mut kept = 0;
        for (i, body) in bodies.iter().enumerate() {
            self.unsorted[kept] = (i as u32, body.position);
            if let Some(views) = &mut self.views {
                views[kept] = FlockView {
                    heading: body.heading,
                    radius: body.radius,
                };
            }
            kept += usize::from(body.status.present());
        }
        self.unsorted.truncate(kept);
        if let Some(views) = &mut self.views {
            views.truncate(kept);
        }
        self.entries_changed();
    }

    /// Sorts the agents of the last rebuild into cells now rather than at the first query that
    /// reads them, the entries gathered in parallel (for a caller that knows some query will and
    /// has threads to spare now). Not inside the lazy sort: a thread waiting there for its
    /// parallel work could take up a query of this grid and wait on itself.
    pub fn sort_cells(&self) {
        if self.sorted.get().is_none() {
            // A query on another thread may have sorted meanwhile: then the cells are the same.
            let _ = self.sorted.set(self.sorted_cells(false));
        }
    }

    /// The agents of the last rebuild sorted into cells, sorted now if no query has yet.
    fn cells(&self) -> &Cells {
        self.sorted.get_or_init(|| self.sorted_cells(true))
    }

    /// The agents of the last rebuild sorted into cells, in the buffers of the last sort:
    /// [`NeighbourGrid::sort_into`].
    fn sorted_cells(&self, serial: bool) -> Cells {
        let mut cells = std::mem::take(&mut *self.spare.lock().unwrap_or_else(PoisonError::into_inner));
        self.sort_into(&mut cells, serial);
        cells
    }

    /// Sorts the agents of the last rebuild into `cells` (a counting sort by cell, into the
    /// buffers `cells` holds): each entry's place first, in the rebuild's order, then the
    /// places filled from their entries in blocks, in parallel unless `serial`.
    fn sort_into(&self, cells: &mut Cells, serial: bool) {
        let Cells {
            cell_start,
            ids,
            points,
            of_agent,
            entry_at,
            lanes,
        } = cells;
        cell_start.clear();
        cell_start.resize(self.cols * self.rows + 1, 0);
        // Brute force has one cell, so the entries keep the input order.
        of_agent.resize(self.unsorted.len(), 0);
        for (c, &(_, p)) in of_agent.iter_mut().zip(&self.unsorted) {
            *c = self.cell_of(p) as u32;
            cell_start[*c as usize + 1] += 1;
        }
        for i in 1..cell_start.len() {
            cell_start[i] += cell_start[i - 1];
        }
        // Each cell's next free place, taken by the entries in input order within their cell.
        let count = self.unsorted.len();
        entry_at.resize(count, 0);
        let agents = self.unsorted.last().map_or(0, |&(i, _)| i as usize + 1);
        let mut places = self.views.as_ref().map(|_| lanes.places(agents));
        for (j, (&c, &(i, _))) in of_agent.iter().zip(&self.unsorted).enumerate() {
            let slot = &mut cell_start[c as usize];
            entry_at[*slot as usize] = j as u32;
            if let Some(places) = &mut places {
                places[i as usize] = *slot;
            }
            *slot += 1;
        }
        // The slots now hold each cell's end, which is the next cell's start: shift them back.
        let last = cell_start.len() - 1;
        cell_start.copy_within(..last, 1);
        cell_start[0] = 0;
        ids.resize(count, 0);
        points.resize(count, Vec2::ZERO);
        ids.par_chunks_mut(GATHER_BLOCK)
            .zip(points.par_chunks_mut(GATHER_BLOCK))
            .zip(entry_at.par_chunks(GATHER_BLOCK))
            .with_min_len(if serial { usize::MAX } else { 1 })
            .for_each(|((ids, points), at)| {
                for ((id, point), &j) in ids.iter_mut().zip(points).zip(at) {
                    (*id, *point) = self.unsorted[j as usize];
                }
            });
        if let Some(views) = &self.views {
            lanes.fill(entry_at, &self.unsorted, views, serial);
        }
    }

    /// Appends to `out` (cleared first) every indexed agent whose centre lies strictly within
    /// `radius` of `p`, sorted by agent index.
    pub fn query(&self, p: Vec2, radius: f32, out: &mut Vec<u32>) {
        self.query_in_cell_order(p, radius, None, out);
        out.sort_unstable();
    }

    /// The agents of [`NeighbourGrid::query`] but `skip` in the grid's own order: row by row of
    /// cells, cell by cell within a row, ascending index within a cell (for brute force, the
    /// rebuild's order). The order depends only on the positions, so it is as deterministic as
    /// the sorted one and costs no sort.
    pub fn query_in_cell_order(&self, p: Vec2, radius: f32, skip: Option<u32>, out: &mut Vec<u32>) {
        out.clear();
        let r_sq = radius * radius;
        // No agent has the largest index (it would be the 2³²nd).
        let skip = skip.unwrap_or(u32::MAX);
        let cells = self.cells();
        let runs = self.cells_around(cells, p, radius);
        // Room for every candidate, then the hits written from the front without branching.
        out.resize(runs.clone().map(|run| run.len()).sum(), 0);
        let mut hits = 0;
        for run in runs {
            hits += write_within(
                &cells.ids[run.clone()],
                &cells.points[run],
                p,
                r_sq,
                skip,
                &mut out[hits..],
            );
        }
        out.truncate(hits);
    }

    /// Separation's, alignment's and cohesion's sums for agent `agent` at `p` facing `heading`
    /// over the indexed agents it tags with `view` ([`FlockLanes::sums`]); `max_radius` bounds
    /// every indexed agent's body radius. Needs the flock's lanes
    /// ([`NeighbourGrid::with_flock_lanes`]).
    pub fn flock_sums(&self, p: Vec2, heading: Vec2, view: TaggedView, agent: u32, max_radius: f32) -> TaggedSums {
        let no_one = None::<(f32, fn(u32, Vec2, f32))>;
        self.flock_sums_touching(p, heading, view, agent, max_radius, no_one)
    }

    /// [`NeighbourGrid::flock_sums`] with `view`, and with `touch` = (`radius`, `visit`) in the
    /// same scan what [`NeighbourGrid::for_each_disc_within`] visits around `p` within `radius`
    /// (at most `view.radius + max_radius`), in the same order, but `agent` itself: the frame's
    /// contact check.
    pub fn flock_sums_touching(
        &self,
        p: Vec2,
        heading: Vec2,
        view: TaggedView,
        agent: u32,
        max_radius: f32,
        touch: Option<(f32, impl FnMut(u32, Vec2, f32))>,
    ) -> TaggedSums {
        let cells = self.cells();
        let runs = self.cells_around(cells, p, view.radius + max_radius);
        let touch = touch.map(|(radius, mut visit)| {
            let visit_place = move |k: usize, r: f32| visit(cells.ids[k], cells.points[k], r);
            (radius * radius, visit_place)
        });
        cells.lanes.sums(runs, p, heading, view, agent, touch)
    }

    /// Calls `visit(i, q)` for every indexed agent `i` whose centre `q` lies strictly within
    /// `radius` of `p`, in the grid's cell order.
    pub fn for_each_within(&self, p: Vec2, radius: f32, mut visit: impl FnMut(u32, Vec2)) {
        let r_sq = radius * radius;
        let cells = self.cells();
        for run in self.cells_around(cells, p, radius) {
            for (&i, &q) in cells.ids[run.clone()].iter().zip(&cells.points[run]) {
                if q.distance_squared(p) < r_sq {
                    visit(i, q);
                }
            }
        }
    }

    /// Calls `visit(i, q, r)` for every indexed agent `i` whose centre `q` lies strictly within
    /// `radius` of `p`, in the grid's cell order, with its body radius `r`: from the flock's
    /// lanes when the grid keeps them (four candidates tested at once, no body read), otherwise
    /// `radius_of(i)`.
    pub fn for_each_disc_within(
        &self,
        p: Vec2,
        radius: f32,
        radius_of: impl Fn(u32) -> f32,
        mut visit: impl FnMut(u32, Vec2, f32),
    ) {
        if self.views.is_none() {
            return self.for_each_within(p, radius, |i, q| visit(i, q, radius_of(i)));
        }
        let r_sq = radius * radius;
        let cells = self.cells();
        for run in self.cells_around(cells, p, radius) {
            cells
                .lanes
                .each_within(run, p, r_sq, |k, r| visit(cells.ids[k], cells.points[k], r));
        }
    }

    /// The side of the grid's cells (infinite for brute force, whose one cell holds everyone).
    pub fn cell_size(&self) -> f32 {
        1.0 / self.inv_cell
    }

    /// True when `pred` holds for some indexed agent whose centre lies strictly within `radius`
    /// of `p` (agents are tried in no particular order, stopping at the first that passes).
    pub fn any_within(&self, p: Vec2, radius: f32, mut pred: impl FnMut(u32) -> bool) -> bool {
        let r_sq = radius * radius;
        let cells = self.cells();
        self.cells_around(cells, p, radius).any(|run| {
            cells.ids[run.clone()]
                .iter()
                .zip(&cells.points[run])
                .any(|(&i, q)| q.distance_squared(p) < r_sq && pred(i))
        })
    }

    /// Where the cells that the square of half-side `radius` around `p` touches lie in `ids` and
    /// `points` of `cells`: a run of adjacent cells per row (everything for brute force).
    fn cells_around<'c>(
        &'c self,
        cells: &'c Cells,
        p: Vec2,
        radius: f32,
    ) -> impl Iterator<Item = std::ops::Range<usize>> + Clone + 'c {
        let ((x0, y0), (x1, y1)) = (
            self.cell_coords(p - Vec2::splat(radius)),
            self.cell_coords(p + Vec2::splat(radius)),
        );
        (y0..=y1).map(move |y| {
            let row = y * self.cols;
            cells.cell_start[row + x0] as usize..cells.cell_start[row + x1 + 1] as usize
        })
    }
}

/// The cell along one axis of a coordinate `v` from the grid's origin: truncation is the floor
/// for v ≥ 0, and anything below 0 (or NaN) clamps to the first cell, beyond `n` to the last.
fn axis_cell(v: f32, inv_cell: f32, n: usize) -> usize {
    // `as i32` truncates toward zero, saturates and takes NaN to 0 (`n` ≤ `MAX_CELLS` fits).
    ((v * inv_cell) as i32).max(0).min(n as i32 - 1) as usize
}

/// Writes to the front of `slots` the agents `ids` but `skip` whose centre (in `points`) lies
/// strictly within √`r_sq` of `p`, in their order, and returns how many: every agent is written
/// and the count advances only for hits, so there is no branch to mispredict.
fn write_within(ids: &[u32], points: &[Vec2], p: Vec2, r_sq: f32, skip: u32, slots: &mut [u32]) -> usize {
    let mut hits = 0;
    for (&i, q) in ids.iter().zip(points) {
        slots[hits] = i;
        hits += usize::from((q.distance_squared(p) < r_sq) & (i != skip));
    }
    hits
}

impl NeighbourGrid {
    /// Also keeps the k-d tree that [`NeighbourGrid::nearest`] answers from (for scenes whose
    /// profiles ask for their k nearest neighbours); without it, the query scans every agent.
    /// Brute force keeps no tree.
    pub fn with_nearest_tree(mut self) -> NeighbourGrid {
        if !matches!(self.mode, NeighbourIndex::BruteForce) {
            self.tree = Some(AgentTree::default());
        }
        self
    }

    /// Also keeps the flock's view of every agent in cell order, which
    /// [`NeighbourGrid::flock_sums`] reads (for scenes whose profiles flock); filled by
    /// [`NeighbourGrid::rebuild_bodies`].
    pub fn with_flock_lanes(mut self) -> NeighbourGrid {
        self.views = Some(Vec::new());
        self
    }

    /// Fills `out` (cleared first) with the `k` indexed agents nearest to `p` whose centre lies
    /// strictly within `radius`, leaving out agent `skip`, nearest first (ties by agent index) —
    /// RVO2's k-nearest query on its agent k-d tree, with a bounded insertion per candidate.
    /// The answer does not depend on the visiting order, so tree and brute force agree.
    pub fn nearest(&self, p: Vec2, radius: f32, k: usize, skip: u32, out: &mut Vec<Neighbour>) {
        match &self.tree {
            Some(tree) => tree.nearest(p, radius, k, skip, out),
            None => {
                let mut best = KNearest::new(out, k, radius, skip);
                for &(i, q) in &self.unsorted {
                    best.offer(q.distance_squared(p), i);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::body::scattered;

    fn bounds() -> Bounds {
        Bounds {
            min: Vec2::ZERO,
            max: Vec2::new(700.0, 700.0),
        }
    }

    #[test]
    fn grid_and_brute_force_agree() {
        let points: Vec<(u32, Vec2)> = (0..400)
            .map(|i| (i, Vec2::new((i * 37 % 700) as f32, (i * 91 % 700) as f32 + 0.5)))
            .collect();
        let mut grid = NeighbourGrid::new(NeighbourIndex::Grid { cell_size: 100.0 }, bounds());
        let mut brute = NeighbourGrid::new(NeighbourIndex::BruteForce, bounds());
        grid.rebuild(points.iter().copied());
        brute.rebuild(points.iter().copied());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for q in [
            Vec2::new(250.0, 250.0),
            Vec2::new(0.0, 0.0),
            Vec2::new(699.0, 10.0),
            Vec2::new(-50.0, 800.0),
        ] {
            for r in [1.0, 60.0, 150.0] {
                grid.query(q, r, &mut a);
                brute.query(q, r, &mut b);
                assert_eq!(a, b);
                for index in [&grid, &brute] {
                    index.query_in_cell_order(q, r, None, &mut b);
                    b.sort_unstable();
                    assert_eq!(a, b, "the same agents in cell order");
                    index.query_in_cell_order(q, r, Some(a.first().copied().unwrap_or(0)), &mut b);
                    b.sort_unstable();
                    assert_eq!(a.get(1..).unwrap_or(&[]), b, "all but the first");
                }
                for index in [&grid, &brute] {
                    assert_eq!(index.any_within(q, r, |i| i % 7 == 3), a.iter().any(|&i| i % 7 == 3));
                    let mut visited = Vec::new();
                    index.for_each_within(q, r, |i, at| {
                        assert_eq!(at, points[i as usize].1);
                        visited.push(i);
                    });
                    visited.sort_unstable();
                    assert_eq!(a, visited, "the same agents, each once");
                }
            }
        }
    }

    #[test]
    fn small_cells_find_every_neighbour_near_and_beyond_the_bounds() {
        // Radii of a few cells, and agents clamped into the border rows and columns from outside
        // (and queries from outside) found as by brute force.
        let bounds = Bounds {
            min: Vec2::ZERO,
            max: Vec2::new(20.0, 12.0),
        };
        let mut next = crate::test_rng::unit_floats(12345);
        let points: Vec<(u32, Vec2)> = (0..600)
            .map(|i| (i, Vec2::new(next() * 26.0 - 3.0, next() * 18.0 - 3.0)))
            .collect();
        let mut grid = NeighbourGrid::new(NeighbourIndex::Grid { cell_size: 1.0 }, bounds);
        let mut brute = NeighbourGrid::new(NeighbourIndex::BruteForce, bounds);
        grid.rebuild(points.iter().copied());
        brute.rebuild(points.iter().copied());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for &(_, q) in points.iter().step_by(7) {
            for r in [0.3, 1.0, 2.4, 3.7] {
                grid.query(q, r, &mut a);
                brute.query(q, r, &mut b);
                assert_eq!(a, b, "around {q} within {r}");
            }
        }
    }

    #[test]
    fn nearest_is_the_head_of_the_full_query_sorted_by_distance() {
        // A lattice gives many equal distances, so the index tie-break matters.
        let points: Vec<(u32, Vec2)> = (0..900)
            .map(|i| (i, Vec2::new((i % 30) as f32 * 10.0, (i / 30) as f32 * 10.0)))
            .collect();
        let mut grid = NeighbourGrid::new(NeighbourIndex::Grid { cell_size: 25.0 }, bounds()).with_nearest_tree();
        let mut brute = NeighbourGrid::new(NeighbourIndex::BruteForce, bounds());
        grid.rebuild(points.iter().copied());
        brute.rebuild(points.iter().rev().copied());
        let (mut all, mut near, mut near_brute) = (Vec::new(), Vec::new(), Vec::new());
        let queries = [
            (Vec2::new(150.0, 150.0), 465),
            (Vec2::new(3.0, 4.0), 0),
            (Vec2::new(155.0, 10.0), 7),
            (Vec2::new(-40.0, 320.0), 1),
        ];
        for (q, skip) in queries {
            for (r, k) in [(15.0, 10), (35.0, 10), (35.0, 3), (100.0, 1000)] {
                grid.query(q, r, &mut all);
                let mut expected: Vec<(f32, u32)> = all
                    .iter()
                    .filter(|&&i| i != skip)
                    .map(|&i| (points[i as usize].1.distance_squared(q), i))
                    .collect();
                expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                expected.truncate(k);
                grid.nearest(q, r, k, skip, &mut near);
                brute.nearest(q, r, k, skip, &mut near_brute);
                let pairs = |found: &[Neighbour]| -> Vec<(f32, u32)> {
                    found.iter().map(|n| (n.distance_sq(), n.agent())).collect()
                };
                assert_eq!(pairs(&near), expected, "grid, r {r} k {k}");
                assert_eq!(pairs(&near_brute), expected, "brute force, r {r} k {k}");
            }
        }
    }

    #[test]
    fn buckland_cell_query_example() {
        // §5.2: 700×700 world, 100×100 cells; query (250, 250) r = 60 covers cells 1..=3 in each axis
        // and returns only members with squared distance < 3600.
        let mut grid = NeighbourGrid::new(NeighbourIndex::Grid { cell_size: 100.0 }, bounds());
        assert_eq!(grid.cell_coords(Vec2::splat(190.0)), (1, 1));
        assert_eq!(grid.cell_coords(Vec2::splat(310.0)), (3, 3));
        grid.rebuild(
            [
                (0, Vec2::new(250.0, 309.0)),
                (1, Vec2::new(250.0, 250.0 + 59.9)),
                (2, Vec2::new(200.0, 200.0)),
            ]
            .into_iter(),
        );
        let mut out = Vec::new();
        grid.query(Vec2::splat(250.0), 60.0, &mut out);
        assert_eq!(out, vec![0, 1]);
    }

    #[test]
    fn the_parallel_sort_ahead_fills_the_cells_the_lazy_sort_fills() {
        // More agents than three blocks of the gather, some absent, on cells of 3 m.
        let bodies = scattered(77, 3 * GATHER_BLOCK as u32 + 500, bounds(), (0.2, 1.2), (7, 3));
        let mode = NeighbourIndex::Grid { cell_size: 3.0 };
        let mut ahead = NeighbourGrid::new(mode, bounds()).with_flock_lanes();
        let mut lazy = NeighbourGrid::new(mode, bounds()).with_flock_lanes();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        // Twice, so that the second sort reuses the first one's buffers.
        for _ in 0..2 {
            ahead.rebuild_bodies(&bodies);
            lazy.rebuild_bodies(&bodies);
            pool.install(|| ahead.sort_cells());
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for (i, body) in bodies.iter().enumerate().step_by(97) {
                let p = body.position;
                ahead.query_in_cell_order(p, 9.0, None, &mut a);
                lazy.query_in_cell_order(p, 9.0, None, &mut b);
                assert_eq!(a, b, "around agent {i}");
                let sums =
                    |grid: &NeighbourGrid| grid.flock_sums(p, body.heading, TaggedView::new(8.0, 360.0), i as u32, 1.2);
                assert_eq!(format!("{:?}", sums(&ahead)), format!("{:?}", sums(&lazy)), "agent {i}");
            }
        }
    }

    #[test]
    fn discs_from_the_flock_lanes_are_the_discs_from_the_bodies() {
        // Radii 0.2–1.2 m on cells of 2 m, some agents absent; reaches within one cell and across
        // several (so runs end inside a group of four), and one query on a cell corner.
        let area = Bounds {
            min: Vec2::ZERO,
            max: Vec2::new(60.0, 60.0),
        };
        let bodies = scattered(5, 2000, area, (0.2, 1.2), (9, 2));
        let mode = NeighbourIndex::Grid { cell_size: 2.0 };
        let mut lanes = NeighbourGrid::new(mode, area).with_flock_lanes();
        let mut plain = NeighbourGrid::new(mode, area);
        lanes.rebuild_bodies(&bodies);
        plain.rebuild_bodies(&bodies);
        let radius_of = |j: u32| bodies[j as usize].radius;
        let mut queries: Vec<Vec2> = bodies.iter().map(|b| b.position).collect();
        queries.push(Vec2::new(20.0, 20.0));
        let mut found = 0;
        for (k, &p) in queries.iter().enumerate() {
            for reach in [0.5, 2.4, 30.0] {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                lanes.for_each_disc_within(p, reach, |_| f32::NAN, |j, q, r| a.push((j, q, r)));
                plain.for_each_disc_within(p, reach, radius_of, |j, q, r| b.push((j, q, r)));
                assert_eq!(a, b, "query {k}, reach {reach}");
                assert!(
                    a.iter()
                        .all(|&(j, q, r)| q.distance_squared(p) < reach * reach && r == radius_of(j))
                );
                found += a.len();
            }
        }
        assert!(found > 2 * queries.len(), "the queries find someone: {found}");
    }
}
