//! Stria's grid map (§1.4): a square grid over the world whose cells are *occupied* (an obstacle
//! reaches into the cell), *border* (free, but within the border width — the agent radius — of an
//! occupied cell, so planning may not cross it) or *walkable*.
//!
//! Rasterisation rules: a circle or polygon occupies the cells whose centre lies inside it (so a
//! circle covers ≈ π/4 of its bounding square) plus, for polygons, the cells an edge passes within
//! half a cell of (thin polygons are never lost); a wall occupies the cells its segment comes
//! within half a cell of. Moving obstacles are dynamic and left to local avoidance.

use glam::Vec2;

use crate::geom::{distance_to_segment, point_in_polygon, polygon_edges};
use crate::scene::Obstacle;

/// The state of one grid cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellState {
    /// Free and far enough from obstacles for an agent's centre.
    Walkable,
    /// Free, but closer than the border width to an occupied cell.
    Border,
    /// An obstacle reaches into the cell.
    Occupied,
}

/// Integer cell coordinates (column, row).
pub type Cell = (i32, i32);

/// The occupancy grid of a rectangular area.
#[derive(Clone, Debug)]
pub struct OccupancyGrid {
    origin: Vec2,
    cell_size: f32,
    cols: i32,
    rows: i32,
    cells: Vec<CellState>,
}

impl OccupancyGrid {
    /// An all-walkable grid covering the rectangle `min`–`max` with square cells of `cell_size` metres.
    pub fn new(min: Vec2, max: Vec2, cell_size: f32) -> OccupancyGrid {
        let size = (max - min).max(Vec2::splat(cell_size));
        let cols = (size.x / cell_size).ceil().max(1.0) as i32;
        let rows = (size.y / cell_size).ceil().max(1.0) as i32;
        OccupancyGrid {
            origin: min,
            cell_size,
            cols,
            rows,
            cells: vec![CellState::Walkable; (cols * rows) as usize],
        }
    }

    /// The grid of `min`–`max` with every static obstacle rasterised and a border of
    /// `border_width` metres marked around the occupied cells.
    pub fn from_obstacles(min: Vec2, max: Vec2, cell_size: f32, obstacles: &[Obstacle], border_width: f32) -> Self {
        let mut grid = OccupancyGrid::new(min, max, cell_size);
        for o in obstacles {
            grid.rasterise(o);
        }
        grid.mark_border(border_width);
        grid
    }

    /// Number of columns.
    pub fn cols(&self) -> i32 {
        self.cols
    }

    /// Number of rows.
    pub fn rows(&self) -> i32 {
        self.rows
    }

    /// Edge length of a cell in metres.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Total number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// True for a grid without cells (never produced by the constructors).
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// True when `c` lies inside the grid.
    pub fn contains(&self, c: Cell) -> bool {
        c.0 >= 0 && c.1 >= 0 && c.0 < self.cols && c.1 < self.rows
    }

    /// Linear index of an in-grid cell.
    pub fn index(&self, c: Cell) -> usize {
        (c.1 * self.cols + c.0) as usize
    }

    /// The cell of a linear index.
    pub fn cell_at(&self, index: usize) -> Cell {
        (index as i32 % self.cols, index as i32 / self.cols)
    }

    /// State of a cell; cells outside the grid count as occupied.
    pub fn state(&self, c: Cell) -> CellState {
        if self.contains(c) {
            self.cells[self.index(c)]
        } else {
            CellState::Occupied
        }
    }

    /// True when an agent's centre may be planned through `c`.
    pub fn walkable(&self, c: Cell) -> bool {
        self.state(c) == CellState::Walkable
    }

    /// The cell containing `p` (possibly outside the grid).
    pub fn cell_of(&self, p: Vec2) -> Cell {
        let q = (p - self.origin) / self.cell_size;
        (q.x.floor() as i32, q.y.floor() as i32)
    }

    /// World position of a cell's centre.
    pub fn center(&self, c: Cell) -> Vec2 {
        self.origin + (Vec2::new(c.0 as f32, c.1 as f32) + 0.5) * self.cell_size
    }

    /// Number of cells in each state: (walkable, border, occupied).
    pub fn counts(&self) -> (usize, usize, usize) {
        self.cells.iter().fold((0, 0, 0), |(w, b, o), s| match s {
            CellState::Walkable => (w + 1, b, o),
            CellState::Border => (w, b + 1, o),
            CellState::Occupied => (w, b, o + 1),
        })
    }

    /// Marks the cells `obstacle` reaches into as occupied (moving obstacles are skipped).
    pub fn rasterise(&mut self, obstacle: &Obstacle) {
        let half = self.cell_size * 0.5;
        match obstacle {
            Obstacle::Circle { center, radius } => {
                let r2 = radius * radius;
                self.mark_in_box(*center - *radius, *center + *radius, |p| {
                    p.distance_squared(*center) <= r2
                });
                self.occupy(self.cell_of(*center));
            }
            Obstacle::Polygon { vertices } => {
                let (lo, hi) = bounding_box(vertices);
                self.mark_in_box(lo - half, hi + half, |p| {
                    point_in_polygon(p, vertices)
                        || polygon_edges(vertices).any(|(a, b)| distance_to_segment(p, a, b) < half)
                });
            }
            Obstacle::Wall { a, b } => {
                self.mark_in_box(a.min(*b) - half, a.max(*b) + half, |p| {
                    distance_to_segment(p, *a, *b) <= half
                });
            }
            Obstacle::MovingCircle { .. } => {}
        }
    }

    fn occupy(&mut self, c: Cell) {
        if self.contains(c) {
            let i = self.index(c);
            self.cells[i] = CellState::Occupied;
        }
    }

    /// Occupies every cell of the box `lo`–`hi` whose centre satisfies `inside`.
    fn mark_in_box(&mut self, lo: Vec2, hi: Vec2, inside: impl Fn(Vec2) -> bool) {
        let (c0, c1) = (self.cell_of(lo), self.cell_of(hi));
        for row in c0.1.max(0)..=c1.1.min(self.rows - 1) {
            for col in c0.0.max(0)..=c1.0.min(self.cols - 1) {
                if inside(self.center((col, row))) {
                    self.occupy((col, row));
                }
            }
        }
    }

    /// Marks free cells whose centre lies within `width` metres of an occupied cell's centre as border.
    pub fn mark_border(&mut self, width: f32) {
        let reach = (width / self.cell_size).ceil() as i32;
        if reach <= 0 {
            return;
        }
        let limit = (width / self.cell_size).powi(2) + 1e-3;
        let stamp: Vec<Cell> = (-reach..=reach)
            .flat_map(|dy| (-reach..=reach).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| (dx * dx + dy * dy) as f32 <= limit)
            .collect();
        let occupied: Vec<Cell> = (0..self.cells.len())
            .filter(|&i| self.cells[i] == CellState::Occupied)
            .map(|i| self.cell_at(i))
            .collect();
        for (x, y) in occupied {
            // Only cells next to a free cell can have free cells in their neighbourhood.
            let edge = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .any(|(dx, dy)| self.contains((x + dx, y + dy)) && self.state((x + dx, y + dy)) != CellState::Occupied);
            if !edge {
                continue;
            }
            for &(dx, dy) in &stamp {
                let c = (x + dx, y + dy);
                if self.contains(c) {
                    let i = self.index(c);
                    if self.cells[i] == CellState::Walkable {
                        self.cells[i] = CellState::Border;
                    }
                }
            }
        }
    }

    /// The walkable cell nearest to `c` (by ring distance) that can be reached from `c` in a
    /// straight line without crossing an occupied cell, searching at most `max_rings` rings.
    /// (An agent pressed against a wall snaps to its own side of the wall.)
    pub fn nearest_walkable(&self, c: Cell, max_rings: i32) -> Option<Cell> {
        if self.walkable(c) {
            return Some(c);
        }
        let reachable = |q: Cell| {
            let mut clear = true;
            supercover(c, q, |x| {
                clear &= self.state(x) != CellState::Occupied || x == c;
                clear
            });
            clear
        };
        for ring in 1..=max_rings {
            let mut best: Option<(i32, Cell)> = None;
            for dy in -ring..=ring {
                for dx in -ring..=ring {
                    if dx.abs() != ring && dy.abs() != ring {
                        continue;
                    }
                    let q = (c.0 + dx, c.1 + dy);
                    let d = dx * dx + dy * dy;
                    if self.walkable(q) && best.is_none_or(|(bd, _)| d < bd) && reachable(q) {
                        best = Some((d, q));
                    }
                }
            }
            if let Some((_, q)) = best {
                return Some(q);
            }
        }
        None
    }

    /// True when the straight segment between the centres of `a` and `b` passes only through
    /// walkable cells, apart from the two end cells, which must merely not be occupied. Every cell
    /// the segment touches is visited (a supercover traversal), so no corner is cut.
    pub fn line_of_sight(&self, a: Cell, b: Cell) -> bool {
        if self.state(a) == CellState::Occupied || self.state(b) == CellState::Occupied {
            return false;
        }
        let mut ok = true;
        supercover(a, b, |c| {
            if c != a && c != b && !self.walkable(c) {
                ok = false;
            }
            ok
        });
        ok
    }
}

/// Visits every cell the segment between the centres of `a` and `b` touches, in order, while
/// `visit` returns true. Where the segment passes exactly through a cell corner, both cells
/// beside the corner are visited.
pub fn supercover(a: Cell, b: Cell, mut visit: impl FnMut(Cell) -> bool) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (nx, ny) = (dx.abs(), dy.abs());
    let (sx, sy) = (dx.signum(), dy.signum());
    let (mut x, mut y) = a;
    if !visit((x, y)) {
        return;
    }
    let (mut ix, mut iy) = (0, 0);
    while ix < nx || iy < ny {
        // Compare (0.5 + ix) / nx with (0.5 + iy) / ny without division.
        let decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
        if decision == 0 {
            if !visit((x + sx, y)) || !visit((x, y + sy)) {
                return;
            }
            x += sx;
            y += sy;
            ix += 1;
            iy += 1;
        } else if decision < 0 {
            x += sx;
            ix += 1;
        } else {
            y += sy;
            iy += 1;
        }
        if !visit((x, y)) {
            return;
        }
    }
}

fn bounding_box(points: &[Vec2]) -> (Vec2, Vec2) {
    points.iter().fold(
        (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)),
        |(lo, hi), v| (lo.min(*v), hi.max(*v)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circle_covers_about_a_quarter_pi_of_its_bounding_square() {
        let mut grid = OccupancyGrid::new(Vec2::ZERO, Vec2::splat(10.0), 0.05);
        grid.rasterise(&Obstacle::Circle {
            center: Vec2::splat(5.0),
            radius: 2.0,
        });
        let (_, _, occupied) = grid.counts();
        let ratio = occupied as f32 * 0.05 * 0.05 / 16.0;
        assert!((ratio - std::f32::consts::FRAC_PI_4).abs() < 0.01, "ratio {ratio}");
        assert_eq!(grid.state(grid.cell_of(Vec2::splat(5.0))), CellState::Occupied);
        assert_eq!(grid.state(grid.cell_of(Vec2::new(7.2, 5.0))), CellState::Walkable);
    }

    #[test]
    fn grid_aligned_rectangle_occupies_exactly_its_cells() {
        let mut grid = OccupancyGrid::new(Vec2::ZERO, Vec2::splat(4.0), 0.25);
        let rect = [
            Vec2::new(1.0, 1.0),
            Vec2::new(3.0, 1.0),
            Vec2::new(3.0, 2.0),
            Vec2::new(1.0, 2.0),
        ];
        grid.rasterise(&Obstacle::Polygon {
            vertices: rect.to_vec(),
        });
        assert_eq!(grid.counts().2, 8 * 4);
        assert_eq!(grid.state(grid.cell_of(Vec2::new(1.1, 1.1))), CellState::Occupied);
        assert_eq!(grid.state(grid.cell_of(Vec2::new(0.9, 1.1))), CellState::Walkable);
    }

    #[test]
    fn triangle_area_matches_and_thin_wall_is_never_lost() {
        let mut grid = OccupancyGrid::new(Vec2::ZERO, Vec2::splat(10.0), 0.05);
        let tri = vec![Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0), Vec2::new(1.0, 7.0)];
        grid.rasterise(&Obstacle::Polygon { vertices: tri });
        // The area plus the half-cell band outside the edges (perimeter 24 m × 2.5 cm).
        let area = grid.counts().2 as f32 * 0.0025;
        assert!((area - 24.6).abs() < 0.4, "area {area}");
        let mut walls = OccupancyGrid::new(Vec2::ZERO, Vec2::splat(4.0), 0.25);
        walls.rasterise(&Obstacle::Wall {
            a: Vec2::new(0.3, 0.3),
            b: Vec2::new(3.7, 2.9),
        });
        // The 4-connected walk from one side of the wall to the other must meet an occupied cell.
        let mut blocked = false;
        supercover(
            walls.cell_of(Vec2::new(0.5, 3.5)),
            walls.cell_of(Vec2::new(3.5, 0.5)),
            |c| {
                blocked |= walls.state(c) == CellState::Occupied;
                true
            },
        );
        assert!(blocked);
    }

    #[test]
    fn border_surrounds_occupied_cells_by_the_border_width() {
        let grid = OccupancyGrid::from_obstacles(
            Vec2::ZERO,
            Vec2::splat(10.0),
            0.25,
            &[Obstacle::Circle {
                center: Vec2::splat(5.0),
                radius: 1.0,
            }],
            0.5,
        );
        assert_eq!(grid.state(grid.cell_of(Vec2::new(6.3, 5.1))), CellState::Border);
        assert_eq!(grid.state(grid.cell_of(Vec2::new(6.8, 5.1))), CellState::Walkable);
        assert_eq!(grid.len(), 1600);
        // Stria's example: 100 m × 100 m at 25 cm gives 160,000 cells.
        assert_eq!(OccupancyGrid::new(Vec2::ZERO, Vec2::splat(100.0), 0.25).len(), 160_000);
    }

    #[test]
    fn supercover_visits_both_cells_at_an_exact_corner() {
        let mut seen = Vec::new();
        supercover((0, 0), (2, 2), |c| {
            seen.push(c);
            true
        });
        assert_eq!(seen, vec![(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)]);
    }
}
