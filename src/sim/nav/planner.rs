//! Planning a path between two world points on a scene's maps, and Stria's line-of-sight
//! smoothing (§1.6).
//!
//! The planners: quadtree A* first with grid A* as fallback (Stria's `PathMixin`), grid A* alone,
//! or the any-angle Theta*. Start and goal snap to the nearest walkable cell (an agent may stand
//! in a border cell next to a wall); when the two cells see each other the path is the straight
//! segment. The answer is the list of waypoints after the start, ending on the exact goal.

use glam::Vec2;

use super::astar::SearchScratch;
use super::grid_search::{AnyAngleGraph, GridGraph};
use super::occupancy::{Cell, OccupancyGrid};
use super::quadtree::Quadtree;
use crate::scene::{Bounds, Obstacle, PlannerKind};

/// The scene's static maps for global planning.
pub struct NavMap {
    grid: OccupancyGrid,
    quadtree: Option<Quadtree>,
    kind: PlannerKind,
    snap_rings: i32,
}

impl NavMap {
    /// Rasterises the static obstacles of `bounds` at `cell_size` with a border of `border_width`
    /// metres and builds what `kind` needs.
    pub fn new(bounds: Bounds, obstacles: &[Obstacle], cell_size: f32, border_width: f32, kind: PlannerKind) -> Self {
        let grid = OccupancyGrid::from_obstacles(bounds.min, bounds.max, cell_size, obstacles, border_width);
        let quadtree = (kind == PlannerKind::Quadtree).then(|| Quadtree::new(&grid));
        NavMap {
            grid,
            quadtree,
            kind,
            snap_rings: (border_width / cell_size).ceil() as i32 * 2 + 4,
        }
    }

    /// The occupancy grid.
    pub fn grid(&self) -> &OccupancyGrid {
        &self.grid
    }

    /// The planner in use.
    pub fn kind(&self) -> PlannerKind {
        self.kind
    }

    /// True when an agent at `a` may walk straight to `b` (grid line of sight between their cells).
    pub fn clear_line(&self, a: Vec2, b: Vec2) -> bool {
        self.grid.line_of_sight(self.grid.cell_of(a), self.grid.cell_of(b))
    }

    /// True when `p` lies in a walkable cell.
    pub fn walkable(&self, p: Vec2) -> bool {
        self.grid.walkable(self.grid.cell_of(p))
    }

    /// The waypoints from `from` (excluded) to `to` (included), or `None` when no path exists.
    pub fn plan(&self, scratch: &mut SearchScratch, from: Vec2, to: Vec2) -> Option<Vec<Vec2>> {
        let grid = &self.grid;
        if self.kind == PlannerKind::Straight {
            return Some(vec![to]);
        }
        let start = grid.nearest_walkable(grid.cell_of(from), self.snap_rings)?;
        let goal = grid.nearest_walkable(grid.cell_of(to), self.snap_rings)?;
        let cells = if grid.line_of_sight(start, goal) {
            vec![start, goal]
        } else {
            match self.kind {
                PlannerKind::AnyAngle => {
                    self.cells(scratch.search(&AnyAngleGraph(grid), self.node(start), self.node(goal))?)
                }
                PlannerKind::Quadtree => match self.quadtree_cells(scratch, start, goal) {
                    Some(cells) => smooth(grid, &cells),
                    None => smooth(grid, &self.grid_cells(scratch, start, goal)?),
                },
                PlannerKind::Grid | PlannerKind::Straight => smooth(grid, &self.grid_cells(scratch, start, goal)?),
            }
        };
        // An agent standing in a border cell first steps to the walkable cell it snapped to.
        let first = usize::from(grid.cell_of(from) == start);
        let mut points: Vec<Vec2> = cells[first..].iter().map(|&c| grid.center(c)).collect();
        match points.last_mut() {
            Some(last) => *last = to,
            None => points.push(to),
        }
        Some(points)
    }

    fn node(&self, c: Cell) -> u32 {
        self.grid.index(c) as u32
    }

    fn cells(&self, nodes: Vec<u32>) -> Vec<Cell> {
        nodes.into_iter().map(|n| self.grid.cell_at(n as usize)).collect()
    }

    fn grid_cells(&self, scratch: &mut SearchScratch, start: Cell, goal: Cell) -> Option<Vec<Cell>> {
        let nodes = scratch.search(&GridGraph(&self.grid), self.node(start), self.node(goal))?;
        Some(turning_points(&self.cells(nodes)))
    }

    /// The quadtree path as cells: the start, then for each leaf crossing the cell before and the
    /// cell after the shared side, then the goal. Consecutive cells always see each other.
    fn quadtree_cells(&self, scratch: &mut SearchScratch, start: Cell, goal: Cell) -> Option<Vec<Cell>> {
        let tree = self.quadtree.as_ref()?;
        let leaves = scratch.search(tree, tree.leaf_of(start)?, tree.leaf_of(goal)?)?;
        let mut cells = vec![start];
        for w in leaves.windows(2) {
            let (out, into) = tree.crossing_cells(w[0], w[1]);
            cells.extend([out, into]);
        }
        cells.push(goal);
        cells.dedup();
        Some(cells)
    }
}

/// Drops the cells of a 4-connected cell path where it goes straight on.
fn turning_points(cells: &[Cell]) -> Vec<Cell> {
    let mut out: Vec<Cell> = cells.first().copied().into_iter().collect();
    for w in cells.windows(3) {
        let (d1, d2) = ((w[1].0 - w[0].0, w[1].1 - w[0].1), (w[2].0 - w[1].0, w[2].1 - w[1].1));
        if d1 != d2 {
            out.push(w[1]);
        }
    }
    if cells.len() > 1 {
        out.push(cells[cells.len() - 1]);
    }
    out
}

/// Stria's smoothing: from the current waypoint, skip to the farthest following waypoint that is
/// still visible (scanning forward until the first one that is not), and repeat until the goal.
/// Consecutive input waypoints must see each other; the result then never crosses a
/// non-walkable cell.
pub fn smooth(grid: &OccupancyGrid, cells: &[Cell]) -> Vec<Cell> {
    let Some(&first) = cells.first() else {
        return Vec::new();
    };
    let mut out = vec![first];
    let mut anchor = 0;
    while anchor + 1 < cells.len() {
        let mut next = anchor + 1;
        while next + 1 < cells.len() && grid.line_of_sight(cells[anchor], cells[next + 1]) {
            next += 1;
        }
        out.push(cells[next]);
        anchor = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::sim::nav::occupancy::{CellState, supercover};

    fn bounds() -> Bounds {
        Bounds {
            min: Vec2::ZERO,
            max: Vec2::splat(20.0),
        }
    }

    fn obstacles(centres: &[(f32, f32, f32)]) -> Vec<Obstacle> {
        centres
            .iter()
            .map(|&(x, y, r)| Obstacle::Circle {
                center: Vec2::new(x, y),
                radius: r,
            })
            .collect()
    }

    /// True when every segment between consecutive points touches only non-occupied cells.
    fn crosses_nothing(grid: &OccupancyGrid, from: Vec2, points: &[Vec2]) -> bool {
        let mut prev = grid.cell_of(from);
        points[..points.len() - 1].iter().all(|p| {
            let c = grid.cell_of(*p);
            let mut ok = true;
            supercover(prev, c, |q| {
                ok &= grid.state(q) != CellState::Occupied;
                ok
            });
            prev = c;
            ok
        })
    }

    proptest! {
        #![proptest_config(crate::test_rng::fixed_cases(48, 0x00C0_FFEE))]
        #[test]
        fn smoothed_paths_never_cross_an_occupied_cell(
            discs in proptest::collection::vec((2.0f32..18.0, 2.0f32..18.0, 0.3f32..2.5), 1..12),
            kind in prop_oneof![Just(PlannerKind::Grid), Just(PlannerKind::Quadtree), Just(PlannerKind::AnyAngle)],
        ) {
            let map = NavMap::new(bounds(), &obstacles(&discs), 0.25, 0.3, kind);
            let (from, to) = (Vec2::new(0.5, 0.5), Vec2::new(19.5, 19.5));
            let mut scratch = SearchScratch::default();
            if let Some(points) = map.plan(&mut scratch, from, to) {
                prop_assert_eq!(*points.last().unwrap(), to);
                prop_assert!(crosses_nothing(map.grid(), from, &points));
                for p in &points[..points.len() - 1] {
                    prop_assert!(map.walkable(*p));
                }
            }
        }
    }

    #[test]
    fn staircase_is_smoothed_to_its_corners() {
        let grid = OccupancyGrid::new(Vec2::ZERO, Vec2::splat(5.0), 1.0);
        let stairs = [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2), (3, 3)];
        assert_eq!(smooth(&grid, &stairs), vec![(0, 0), (3, 3)]);
    }

    #[test]
    fn every_planner_goes_around_a_wall() {
        let wall = [Obstacle::Wall {
            a: Vec2::new(10.0, 0.0),
            b: Vec2::new(10.0, 15.0),
        }];
        for kind in [PlannerKind::Grid, PlannerKind::Quadtree, PlannerKind::AnyAngle] {
            let map = NavMap::new(bounds(), &wall, 0.25, 0.3, kind);
            let mut scratch = SearchScratch::default();
            let points = map
                .plan(&mut scratch, Vec2::new(5.0, 5.0), Vec2::new(15.0, 5.0))
                .unwrap();
            assert!(points.iter().any(|p| p.y > 15.0), "{kind:?}: {points:?}");
            assert!(points.len() <= 6, "{kind:?} is smoothed: {points:?}");
            let length: f32 = std::iter::once(Vec2::new(5.0, 5.0))
                .chain(points.iter().copied())
                .collect::<Vec<_>>()
                .windows(2)
                .map(|w| w[0].distance(w[1]))
                .sum();
            // The shortest way round the wall's end is 2 · √(5² + 10²) ≈ 22.4 m.
            assert!(length < 24.5, "{kind:?} length {length}");
        }
    }
}
