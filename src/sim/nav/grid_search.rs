//! The occupancy grid as an A* search graph, in two flavours:
//!
//! - [`GridGraph`]: Stria's grid A* — walkable cells, 4-neighbourhood, each step costs one cell,
//!   heuristic the Chebyshev distance of the cell indices (admissible, exact along the axes);
//! - [`AnyAngleGraph`]: Theta* — 8-neighbourhood (no corner cutting), Euclidean costs and
//!   heuristic, and a successor is linked straight to its grandparent whenever the grid gives
//!   line of sight, so paths run at any angle. This is crowdlab's any-angle planner (see
//!   [`super`] for why it stands in for a navigation-mesh planner).
//!
//! Node `i` is the cell with linear index `i`; costs are in metres.

use super::astar::SearchGraph;
use super::occupancy::{Cell, OccupancyGrid};

/// 4-connected grid A* (Stria §1.5).
pub struct GridGraph<'a>(pub &'a OccupancyGrid);

impl SearchGraph for GridGraph<'_> {
    fn node_count(&self) -> usize {
        self.0.len()
    }

    fn successors(&self, node: u32, out: &mut Vec<(u32, f32)>) {
        let grid = self.0;
        let (x, y) = grid.cell_at(node as usize);
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let c = (x + dx, y + dy);
            if grid.walkable(c) {
                out.push((grid.index(c) as u32, grid.cell_size()));
            }
        }
    }

    fn heuristic(&self, node: u32, goal: u32) -> f32 {
        let (a, b) = (self.0.cell_at(node as usize), self.0.cell_at(goal as usize));
        chebyshev(a, b) as f32 * self.0.cell_size()
    }
}

/// 8-connected Theta* on the grid.
pub struct AnyAngleGraph<'a>(pub &'a OccupancyGrid);

impl SearchGraph for AnyAngleGraph<'_> {
    fn node_count(&self) -> usize {
        self.0.len()
    }

    fn successors(&self, node: u32, out: &mut Vec<(u32, f32)>) {
        let grid = self.0;
        let (x, y) = grid.cell_at(node as usize);
        let size = grid.cell_size();
        for dy in -1..=1 {
            for dx in -1..=1 {
                let c = (x + dx, y + dy);
                if (dx, dy) == (0, 0) || !grid.walkable(c) {
                    continue;
                }
                let diagonal = dx != 0 && dy != 0;
                if diagonal && !(grid.walkable((x + dx, y)) && grid.walkable((x, y + dy))) {
                    continue;
                }
                let cost = if diagonal {
                    size * std::f32::consts::SQRT_2
                } else {
                    size
                };
                out.push((grid.index(c) as u32, cost));
            }
        }
    }

    fn heuristic(&self, node: u32, goal: u32) -> f32 {
        self.0
            .center(self.0.cell_at(node as usize))
            .distance(self.0.center(self.0.cell_at(goal as usize)))
    }

    fn shortcut(&self, from: u32, to: u32) -> Option<f32> {
        let (a, b) = (self.0.cell_at(from as usize), self.0.cell_at(to as usize));
        self.0
            .line_of_sight(a, b)
            .then(|| self.0.center(a).distance(self.0.center(b)))
    }
}

/// Chebyshev (maximum) distance between two cells.
pub fn chebyshev(a: Cell, b: Cell) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

#[cfg(test)]
mod tests {
    use glam::Vec2;
    use proptest::prelude::*;

    use super::*;
    use crate::sim::nav::astar::SearchScratch;

    /// Breadth-first distance (in steps) on the 4-connected walkable cells, the reference optimum.
    fn bfs_steps(grid: &OccupancyGrid, start: Cell, goal: Cell) -> Option<usize> {
        let mut dist = vec![usize::MAX; grid.len()];
        let mut queue = std::collections::VecDeque::from([start]);
        dist[grid.index(start)] = 0;
        while let Some(c) = queue.pop_front() {
            if c == goal {
                return Some(dist[grid.index(c)]);
            }
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let n = (c.0 + dx, c.1 + dy);
                if grid.walkable(n) && dist[grid.index(n)] == usize::MAX {
                    dist[grid.index(n)] = dist[grid.index(c)] + 1;
                    queue.push_back(n);
                }
            }
        }
        None
    }

    fn random_grid(blocked: &[bool]) -> OccupancyGrid {
        let mut grid = OccupancyGrid::new(Vec2::ZERO, Vec2::splat(8.0), 1.0);
        for (i, &b) in blocked.iter().enumerate() {
            if b {
                let c = grid.cell_at(i);
                grid.rasterise(&crate::scene::Obstacle::Circle {
                    center: grid.center(c),
                    radius: 0.1,
                });
            }
        }
        grid
    }

    proptest! {
        #[test]
        fn grid_astar_is_optimal_on_small_grids(blocked in proptest::collection::vec(proptest::bool::weighted(0.3), 64)) {
            let grid = random_grid(&blocked);
            let (start, goal) = ((0, 0), (7, 7));
            prop_assume!(grid.walkable(start) && grid.walkable(goal));
            let mut scratch = SearchScratch::default();
            let found = scratch.search(&GridGraph(&grid), grid.index(start) as u32, grid.index(goal) as u32);
            let reference = bfs_steps(&grid, start, goal);
            prop_assert_eq!(found.as_ref().map(|p| p.len() - 1), reference);
            if let Some(path) = found {
                for w in path.windows(2) {
                    let (a, b) = (grid.cell_at(w[0] as usize), grid.cell_at(w[1] as usize));
                    prop_assert_eq!((a.0 - b.0).abs() + (a.1 - b.1).abs(), 1);
                    prop_assert!(grid.walkable(b));
                }
            }
        }
    }

    #[test]
    fn any_angle_path_goes_straight_in_open_space() {
        let grid = OccupancyGrid::new(Vec2::ZERO, Vec2::splat(10.0), 0.5);
        let mut scratch = SearchScratch::default();
        let (a, b) = (grid.index((0, 0)) as u32, grid.index((19, 7)) as u32);
        let path = scratch.search(&AnyAngleGraph(&grid), a, b).unwrap();
        assert_eq!(path, vec![a, b]);
        let straight = grid.center((0, 0)).distance(grid.center((19, 7)));
        assert!((scratch.cost(b) - straight).abs() < 1e-4);
    }
}
