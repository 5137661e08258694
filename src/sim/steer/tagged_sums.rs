//! The sums over an agent's tagged neighbours that separation, alignment and cohesion read: a
//! flock's three behaviours share their view, so the second and third read the sums the first
//! computed (kept in [`TaggedMemo`]) instead of asking the neighbour grid again.

use std::cell::Cell;

use glam::Vec2;

#[cfg(test)]
use super::separation::push_away;

/// Sums over the neighbours one agent tags with one view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TaggedSums {
    /// Σ of each neighbour's separation push: (p − q) / |p − q|², zero for a neighbour on the spot.
    pub separation: Vec2,
    /// Σ of the neighbours' headings.
    pub headings: Vec2,
    /// Σ of the neighbours' positions.
    pub positions: Vec2,
    /// How many neighbours are tagged.
    pub count: u32,
}

impl TaggedSums {
    /// The sums for an agent at `p` over neighbours given as (position, heading), added one by
    /// one in order: the definition the neighbour grid's flock lanes are tested against.
    #[cfg(test)]
    pub fn over(p: Vec2, neighbours: impl Iterator<Item = (Vec2, Vec2)>) -> TaggedSums {
        neighbours.fold(TaggedSums::default(), |s, (q, heading)| TaggedSums {
            separation: s.separation + push_away(p, q),
            headings: s.headings + heading,
            positions: s.positions + q,
            count: s.count + 1,
        })
    }
}

/// The sums of the last view (radius, cosine of half the field of view) one agent asked for this
/// tick, kept for its next behaviour with the same view. Start each agent's tick with the default.
#[derive(Debug, Default)]
pub struct TaggedMemo(Cell<Option<(f32, Option<f32>, TaggedSums)>>);

impl TaggedMemo {
    /// The sums for the view (`radius`, `cos_half_fov`): the kept ones when the view is the last
    /// one asked for, otherwise `compute()`, kept for next time.
    pub fn get_or(&self, radius: f32, cos_half_fov: Option<f32>, compute: impl FnOnce() -> TaggedSums) -> TaggedSums {
        match self.0.get() {
            Some((r, c, sums)) if r == radius && c == cos_half_fov => sums,
            _ => {
                let sums = compute();
                self.0.set(Some((radius, cos_half_fov, sums)));
                sums
            }
        }
    }
}
