//! The half-planes among the regions of one boundary search (ClearPath-1's side constraints, the
//! region of a wall the agent touches), met by a cut all at once: their lines four to a
//! [`LineQuad`], so that a candidate edge learns in a few vector steps, without a branch per
//! half-plane, where any of them covers it.
//!
//! Along a line, a half-plane covers a ray, so together they cover at most one ray from each end
//! (the union of the rays), with the same parameters, to the bit, as the half-planes' own
//! intervals ([`LineQuad::half_plane_rays`] computes each lane as a one-line region does), hence
//! the same permitted pieces. One difference: met one by one, a half-plane is skipped when its
//! box misses the box of the part still uncovered, and both boxes are rounded, so a sliver
//! thinner than rounding where the edge just enters it could be lost; the rays keep it. In the
//! bundled scenes this moved the end of a permitted piece by 2·10⁻⁸ of its edge, once, in a
//! crowd jammed at a bottleneck.
//!
//! Before any cut, the search asks for the box of what the half-planes leave of the max-speed
//! disc ([`HalfPlanes::free_box`], the square around the disc clipped by each of them): an edge
//! that misses it lies wholly in half-planes or beyond max speed, so it is not cut at all. In
//! the cone bench's hallway that is 64 % of ClearPath-1's candidate edges.

use glam::{BVec4A, Vec2, Vec4};

use super::line_quad::LineQuad;
use super::region::{INSIDE_MARGIN, Region};

/// Fills `out` with the convex `polygon` (counter-clockwise) cut to the half-plane `n·v ≤ limit`
/// (Sutherland–Hodgman), empty when nothing of it is left; false, leaving `out` as it was, when
/// the whole polygon lies in the half-plane already.
fn clip(polygon: &[Vec2], n: Vec2, limit: f32, out: &mut Vec<Vec2>) -> bool {
    if polygon.iter().all(|&v| n.dot(v) <= limit) {
        return false;
    }
    out.clear();
    let Some(&last) = polygon.last() else { return true };
    let (mut from, mut from_at) = (last, n.dot(last) - limit);
    for &to in polygon {
        let to_at = n.dot(to) - limit;
        if (from_at <= 0.0) != (to_at <= 0.0) {
            out.push(from + (to - from) * (from_at / (from_at - to_at)));
        }
        if to_at <= 0.0 {
            out.push(to);
        }
        (from, from_at) = (to, to_at);
    }
    true
}

/// The half-plane regions of a search, by their lines.
#[derive(Clone, Debug, Default)]
pub struct HalfPlanes {
    /// Their lines, as [`LineQuad::first_line`] gives them, in region order.
    lines: Vec<[f32; 4]>,
    /// The region of each line, ascending.
    members: Vec<u32>,
    /// The lines four to a quad, with the lanes that hold one ([`HalfPlanes::seal`]).
    quads: Vec<(LineQuad, BVec4A)>,
    /// The polygon [`HalfPlanes::free_box`] clips, and its buffer.
    polygon: Vec<Vec2>,
    clipped: Vec<Vec2>,
}

/// How far (m/s) [`HalfPlanes::free_box`] widens the part of velocity space that the half-planes
/// leave uncovered, far beyond rounding: a velocity outside the box lies this deep inside a
/// half-plane or beyond max speed.
const FREE_SLACK: f32 = 1e-3;

impl HalfPlanes {
    /// No half-planes (what a cut that meets them one by one, as regions, is handed).
    pub const NONE: HalfPlanes = HalfPlanes {
        lines: Vec::new(),
        members: Vec::new(),
        quads: Vec::new(),
        polygon: Vec::new(),
        clipped: Vec::new(),
    };

    /// Forgets the half-planes taken so far.
    pub fn clear(&mut self) {
        self.lines.clear();
        self.members.clear();
        self.quads.clear();
    }

    /// Takes `region`, number `r` (above those taken before), if it is a half-plane.
    #[inline]
    pub fn take(&mut self, r: usize, region: &Region) {
        if let Some(line) = region.half_plane_line() {
            self.lines.push(line);
            self.members.push(r as u32);
        }
    }

    /// A box holding every velocity within `max_speed` that no half-plane taken covers (each
    /// widened by [`FREE_SLACK`], so that rounding cannot put such a velocity outside), as its
    /// corners with the smaller and the larger coordinates; `None` when the half-planes cover the
    /// whole max-speed disc. A point of a candidate edge outside the box is not permitted, so an
    /// edge missing the box has no permitted piece. Lines with a NaN are left out (they cover
    /// nothing).
    pub fn free_box(&mut self, max_speed: f32) -> Option<(Vec2, Vec2)> {
        let reach = max_speed + FREE_SLACK;
        self.polygon.clear();
        self.polygon.extend([
            Vec2::new(-reach, -reach),
            Vec2::new(reach, -reach),
            Vec2::new(reach, reach),
            Vec2::new(-reach, reach),
        ]);
        for &[nx, ny, offset, length] in &self.lines {
            // Uncovered: n·v − k ≤ margin·l, widened by the slack (|n| = l).
            let n = Vec2::new(nx, ny);
            let limit = offset + (INSIDE_MARGIN + FREE_SLACK) * length;
            if !(n.is_finite() && limit.is_finite()) {
                continue;
            }
            if clip(&self.polygon, n, limit, &mut self.clipped) {
                std::mem::swap(&mut self.polygon, &mut self.clipped);
                if self.polygon.is_empty() {
                    return None;
                }
            }
        }
        let first = self.polygon[0];
        let (low, high) = (self.polygon.iter()).fold((first, first), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        Some((low - FREE_SLACK, high + FREE_SLACK))
    }

    /// Numbers the half-planes again as they lie among `regions`, keeping their lines (taken by
    /// a search among regions whose half-planes were the same, in the same order, only the
    /// regions around them having changed).
    pub fn renumber(&mut self, regions: &[Region]) {
        self.members.clear();
        for (r, region) in regions.iter().enumerate() {
            if region.is_half_plane() {
                let bits = |line: Option<[f32; 4]>| line.map(|l| l.map(f32::to_bits));
                debug_assert_eq!(
                    bits(region.half_plane_line()),
                    bits(self.lines.get(self.members.len()).copied())
                );
                self.members.push(r as u32);
            }
        }
        debug_assert_eq!(self.members.len(), self.lines.len());
    }

    /// True when some half-plane was taken.
    pub fn any(&self) -> bool {
        !self.lines.is_empty()
    }

    /// Groups the lines taken into quads, for [`HalfPlanes::rays`].
    pub fn seal(&mut self) {
        let held = |lines: &[[f32; 4]]| BVec4A::new(true, lines.len() > 1, lines.len() > 2, lines.len() > 3);
        self.quads.extend(
            self.lines
                .chunks(4)
                .map(|lines| (LineQuad::of_lines(lines), held(lines))),
        );
    }

    /// Where the half-planes other than region `skip` (when it is one) cover `p + t·d` (`d_len`
    /// = |d|): for t < a, for t > b, or everywhere (`all`), as [`LineQuad::half_plane_rays`]
    /// answers.
    #[inline]
    pub fn rays(&self, p: Vec2, d: Vec2, d_len: f32, skip: Option<usize>) -> (f32, f32, bool) {
        let skipped = skip.and_then(|s| self.members.binary_search(&(s as u32)).ok());
        let (mut before, mut after) = (Vec4::NEG_INFINITY, Vec4::INFINITY);
        let mut all = BVec4A::FALSE;
        for (q, &(quad, held)) in self.quads.iter().enumerate() {
            let lanes = match skipped {
                Some(line) if line / 4 == q => {
                    let k = line % 4;
                    held & !BVec4A::new(k == 0, k == 1, k == 2, k == 3)
                }
                _ => held,
            };
            let (leave, enter, everywhere) = quad.half_plane_rays(p, d, d_len, lanes);
            before = before.max(leave);
            after = after.min(enter);
            all |= everywhere;
        }
        (before.max_element(), after.min_element(), all.any())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::avoid::cone::half_plane;

    #[test]
    fn the_free_box_holds_every_velocity_no_half_plane_covers() {
        // Pseudo-random half-planes (1 to 12, some NaN), in two cases of three all leaving one
        // velocity free as ClearPath's sides leave the agent's own, and velocities sampled
        // within max speed: each velocity that no half-plane contains lies in the box, and
        // without a box there is none.
        const MAX_SPEED: f32 = 1.5;
        let mut next = crate::test_rng::unit_floats(5150);
        let mut sides = HalfPlanes::default();
        let (mut boxes, mut none, mut shrunk) = (0, 0, 0);
        for case in 0..500 {
            let kept_free = Vec2::from_angle(next() * 6.3) * next() * MAX_SPEED;
            let regions: Vec<Region> = (0..1 + case % 12)
                .map(|i| {
                    let point = Vec2::new(next() * 3.0 - 1.5, next() * 3.0 - 1.5);
                    let normal = match Vec2::from_angle(next() * 6.3) {
                        _ if case % 50 == 7 && i == 0 => Vec2::NAN,
                        n if case % 3 != 0 && n.dot(kept_free - point) > 0.0 => -n,
                        n => n,
                    };
                    half_plane(point, normal, MAX_SPEED)
                })
                .collect();
            sides.clear();
            for (r, region) in regions.iter().enumerate() {
                sides.take(r, region);
            }
            let free = sides.free_box(MAX_SPEED);
            match free {
                Some((low, high)) => {
                    boxes += 1;
                    shrunk += ((high - low).max_element() < MAX_SPEED) as u32;
                }
                None => none += 1,
            }
            for _ in 0..200 {
                let v = Vec2::from_angle(next() * 6.3) * next().sqrt() * MAX_SPEED;
                if regions.iter().any(|r| r.contains(v)) {
                    continue;
                }
                let (low, high) = free.unwrap_or_else(|| panic!("case {case}: {v} is free, yet no box"));
                assert!(
                    v.cmpge(low).all() && v.cmple(high).all(),
                    "case {case}: {v} outside {low}–{high}"
                );
            }
        }
        assert!(
            boxes > 100 && none > 50 && shrunk > 100,
            "{boxes} boxes ({shrunk} small), {none} none"
        );
    }
}
