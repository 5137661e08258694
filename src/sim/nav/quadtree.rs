//! Stria's quadtree map (§1.4): walkable squares of different sizes over the grid, each walkable
//! leaf with its 4-neighbourhood (leaves sharing part of a side) as the planning graph.
//!
//! Built top-down over the power-of-two square that covers the grid — a node whose cells are all
//! walkable (or all non-walkable) is a leaf, any other node splits in four — which yields exactly
//! the leaves of Stria's bottom-up merging. Cells outside the grid (the padding up to the power of
//! two, a case the thesis leaves open) count as non-walkable; border cells are non-walkable.
//! Uniformity is tested in O(1) with a summed-area table of walkable cells.
//!
//! A* on the leaves (§1.5): the cost between adjacent leaves is the sum of their half edge lengths,
//! the heuristic the Chebyshev distance between centres (both in metres).

use glam::Vec2;

use super::astar::SearchGraph;
use super::occupancy::{Cell, OccupancyGrid};

/// A walkable square leaf: lower-left cell and edge length in cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// Lower-left cell.
    pub corner: Cell,
    /// Edge length in cells (a power of two).
    pub size: i32,
}

/// The walkable leaves of the quadtree and their adjacency.
pub struct Quadtree {
    leaves: Vec<Leaf>,
    /// Leaf index of every grid cell (`u32::MAX` for non-walkable cells).
    leaf_of_cell: Vec<u32>,
    /// `neighbours[start[i]..start[i + 1]]` are the leaves adjacent to leaf `i`.
    start: Vec<u32>,
    neighbours: Vec<u32>,
    cols: i32,
    cell_size: f32,
    origin: Vec2,
}

/// No leaf (a non-walkable cell).
const NONE: u32 = u32::MAX;

impl Quadtree {
    /// Builds the quadtree of `grid`'s walkable cells.
    pub fn new(grid: &OccupancyGrid) -> Quadtree {
        let (cols, rows) = (grid.cols(), grid.rows());
        let mut side = 1;
        while side < cols.max(rows) {
            side *= 2;
        }
        // sums[(y) * (cols + 1) + x] = walkable cells in [0, x) × [0, y).
        let w = (cols + 1) as usize;
        let mut sums = vec![0u32; w * (rows + 1) as usize];
        for y in 0..rows {
            for x in 0..cols {
                let here = u32::from(grid.walkable((x, y)));
                let i = (y + 1) as usize * w + (x + 1) as usize;
                sums[i] = here + sums[i - 1] + sums[i - w] - sums[i - w - 1];
            }
        }
        let walkable_in = |x0: i32, y0: i32, size: i32| -> u32 {
            let (x1, y1) = ((x0 + size).min(cols) as usize, (y0 + size).min(rows) as usize);
            let (x0, y0) = (x0.min(cols) as usize, y0.min(rows) as usize);
            sums[y1 * w + x1] + sums[y0 * w + x0] - sums[y0 * w + x1] - sums[y1 * w + x0]
        };
        let mut leaves = Vec::new();
        let mut stack = vec![(0, 0, side)];
        while let Some((x, y, size)) = stack.pop() {
            let free = walkable_in(x, y, size);
            if free == 0 {
                continue;
            }
            if free as i64 == i64::from(size) * i64::from(size) {
                leaves.push(Leaf { corner: (x, y), size });
            } else {
                let h = size / 2;
                stack.extend([(x + h, y + h), (x, y + h), (x + h, y), (x, y)].map(|(a, b)| (a, b, h)));
            }
        }
        leaves.sort_by_key(|l| (l.corner.1, l.corner.0));
        let mut leaf_of_cell = vec![NONE; grid.len()];
        for (i, l) in leaves.iter().enumerate() {
            for y in l.corner.1..l.corner.1 + l.size {
                for x in l.corner.0..l.corner.0 + l.size {
                    leaf_of_cell[(y * cols + x) as usize] = i as u32;
                }
            }
        }
        let mut tree = Quadtree {
            leaves,
            leaf_of_cell,
            start: Vec::new(),
            neighbours: Vec::new(),
            cols,
            cell_size: grid.cell_size(),
            origin: grid.center((0, 0)) - grid.cell_size() * 0.5,
        };
        tree.link(rows);
        tree
    }

    /// Fills the adjacency lists by walking just outside each leaf's four sides.
    fn link(&mut self, rows: i32) {
        let mut found = Vec::new();
        self.start.push(0);
        for l in &self.leaves {
            found.clear();
            let (x0, y0, s) = (l.corner.0, l.corner.1, l.size);
            let outside = (0..s).flat_map(|k| [(x0 - 1, y0 + k), (x0 + s, y0 + k), (x0 + k, y0 - 1), (x0 + k, y0 + s)]);
            for (x, y) in outside {
                if x >= 0 && y >= 0 && x < self.cols && y < rows {
                    let n = self.leaf_of_cell[(y * self.cols + x) as usize];
                    if n != NONE && !found.contains(&n) {
                        found.push(n);
                    }
                }
            }
            found.sort_unstable();
            self.neighbours.extend_from_slice(&found);
            self.start.push(self.neighbours.len() as u32);
        }
    }

    /// The walkable leaves.
    pub fn leaves(&self) -> &[Leaf] {
        &self.leaves
    }

    /// The leaves adjacent to leaf `i`.
    pub fn neighbours_of(&self, i: u32) -> &[u32] {
        &self.neighbours[self.start[i as usize] as usize..self.start[i as usize + 1] as usize]
    }

    /// The leaf containing grid cell `c`, if the cell is walkable.
    pub fn leaf_of(&self, c: Cell) -> Option<u32> {
        if c.0 < 0 || c.1 < 0 || c.0 >= self.cols {
            return None;
        }
        self.leaf_of_cell
            .get((c.1 * self.cols + c.0) as usize)
            .copied()
            .filter(|&n| n != NONE)
    }

    /// World position of a leaf's centre.
    pub fn center(&self, i: u32) -> Vec2 {
        let l = self.leaves[i as usize];
        self.origin + (Vec2::new(l.corner.0 as f32, l.corner.1 as f32) + l.size as f32 * 0.5) * self.cell_size
    }

    /// The two 4-adjacent cells, one in leaf `a` and one in leaf `b`, at the middle of the side
    /// segment the adjacent leaves share (the crossing from `a` into `b`).
    pub fn crossing_cells(&self, a: u32, b: u32) -> (Cell, Cell) {
        let (la, lb) = (self.leaves[a as usize], self.leaves[b as usize]);
        let middle = |a0: i32, asz: i32, b0: i32, bsz: i32| {
            let (lo, hi) = (a0.max(b0), (a0 + asz).min(b0 + bsz));
            ((lo + hi) / 2).clamp(lo, hi - 1)
        };
        if la.corner.0 + la.size == lb.corner.0 || lb.corner.0 + lb.size == la.corner.0 {
            let y = middle(la.corner.1, la.size, lb.corner.1, lb.size);
            let step = if la.corner.0 < lb.corner.0 { 1 } else { -1 };
            let x = if step > 0 {
                la.corner.0 + la.size - 1
            } else {
                la.corner.0
            };
            ((x, y), (x + step, y))
        } else {
            let x = middle(la.corner.0, la.size, lb.corner.0, lb.size);
            let step = if la.corner.1 < lb.corner.1 { 1 } else { -1 };
            let y = if step > 0 {
                la.corner.1 + la.size - 1
            } else {
                la.corner.1
            };
            ((x, y), (x, y + step))
        }
    }
}

impl SearchGraph for Quadtree {
    fn node_count(&self) -> usize {
        self.leaves.len()
    }

    fn successors(&self, node: u32, out: &mut Vec<(u32, f32)>) {
        let half = |i: u32| self.leaves[i as usize].size as f32 * 0.5 * self.cell_size;
        out.extend(self.neighbours_of(node).iter().map(|&n| (n, half(node) + half(n))));
    }

    fn heuristic(&self, node: u32, goal: u32) -> f32 {
        let d = (self.center(node) - self.center(goal)).abs();
        d.x.max(d.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Obstacle;
    use crate::sim::nav::astar::SearchScratch;

    #[test]
    fn free_square_collapses_to_one_root_leaf() {
        let grid = OccupancyGrid::new(Vec2::ZERO, Vec2::splat(4.0), 0.25);
        let tree = Quadtree::new(&grid);
        assert_eq!(
            tree.leaves(),
            &[Leaf {
                corner: (0, 0),
                size: 16
            }]
        );
    }

    #[test]
    fn leaves_cover_exactly_the_walkable_cells_and_neighbours_touch() {
        let grid = OccupancyGrid::from_obstacles(
            Vec2::ZERO,
            Vec2::new(10.0, 7.0),
            0.25,
            &[
                Obstacle::Circle {
                    center: Vec2::new(4.0, 3.0),
                    radius: 1.3,
                },
                Obstacle::Wall {
                    a: Vec2::new(7.0, 0.0),
                    b: Vec2::new(7.0, 5.0),
                },
            ],
            0.3,
        );
        let tree = Quadtree::new(&grid);
        let covered: i32 = tree.leaves().iter().map(|l| l.size * l.size).sum();
        assert_eq!(covered as usize, grid.counts().0);
        for i in 0..tree.leaves().len() as u32 {
            for &n in tree.neighbours_of(i) {
                assert!(tree.neighbours_of(n).contains(&i), "adjacency is symmetric");
                let (a, b) = (tree.leaves()[i as usize], tree.leaves()[n as usize]);
                let gap_x = (a.corner.0 - (b.corner.0 + b.size)).max(b.corner.0 - (a.corner.0 + a.size));
                let gap_y = (a.corner.1 - (b.corner.1 + b.size)).max(b.corner.1 - (a.corner.1 + a.size));
                assert!(
                    gap_x.max(gap_y) == 0 && gap_x.min(gap_y) < 0,
                    "leaves share part of a side"
                );
            }
        }
        // A path exists around the wall's free end, and the quadtree searches far fewer nodes.
        let mut scratch = SearchScratch::default();
        let from = tree.leaf_of(grid.cell_of(Vec2::new(1.0, 1.0))).unwrap();
        let to = tree.leaf_of(grid.cell_of(Vec2::new(9.0, 1.0))).unwrap();
        let path = scratch.search(&tree, from, to).unwrap();
        assert!(path.iter().any(|&n| tree.center(n).y > 5.0));
        assert!(tree.leaves().len() < grid.counts().0 / 4);
    }
}
