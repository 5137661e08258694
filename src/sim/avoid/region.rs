//! A forbidden region of the cone methods (VO, RVO, ClearPath's FVO): a convex polygon in
//! velocity space, counter-clockwise (inside on the left of each edge), with the edges that
//! may carry the new velocity marked. An infinite cone is closed far outside the max-speed disc
//! by edges that are never candidates.
//!
//! The polygon is stored inline (at most [`MAX_VERTICES`] vertices) with its bounding box and
//! each edge's inside test as a line `n·v > k` (margin included), so building the regions of a
//! tick allocates nothing and a membership test is a few multiplications.
//!
//! The regions of a search are only ever asked about velocities within the agent's max speed.
//! Edges that lie far beyond it and only close an infinite cone or half-plane (*closing* edges)
//! therefore have no inside test, and the box is cut to the square around the max-speed disc:
//! within the disc, the region is the same.

use glam::Vec2;

/// Margin (m/s) by which a velocity must be inside a region to count as forbidden, so that the
/// boundary itself is permitted (a grazing pass).
pub const INSIDE_MARGIN: f32 = 1e-5;

/// Most vertices a region has (ClearPath-2's collision octagon).
pub const MAX_VERTICES: usize = 8;

/// A forbidden convex region and which of its edges may carry the new velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Region {
    vertices: [Vec2; MAX_VERTICES],
    len: u8,
    /// Bit `i` set: edge `i` (vertex `i` → `i + 1`) is a candidate.
    candidate: u8,
    /// How many edges have an inside test (the first `lines` entries of the arrays below).
    lines: u8,
    min: Vec2,
    max: Vec2,
    /// Per edge that is not closing: its line `normal·v = offset` (the normal is the edge
    /// rotated a quarter turn) and its length.
    normals: [Vec2; MAX_VERTICES],
    offsets: [f32; MAX_VERTICES],
    lengths: [f32; MAX_VERTICES],
}

impl Region {
    /// The region with counter-clockwise `vertices` (3 to [`MAX_VERTICES`]) whose edge `i` is a
    /// candidate when `candidate[i]`; every edge bounds it.
    pub fn new(vertices: &[Vec2], candidate: &[bool]) -> Region {
        Region::closed_beyond(
            vertices,
            candidate,
            &[false; MAX_VERTICES][..vertices.len()],
            f32::INFINITY,
        )
    }

    /// As [`Region::new`], for searches among velocities within `max_speed`: edge `i` is a
    /// closing edge when `closing[i]`, which requires it to lie farther than `max_speed` from
    /// every velocity within `max_speed` (it then has no inside test, see the module comment).
    pub fn closed_beyond(vertices: &[Vec2], candidate: &[bool], closing: &[bool], max_speed: f32) -> Region {
        let len = vertices.len();
        assert!(len <= MAX_VERTICES && candidate.len() == len && closing.len() == len);
        let mut region = Region {
            vertices: [Vec2::ZERO; MAX_VERTICES],
            len: len as u8,
            candidate: 0,
            lines: 0,
            min: Vec2::splat(f32::INFINITY),
            max: Vec2::splat(f32::NEG_INFINITY),
            normals: [Vec2::ZERO; MAX_VERTICES],
            offsets: [0.0; MAX_VERTICES],
            lengths: [0.0; MAX_VERTICES],
        };
        for (i, &a) in vertices.iter().enumerate() {
            region.vertices[i] = a;
            region.candidate |= (candidate[i] as u8) << i;
            region.min = region.min.min(a);
            region.max = region.max.max(a);
            if !closing[i] {
                // Inside when e⊥·(v − a) > margin·|e|.
                let e = vertices[if i + 1 == len { 0 } else { i + 1 }] - a;
                let line = region.lines as usize;
                region.normals[line] = e.perp();
                region.offsets[line] = e.perp().dot(a);
                region.lengths[line] = e.length();
                region.lines += 1;
            }
        }
        // Velocities a rounding beyond max speed are still asked about: a margin of 1 m/s.
        let reach = Vec2::splat(max_speed + 1.0);
        region.min = region.min.max(-reach);
        region.max = region.max.min(reach);
        region
    }

    /// A region whose every edge is a candidate.
    pub fn polygon(vertices: &[Vec2]) -> Region {
        Region::new(vertices, &[true; MAX_VERTICES][..vertices.len()])
    }

    /// The counter-clockwise vertices.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.len as usize]
    }

    /// Whether edge `i` may carry the chosen velocity.
    pub fn is_candidate(&self, i: usize) -> bool {
        self.candidate & (1 << i) != 0
    }

    /// The edge leaving vertex `i`.
    pub fn edge(&self, i: usize) -> (Vec2, Vec2) {
        let next = if i + 1 == self.len as usize { 0 } else { i + 1 };
        (self.vertices[i], self.vertices[next])
    }

    /// True when the segment `a`–`b` misses the bounding box (then no point of it is inside).
    pub fn box_misses(&self, a: Vec2, b: Vec2) -> bool {
        a.max(b).cmplt(self.min).any() || a.min(b).cmpgt(self.max).any()
    }

    /// True when `v` lies strictly inside (more than the margin from every edge).
    pub fn contains(&self, v: Vec2) -> bool {
        !self.box_misses(v, v)
            && (0..self.lines as usize)
                .all(|i| self.normals[i].dot(v) - self.offsets[i] > INSIDE_MARGIN * self.lengths[i])
    }

    /// The open interval of parameters `t` where `p + t·d` lies inside; empty (`lo ≥ hi`) as
    /// soon as it is known to miss `window`. The ends are where the line crosses the region's
    /// edges; an edge (nearly) parallel to the line uses the margin of [`Region::contains`],
    /// so that a line along the boundary is not inside.
    pub fn inside_interval(&self, p: Vec2, d: Vec2, (w0, w1): (f32, f32)) -> (f32, f32) {
        let (mut lo, mut hi) = (f32::NEG_INFINITY, f32::INFINITY);
        let d_len = d.length();
        for i in 0..self.lines as usize {
            // n·(p + t·d) − k > 0, linear in t.
            let at0 = self.normals[i].dot(p) - self.offsets[i];
            let slope = self.normals[i].dot(d);
            // Parallel as the cone methods always judged it: |n × d| ≤ ε·|n|·|d|. A NaN line
            // (a degenerate cone) contains nothing, as in `contains`.
            let parallel = slope.abs() <= f32::EPSILON * d_len * self.lengths[i];
            if at0.is_nan() || slope.is_nan() || (parallel && at0 <= INSIDE_MARGIN * self.lengths[i]) {
                return (0.0, 0.0);
            } else if !parallel && slope > 0.0 {
                lo = lo.max(-at0 / slope);
            } else if !parallel {
                hi = hi.min(-at0 / slope);
            }
            if lo >= hi || lo >= w1 || hi <= w0 {
                return (0.0, 0.0);
            }
        }
        (lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_interval_matches_membership_along_a_segment() {
        let square = Region::polygon(&[Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y]);
        // The line y = 0.5 from x = −1 (t = 0) to x = 3 (t = 1) is inside for x in (0, 1).
        let (p, d) = (Vec2::new(-1.0, 0.5), Vec2::new(4.0, 0.0));
        let (lo, hi) = square.inside_interval(p, d, (0.0, 1.0));
        assert!((lo - 0.25).abs() < 1e-6 && (hi - 0.5).abs() < 1e-6, "{lo} {hi}");
        for k in 0..=40 {
            let t = k as f32 / 40.0;
            if (t - 0.25).abs() > 1e-3 && (t - 0.5).abs() > 1e-3 {
                assert_eq!(square.contains(p + d * t), lo < t && t < hi, "t = {t}");
            }
        }
        // Along an edge (y = 0) nothing is strictly inside.
        let (lo, hi) = square.inside_interval(Vec2::new(-1.0, 0.0), d, (0.0, 1.0));
        assert!(lo >= hi);
        assert!(square.box_misses(Vec2::new(2.0, 2.0), Vec2::new(3.0, 5.0)));
    }
}
