//! The index of the frame's contact check: a uniform grid whose cells are as wide as the longest
//! distance at which two agents can touch (twice the largest radius), hashed into about twice as
//! many buckets as agents, so the memory follows the crowd, not the scene's bounds. A row of cells
//! hashes to consecutive buckets, so the 3 × 3 cells around an agent are three runs of entries —
//! a few agents each, however coarse the scene's own neighbour grid is.

use glam::Vec2;

/// Agents bucketed by cell, each keeping its row so that rows sharing buckets are told apart.
#[derive(Debug, Default)]
pub struct ContactGrid {
    /// 1 / cell width.
    inv_cell: f32,
    /// `bucket_start[b]..bucket_start[b + 1]` indexes the entries of bucket `b`; the number of
    /// buckets is a power of two.
    bucket_start: Vec<u32>,
    /// The agents, grouped by bucket, in input order within a bucket.
    entries: Vec<Entry>,
    /// Buffers of the counting sort, kept for the next rebuild: the agents in input order, the
    /// bucket of each, and each bucket's next free slot.
    staged: Vec<Entry>,
    bucket_of: Vec<u32>,
    next: Vec<u32>,
}

/// One indexed agent.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// Its row of cells.
    row: i32,
    /// Its index.
    id: u32,
    /// Its position.
    point: Vec2,
    /// Its radius.
    radius: f32,
}

impl ContactGrid {
    /// Indexes `(agent index, position, radius)` triples of agents whose radii are at most
    /// `max_radius` (none when that is not positive: points never touch).
    pub fn new(max_radius: f32, items: impl Iterator<Item = (u32, Vec2, f32)>) -> ContactGrid {
        let mut grid = ContactGrid::default();
        grid.rebuild(max_radius, items);
        grid
    }

    /// Indexes `items` as [`ContactGrid::new`] does, in the memory of the last index: a large
    /// crowd's index takes the better part of a megabyte, which fresh each tick costs the
    /// operating system's page faults.
    pub fn rebuild(&mut self, max_radius: f32, items: impl Iterator<Item = (u32, Vec2, f32)>) {
        self.inv_cell = 0.5 / max_radius;
        self.entries.clear();
        if max_radius.is_nan() || max_radius <= 0.0 {
            return;
        }
        let inv_cell = self.inv_cell;
        self.staged.clear();
        self.staged.extend(items.map(|(id, point, radius)| Entry {
            row: floor_to_i32(point.y * inv_cell),
            id,
            point,
            radius,
        }));
        let buckets = (2 * self.staged.len()).next_power_of_two().max(4);
        self.bucket_of.clear();
        self.bucket_of.extend(
            self.staged
                .iter()
                .map(|e| bucket(floor_to_i32(e.point.x * inv_cell), e.row, buckets)),
        );
        let starts = &mut self.bucket_start;
        starts.clear();
        starts.resize(buckets + 1, 0);
        for &b in &self.bucket_of {
            starts[b as usize + 1] += 1;
        }
        for b in 1..=buckets {
            starts[b] += starts[b - 1];
        }
        // Each bucket's next free slot, then the entries placed in input order.
        self.next.clear();
        self.next.extend_from_slice(&starts[..buckets]);
        self.entries.resize(self.staged.len(), Entry::default());
        for (entry, &b) in self.staged.iter().zip(&self.bucket_of) {
            let slot = &mut self.next[b as usize];
            self.entries[*slot as usize] = *entry;
            *slot += 1;
        }
    }

    /// The column and row of the cell holding `p`.
    fn cell_of(&self, p: Vec2) -> (i32, i32) {
        (floor_to_i32(p.x * self.inv_cell), floor_to_i32(p.y * self.inv_cell))
    }

    /// Calls `visit(j, q, r)` for every indexed agent `j` at `q` with radius `r` in the 3 × 3
    /// cells around `p`: every agent that can touch a disc at `p` (and maybe some farther ones),
    /// each once.
    #[inline]
    pub fn around(&self, p: Vec2, mut visit: impl FnMut(u32, Vec2, f32)) {
        if self.entries.is_empty() {
            return;
        }
        let buckets = self.bucket_start.len() - 1;
        let (x, y) = self.cell_of(p);
        for row in [y.wrapping_sub(1), y, y.wrapping_add(1)] {
            // The row's three cells are three consecutive buckets, maybe wrapping past the last.
            let first = bucket(x.wrapping_sub(1), row, buckets) as usize;
            let runs = if first + 3 <= buckets {
                [first..first + 3, 0..0]
            } else {
                [first..buckets, 0..first + 3 - buckets]
            };
            for run in runs {
                let entries = self.bucket_start[run.start] as usize..self.bucket_start[run.end] as usize;
                for e in &self.entries[entries] {
                    if e.row == row {
                        visit(e.id, e.point, e.radius);
                    }
                }
            }
        }
    }
}

/// The bucket of cell (`x`, `y`) among `buckets` (a power of two): the row's hash plus the
/// column, so a row's neighbouring cells fall in neighbouring buckets.
fn bucket(x: i32, y: i32, buckets: usize) -> u32 {
    (y as u32).wrapping_mul(0x9E37_79B1).wrapping_add(x as u32) & (buckets as u32 - 1)
}

/// ⌊`v`⌋ as an integer (saturating), without a call to the C library's `floorf`.
fn floor_to_i32(v: f32) -> i32 {
    let t = v as i32;
    t - i32::from((t as f32) > v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn around_finds_every_agent_within_twice_the_radius_once() {
        // A lattice 0.7 m apart straddling the origin (negative cells too) and 30 agents on one
        // point; radius 0.5, so agents up to 1 m apart can touch. So few buckets (for the 3)
        // that rows share them.
        let mut items: Vec<(u32, Vec2)> = (0..400)
            .map(|i| (i, Vec2::new((i % 20) as f32 * 0.7 - 7.0, (i / 20) as f32 * 0.7 - 7.0)))
            .collect();
        items.extend((400..430).map(|i| (i, Vec2::new(2.0, -3.0))));
        // One grid rebuilt from the whole crowd, then from 3 of it: nothing of the first index
        // may show in the second.
        let mut grid = ContactGrid::default();
        for count in [items.len(), 3] {
            let indexed = &items[items.len() - count..];
            grid.rebuild(0.5, indexed.iter().map(|&(i, p)| (i, p, 0.1 * (i % 5) as f32)));
            for &(i, p) in &items {
                let mut found = Vec::new();
                grid.around(p, |j, q, r| {
                    assert_eq!((q, r), (items[j as usize].1, 0.1 * (j % 5) as f32));
                    found.push(j);
                });
                found.sort_unstable();
                let before = found.len();
                found.dedup();
                assert_eq!(found.len(), before, "agent {i} saw someone twice");
                for &(j, q) in indexed {
                    if q.distance(p) < 1.0 {
                        assert!(found.binary_search(&j).is_ok(), "agent {i} missed {j}");
                    }
                }
            }
        }
    }

    #[test]
    fn no_agents_or_no_radius_find_no_one() {
        let empty = ContactGrid::new(0.5, std::iter::empty());
        empty.around(Vec2::ZERO, |_, _, _| panic!("no agents"));
        let points = ContactGrid::new(0.0, [(0, Vec2::ZERO, 0.0), (1, Vec2::ZERO, 0.0)].into_iter());
        points.around(Vec2::ZERO, |_, _, _| panic!("points never touch"));
    }

    #[test]
    fn floor_to_i32_rounds_down_on_both_sides_of_zero() {
        for (v, f) in [(2.5, 2), (2.0, 2), (-0.5, -1), (-2.0, -2), (-2.5, -3), (0.0, 0)] {
            assert_eq!(floor_to_i32(v), f, "{v}");
        }
    }
}
