//! A forbidden region of the cone methods (VO, RVO, ClearPath's FVO): a convex polygon in
//! velocity space, counter-clockwise (inside on the left of each edge), with the edges that
//! may carry the new velocity marked. An infinite cone is closed far outside the max-speed disc
//! by edges that are never candidates.
//!
//! The polygon is stored inline (at most [`MAX_VERTICES`] vertices) with its bounding box and
//! each edge's inside test as a line `n·v > k` (margin included), four lines evaluated together
//! ([`LineQuad`]), so building the regions of a tick allocates nothing and a membership test is
//! a few vector multiplications.
//!
//! The regions of a search are only ever asked about velocities within the agent's max speed.
//! Edges that lie far beyond it and only close an infinite cone or half-plane (*closing* edges)
//! therefore have no inside test, and the box is cut to the square around the max-speed disc:
//! within the disc, the region is the same.

use glam::Vec2;

use super::line_quad::LineQuad;

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
    /// How many edges have an inside test (the lanes of `quad`, and beyond four the edges from
    /// the fifth on, see [`Region::lines_beyond_four`]).
    lines: u8,
    min: Vec2,
    max: Vec2,
    /// The lines of the first four edges that are not closing. Only a polygon whose every edge
    /// bounds it has more (ClearPath's overlap octagon); theirs are derived from the vertices when
    /// asked, which keeps every region 64 of its 224 bytes smaller to build, copy and read.
    quad: LineQuad,
}

impl Region {
    /// The region with counter-clockwise `vertices` (3 to `MAX_VERTICES`) whose every edge
    /// bounds it and is a candidate.
    pub fn polygon<const N: usize>(vertices: [Vec2; N]) -> Region {
        let every = ((1u16 << N) - 1) as u8;
        Region::closed_beyond(vertices, every, std::array::from_fn::<_, N, _>(|i| i), f32::INFINITY)
    }

    /// The region with counter-clockwise `vertices` (3 to `MAX_VERTICES`) whose edge `i`
    /// (vertex `i` → `i + 1`) is a candidate when bit `i` of `candidates` is set, for searches
    /// among velocities within `max_speed`: only the edges listed in `bounding` have an inside
    /// test; the others are closing edges, which requires them to lie farther than `max_speed`
    /// from every velocity within `max_speed` (see the module comment). More than four bounding
    /// edges must be every edge, in order. The sizes are constants, so that building a cone's
    /// region is straight-line code.
    #[inline]
    pub fn closed_beyond<const N: usize, const B: usize>(
        vertices: [Vec2; N],
        candidates: u8,
        bounding: [usize; B],
        max_speed: f32,
    ) -> Region {
        const { assert!(N <= MAX_VERTICES && B <= N && (B <= 4 || B == N)) };
        debug_assert!(B <= 4 || bounding.iter().enumerate().all(|(k, &i)| k == i));
        let mut corners = [Vec2::ZERO; MAX_VERTICES];
        corners[..N].copy_from_slice(&vertices);
        let (mut min, mut max) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for a in vertices {
            min = min.min(a);
            max = max.max(a);
        }
        // Inside edge i when e⊥·(v − a) > margin·|e|.
        let mut edges = [(Vec2::ZERO, Vec2::ZERO); B];
        for (edge, i) in edges.iter_mut().zip(bounding) {
            *edge = (vertices[i], vertices[if i + 1 == N { 0 } else { i + 1 }]);
        }
        // Velocities a rounding beyond max speed are still asked about: a margin of 1 m/s.
        let reach = Vec2::splat(max_speed + 1.0);
        Region {
            vertices: corners,
            len: N as u8,
            candidate: candidates,
            lines: B as u8,
            min: min.max(-reach),
            max: max.min(reach),
            quad: LineQuad::of_edges(&edges[..B.min(4)]),
        }
    }

    /// The counter-clockwise vertices.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.len as usize]
    }

    /// The edges that may carry the chosen velocity, in order (edge `i` runs from vertex `i` to
    /// `i + 1`).
    pub fn candidate_edges(&self) -> impl Iterator<Item = usize> + use<> {
        let mut left = self.candidate;
        std::iter::from_fn(move || {
            (left != 0).then(|| {
                let i = left.trailing_zeros() as usize;
                left &= left - 1;
                i
            })
        })
    }

    /// The edge leaving vertex `i`.
    pub fn edge(&self, i: usize) -> (Vec2, Vec2) {
        let next = if i + 1 == self.len as usize { 0 } else { i + 1 };
        (self.vertices[i], self.vertices[next])
    }

    /// The bounding box: the corners with the smaller and the larger coordinates (cut to the
    /// square around the max-speed disc, see the module comment).
    pub fn bounds(&self) -> (Vec2, Vec2) {
        (self.min, self.max)
    }

    /// True when the box from `low` to `high` (the corners with the smaller and the larger
    /// coordinates) misses the bounding box (then no point in it is inside).
    #[inline]
    pub fn box_misses(&self, low: Vec2, high: Vec2) -> bool {
        high.cmplt(self.min).any() || low.cmpgt(self.max).any()
    }

    /// The line of a half-plane (a region with one bounding edge, see
    /// `LineQuad::first_line`); `None` for other regions.
    pub fn half_plane_line(&self) -> Option<[f32; 4]> {
        (self.lines == 1).then(|| self.quad.first_line())
    }

    /// True when the region is a half-plane (one bounding edge).
    #[inline]
    pub fn is_half_plane(&self) -> bool {
        self.lines == 1
    }

    /// The lines of the bounding edges from the fifth on (every edge bounds such a region),
    /// computed as [`Region::closed_beyond`] computes the first four's.
    fn lines_beyond_four(&self) -> LineQuad {
        let mut edges = [(Vec2::ZERO, Vec2::ZERO); 4];
        let count = (self.lines as usize).saturating_sub(4);
        for (k, edge) in edges.iter_mut().enumerate().take(count) {
            *edge = self.edge(4 + k);
        }
        LineQuad::of_edges(&edges[..count])
    }

    /// True when `v` lies strictly inside (more than the margin from every edge).
    #[inline]
    pub fn contains(&self, v: Vec2) -> bool {
        !self.box_misses(v, v)
            && self.quad.inside(v).all()
            && (self.lines <= 4 || self.lines_beyond_four().inside(v).all())
    }

    /// The open interval of parameters `t` where `p + t·d` (`d_len` = |d|) lies inside; empty
    /// (`lo ≥ hi`) when it misses `window`. The ends are where the line crosses the region's edges; an edge
    /// (nearly) parallel to the line, `|n × d| ≤ ε·|n|·|d|` as the cone methods always judged
    /// it, uses the margin of [`Region::contains`], so that a line along the boundary is not
    /// inside; a NaN line (a degenerate cone) contains nothing, as in `contains`.
    #[inline]
    pub fn inside_interval(&self, p: Vec2, d: Vec2, d_len: f32, (w0, w1): (f32, f32)) -> (f32, f32) {
        let (mut lo, mut hi) = (f32::NEG_INFINITY, f32::INFINITY);
        if self.lines == 1 {
            // A half-plane: one line, no need to evaluate four.
            let (entry, exit, excluded) = self.quad.first_crossing(p, d, d_len);
            let inside = !excluded && entry < exit && entry < w1 && exit > w0;
            return if inside { (entry, exit) } else { (0.0, 0.0) };
        }
        let mut narrow = |quad: &LineQuad| {
            let (entry, exit, excluded) = quad.crossings(p, d, d_len);
            lo = lo.max(entry);
            hi = hi.min(exit);
            excluded || lo >= hi || lo >= w1 || hi <= w0
        };
        if narrow(&self.quad) || (self.lines > 4 && narrow(&self.lines_beyond_four())) {
            return (0.0, 0.0);
        }
        (lo, hi)
    }
}

/// The square region with lower-left corner `min` and side `size` (for tests).
#[cfg(test)]
pub(super) fn square(min: (f32, f32), size: f32) -> Region {
    let m = Vec2::new(min.0, min.1);
    Region::polygon([
        m,
        m + Vec2::new(size, 0.0),
        m + Vec2::new(size, size),
        m + Vec2::new(0.0, size),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_interval_matches_membership_along_a_segment() {
        let square = Region::polygon([Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y]);
        // The line y = 0.5 from x = −1 (t = 0) to x = 3 (t = 1) is inside for x in (0, 1).
        let (p, d) = (Vec2::new(-1.0, 0.5), Vec2::new(4.0, 0.0));
        let (lo, hi) = square.inside_interval(p, d, d.length(), (0.0, 1.0));
        assert!((lo - 0.25).abs() < 1e-6 && (hi - 0.5).abs() < 1e-6, "{lo} {hi}");
        for k in 0..=40 {
            let t = k as f32 / 40.0;
            if (t - 0.25).abs() > 1e-3 && (t - 0.5).abs() > 1e-3 {
                assert_eq!(square.contains(p + d * t), lo < t && t < hi, "t = {t}");
            }
        }
        // Along an edge (y = 0) nothing is strictly inside.
        let (lo, hi) = square.inside_interval(Vec2::new(-1.0, 0.0), d, d.length(), (0.0, 1.0));
        assert!(lo >= hi);
        assert!(square.box_misses(Vec2::new(2.0, 2.0), Vec2::new(3.0, 5.0)));
        assert!(!square.box_misses(Vec2::new(0.5, -1.0), Vec2::new(0.7, 3.0)));
    }

    #[test]
    fn an_octagon_tests_all_eight_edges() {
        // The regular octagon of circumradius 2 about (1, -1): its last four edges' lines are
        // derived from the vertices when asked. Membership on a grid, and along lines through
        // it, must be the same as inside every one of the eight edges.
        let centre = Vec2::new(1.0, -1.0);
        let corners: [Vec2; 8] =
            std::array::from_fn(|k| centre + Vec2::from_angle((k as f32 + 0.5) * std::f32::consts::FRAC_PI_4) * 2.0);
        let octagon = Region::polygon(corners);
        let inside_edge = |i: usize, v: Vec2| {
            let (a, b) = (corners[i], corners[(i + 1) % 8]);
            (b - a).perp().dot(v - a) > INSIDE_MARGIN * (b - a).length()
        };
        let inside_all = |v: Vec2| (0..8).all(|i| inside_edge(i, v));
        let mut outside_last_four = 0;
        for i in 0..=60 {
            for j in 0..=60 {
                let v = centre + Vec2::new(i as f32 - 30.0, j as f32 - 30.0) * 0.1;
                assert_eq!(octagon.contains(v), inside_all(v), "{v}");
                let in_first_four = (0..4).all(|i| inside_edge(i, v));
                outside_last_four += usize::from(in_first_four && !inside_all(v));
            }
        }
        assert!(outside_last_four > 100, "the grid reaches past the last four edges");
        for (p, d) in [
            (Vec2::new(-3.0, -1.0), Vec2::new(8.0, 0.0)),
            (Vec2::new(-1.0, -4.0), Vec2::new(4.0, 6.0)),
        ] {
            let (lo, hi) = octagon.inside_interval(p, d, d.length(), (0.0, 1.0));
            for k in 0..=80 {
                let t = k as f32 / 80.0;
                if (t - lo).abs() > 1e-3 && (t - hi).abs() > 1e-3 {
                    assert_eq!(octagon.contains(p + d * t), lo < t && t < hi, "t = {t}");
                }
            }
        }
    }
}
