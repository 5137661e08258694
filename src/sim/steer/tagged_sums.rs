//! The sums over an agent's tagged neighbours that separation, alignment and cohesion read: a
//! flock's three behaviours share their view, so the second and third read the sums the first
//! computed (kept in [`TaggedMemo`]) instead of asking the neighbour grid again.

use std::cell::Cell;

use glam::Vec2;

use super::tagging::cos_half_fov;

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

/// What an agent's flock sums look at: the neighbourhood radius, and the cosine of half the
/// field of view (`None` all-round).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TaggedView {
    /// The neighbourhood radius (to the other's edge).
    pub radius: f32,
    /// The cosine of half the field of view, `None` when it is all-round.
    pub cos_half_fov: Option<f32>,
}

impl TaggedView {
    /// The view of `radius` with a field of view of `fov_deg` degrees.
    pub fn new(radius: f32, fov_deg: f32) -> TaggedView {
        TaggedView {
            radius,
            cos_half_fov: cos_half_fov(fov_deg),
        }
    }
}

/// Flock sums with the view they were computed for.
pub type KeptSums = (TaggedView, TaggedSums);

/// The sums of the last view one agent asked for this tick, kept for its next behaviour with the
/// same view. Start each agent's tick with the sums computed ahead for it, if any.
#[derive(Debug, Default)]
pub struct TaggedMemo(Cell<Option<KeptSums>>);

impl TaggedMemo {
    /// A memo holding `kept` (sums computed ahead for this tick: the frame's contact check makes
    /// the same scan of the same index).
    pub fn new(kept: Option<KeptSums>) -> TaggedMemo {
        TaggedMemo(Cell::new(kept))
    }

    /// The sums for `view`: the kept ones when they are for that view, otherwise `compute()`,
    /// kept for next time.
    pub fn get_or(&self, view: TaggedView, compute: impl FnOnce() -> TaggedSums) -> TaggedSums {
        match self.0.get() {
            Some((kept, sums)) if kept == view => sums,
            _ => {
                let sums = compute();
                self.0.set(Some((view, sums)));
                sums
            }
        }
    }
}
