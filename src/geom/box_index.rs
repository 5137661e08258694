//! A static index over axis-aligned boxes answering "which boxes overlap this one?" without
//! scanning them all: a hierarchy of uniform grids whose cell sizes double from [`BASE_CELL`].
//! Each box is stored in the first level whose cells are larger than the box, so it
//! sits in at most four cells and the index takes memory linear in the boxes whatever their
//! sizes. A level keeps its cells as one sorted list of (row, column, box), so a query reads one
//! slice per row it covers; a query covering more cells than a level holds boxes scans that
//! level's boxes instead, so no query costs much more than a scan (a small index is always
//! scanned). Boxes with an infinite side are
//! tested by every query; boxes with a NaN corner or min above max never match.

use glam::Vec2;

/// Side (metres) of the cells of the finest level: about the size of a body.
pub const BASE_CELL: f64 = 1.0;

/// Up to this many boxes a query simply tests them all (faster than the grids).
const SCAN_UP_TO: usize = 32;

/// The boxes stored at one cell size.
struct Level {
    /// Its number: cells of `BASE_CELL · 2^level`.
    level: u32,
    /// Side of its cells (metres).
    cell: f64,
    /// (row, column, box index) of every cell one of its boxes touches, sorted.
    cells: Vec<(i64, i64, u32)>,
    /// The indices of the boxes stored at this level.
    boxes: Vec<u32>,
}

/// Axis-aligned boxes indexed for overlap queries.
pub struct BoxIndex {
    boxes: Vec<(Vec2, Vec2)>,
    levels: Vec<Level>,
    unbounded: Vec<u32>,
}

/// The cell (row or column) holding coordinate `v` for cells of side `cell` (saturating).
fn cell_of(v: f32, cell: f64) -> i64 {
    (f64::from(v) / cell).floor() as i64
}

/// The side (metres) of the cells of level `level`.
fn cell_size(level: u32) -> f64 {
    BASE_CELL * 2f64.powi(level as i32)
}

/// The first level whose cells are wider than `extent` metres (so a box of that extent spans at
/// most two cells each way).
fn level_for(extent: f64) -> u32 {
    let mut level = 0;
    while cell_size(level) <= extent {
        level += 1;
    }
    level
}

impl BoxIndex {
    /// Indexes `boxes` (each `(min, max)`); query answers are positions in this list.
    pub fn new(boxes: Vec<(Vec2, Vec2)>) -> BoxIndex {
        let mut unbounded = Vec::new();
        let mut stored: Vec<(u32, u32)> = Vec::new();
        for (i, &(min, max)) in boxes.iter().enumerate() {
            if min.is_nan() || max.is_nan() || min.cmpgt(max).any() {
                continue;
            }
            if !(min.is_finite() && max.is_finite()) {
                unbounded.push(i as u32);
                continue;
            }
            let size = max - min;
            let extent = f64::from(size.x).max(f64::from(size.y));
            stored.push((level_for(extent), i as u32));
        }
        stored.sort_unstable();
        let mut levels: Vec<Level> = Vec::new();
        for (level, i) in stored {
            if levels.last().is_none_or(|l| l.level != level) {
                levels.push(Level {
                    level,
                    cell: cell_size(level),
                    cells: Vec::new(),
                    boxes: Vec::new(),
                });
            }
            let at = levels.last_mut().expect("a level was just pushed");
            let (min, max) = boxes[i as usize];
            for row in cell_of(min.y, at.cell)..=cell_of(max.y, at.cell) {
                for column in cell_of(min.x, at.cell)..=cell_of(max.x, at.cell) {
                    at.cells.push((row, column, i));
                }
            }
            at.boxes.push(i);
        }
        for level in &mut levels {
            level.cells.sort_unstable();
        }
        BoxIndex {
            boxes,
            levels,
            unbounded,
        }
    }

    /// Fills `out` (cleared first) with the index of every box overlapping or touching the box
    /// `min`–`max`, ascending and without repeats (none when the query has a NaN corner).
    pub fn query(&self, min: Vec2, max: Vec2, out: &mut Vec<u32>) {
        out.clear();
        if min.is_nan() || max.is_nan() || min.cmpgt(max).any() {
            return;
        }
        let overlaps = |i: u32| {
            let (lo, hi) = self.boxes[i as usize];
            lo.cmple(hi).all() && lo.cmple(max).all() && min.cmple(hi).all()
        };
        if self.boxes.len() <= SCAN_UP_TO {
            out.extend((0..self.boxes.len() as u32).filter(|&i| overlaps(i)));
            return;
        }
        for level in &self.levels {
            let (x0, x1) = (cell_of(min.x, level.cell), cell_of(max.x, level.cell));
            let (y0, y1) = (cell_of(min.y, level.cell), cell_of(max.y, level.cell));
            let covered = (i128::from(x1) - i128::from(x0) + 1).saturating_mul(i128::from(y1) - i128::from(y0) + 1);
            if covered > level.boxes.len() as i128 {
                out.extend(level.boxes.iter().copied().filter(|&i| overlaps(i)));
                continue;
            }
            for row in y0..=y1 {
                let start = level.cells.partition_point(|&(r, c, _)| (r, c) < (row, x0));
                let end = level.cells.partition_point(|&(r, c, _)| (r, c) <= (row, x1));
                out.extend(level.cells[start..end].iter().map(|e| e.2).filter(|&i| overlaps(i)));
            }
        }
        out.extend(self.unbounded.iter().copied().filter(|&i| overlaps(i)));
        out.sort_unstable();
        out.dedup();
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

    use super::*;

    /// The answer of a scan over every box (an inverted box holds nothing).
    fn scanned(boxes: &[(Vec2, Vec2)], min: Vec2, max: Vec2) -> Vec<u32> {
        (0..boxes.len() as u32)
            .filter(|&i| {
                let (lo, hi) = boxes[i as usize];
                lo.cmple(hi).all() && lo.cmple(max).all() && min.cmple(hi).all()
            })
            .collect()
    }

    #[test]
    fn queries_find_exactly_the_overlapping_boxes_of_every_size() {
        let mut rng = Pcg32::seed_from_u64(17);
        let special = [
            (Vec2::NEG_INFINITY, Vec2::INFINITY),
            (Vec2::new(f32::NEG_INFINITY, 5.0), Vec2::new(f32::INFINITY, 6.0)),
            (Vec2::NAN, Vec2::ONE),
            (Vec2::ONE, Vec2::ZERO),
        ];
        let random: Vec<(Vec2, Vec2)> = (0..3000)
            .map(|_| {
                let p = Vec2::new(rng.random_range(-200.0..200.0), rng.random_range(-200.0..200.0));
                // Sizes from a centimetre to a few hundred metres, some flat (walls).
                let size = Vec2::new(rng.random_range(0.0..1.0), rng.random_range(0.0..1.0))
                    * 10f32.powf(rng.random_range(-2.0..2.5));
                (p, p + size)
            })
            .collect();
        // A large index (grids) and a small one (scanned).
        for many in [3000, 20] {
            let boxes: Vec<(Vec2, Vec2)> = special.iter().chain(&random[..many]).copied().collect();
            let index = BoxIndex::new(boxes.clone());
            let mut out = Vec::new();
            for _ in 0..2000 {
                let p = Vec2::new(rng.random_range(-220.0..220.0), rng.random_range(-220.0..220.0));
                let size = Vec2::splat(10f32.powf(rng.random_range(-2.0..2.7)));
                index.query(p, p + size, &mut out);
                assert!(out == scanned(&boxes, p, p + size), "{many} boxes, query {p} + {size}");
            }
            index.query(Vec2::NAN, Vec2::ONE, &mut out);
            assert!(out.is_empty());
            index.query(Vec2::NEG_INFINITY, Vec2::INFINITY, &mut out);
            assert_eq!(out.len(), boxes.len() - 2, "all but the NaN and the inverted box");
        }
    }

    #[test]
    fn boxes_sit_in_at_most_four_cells_whatever_their_size() {
        let boxes: Vec<(Vec2, Vec2)> = (0..100)
            .map(|i| (Vec2::splat(-0.3), Vec2::splat(2f32.powi(i) - 0.3)))
            .collect();
        let index = BoxIndex::new(boxes);
        let stored: usize = index.levels.iter().map(|l| l.cells.len()).sum();
        assert!(stored <= 400, "{stored} cells for 100 boxes");
        let mut out = Vec::new();
        index.query(Vec2::splat(1e20), Vec2::splat(1e20), &mut out);
        assert_eq!(out, (67..100).collect::<Vec<u32>>());
    }
}
