//! Up to four inside tests of a forbidden region's edges, evaluated together: edge `i`'s line
//! `n·v = k` with its length `l`, a velocity being inside the edge when `n·v − k > margin·l`.
//! Lanes without an edge hold the line `0·v = −1` of length 0, which every finite velocity is
//! inside of and which no line through velocity space crosses, so they change no answer.
//!
//! Each lane computes exactly what one edge's scalar test computes (the same operations in the
//! same order), so a region's answers do not depend on how its edges are grouped.

use glam::{BVec4A, Vec2, Vec4};

use super::region::INSIDE_MARGIN;

/// Four edges' lines: normals (x and y parts), offsets and lengths.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineQuad {
    nx: Vec4,
    ny: Vec4,
    offsets: Vec4,
    lengths: Vec4,
}

impl LineQuad {
    /// Four lanes without an edge.
    pub const EMPTY: LineQuad = LineQuad {
        nx: Vec4::ZERO,
        ny: Vec4::ZERO,
        offsets: Vec4::splat(-1.0),
        lengths: Vec4::ZERO,
    };

    /// The lines of up to four `edges` (start, end), one per lane: normal `e⊥` (e = end −
    /// start), offset `e⊥·start`, length `|e|`; the lanes after them hold no edge.
    #[inline]
    pub fn of_edges(edges: &[(Vec2, Vec2)]) -> LineQuad {
        let (mut sx, mut sy, mut ex, mut ey) = ([0.0; 4], [0.0; 4], [0.0; 4], [0.0; 4]);
        for (lane, &(start, end)) in edges.iter().take(4).enumerate() {
            let e = end - start;
            (sx[lane], sy[lane], ex[lane], ey[lane]) = (start.x, start.y, e.x, e.y);
        }
        let (sx, sy) = (Vec4::from_array(sx), Vec4::from_array(sy));
        let (dx, dy) = (Vec4::from_array(ex), Vec4::from_array(ey));
        // e⊥ = (−e.y, e.x), as `Vec2::perp`; offset and length as `Vec2::dot` and `length`.
        let (nx, ny) = (-dy, dx);
        let count = edges.len();
        let used = BVec4A::new(count > 0, count > 1, count > 2, count > 3);
        LineQuad {
            nx: Vec4::select(used, nx, Vec4::ZERO),
            ny: Vec4::select(used, ny, Vec4::ZERO),
            offsets: Vec4::select(used, nx * sx + ny * sy, Vec4::splat(-1.0)),
            lengths: Vec4::select(used, (dx * dx + dy * dy).map(f32::sqrt), Vec4::ZERO),
        }
    }

    /// The line of the first lane: normal x and y parts, offset and length.
    pub fn first_line(&self) -> [f32; 4] {
        [self.nx.x, self.ny.x, self.offsets.x, self.lengths.x]
    }

    /// The quad holding up to four `lines` as [`LineQuad::first_line`] gives them, one per
    /// lane; the lanes after them hold no edge.
    pub fn of_lines(lines: &[[f32; 4]]) -> LineQuad {
        let mut quad = LineQuad::EMPTY;
        for (lane, &[nx, ny, offset, length]) in lines.iter().take(4).enumerate() {
            quad.nx[lane] = nx;
            quad.ny[lane] = ny;
            quad.offsets[lane] = offset;
            quad.lengths[lane] = length;
        }
        quad
    }

    /// `n·v − k` per lane.
    fn at(&self, v: Vec2) -> Vec4 {
        self.nx * v.x + self.ny * v.y - self.offsets
    }

    /// Per lane: whether `v` is inside that edge by more than the margin.
    pub fn inside(&self, v: Vec2) -> BVec4A {
        self.at(v).cmpgt(self.lengths * INSIDE_MARGIN)
    }

    /// What [`LineQuad::crossings`] answers when only the first lane holds an edge.
    #[inline]
    pub fn first_crossing(&self, p: Vec2, d: Vec2, d_len: f32) -> (f32, f32, bool) {
        let (nx, ny, offset, length) = (self.nx.x, self.ny.x, self.offsets.x, self.lengths.x);
        let at0 = nx * p.x + ny * p.y - offset;
        let slope = nx * d.x + ny * d.y;
        let parallel = slope.abs() <= length * (f32::EPSILON * d_len);
        let excluded = at0.is_nan() || slope.is_nan() || (parallel && at0 <= length * INSIDE_MARGIN);
        let t = -at0 / slope;
        match () {
            _ if parallel => (f32::NEG_INFINITY, f32::INFINITY, excluded),
            _ if slope > 0.0 => (t, f32::INFINITY, excluded),
            _ => (f32::NEG_INFINITY, t, excluded),
        }
    }

    /// The lanes in `lanes` taken as half-planes of their own, each inside its line (a
    /// forbidden region of one line, as [`LineQuad::first_crossing`] reads one): where `p + t·d`
    /// (`d_len` = |d|) lies inside each of them. Per lane: inside for t below the first vector's
    /// entry (−∞ when not a lane the line leaves), for t above the second's (+∞ when not a lane
    /// it enters), and for every t where the mask is set (a lane parallel to the line with `p`
    /// inside it). Each lane computes what `first_crossing` computes for its line alone.
    #[inline]
    pub fn half_plane_rays(&self, p: Vec2, d: Vec2, d_len: f32, lanes: BVec4A) -> (Vec4, Vec4, BVec4A) {
        let at0 = self.at(p);
        let slope = self.nx * d.x + self.ny * d.y;
        let parallel = slope.abs().cmple(self.lengths * (f32::EPSILON * d_len));
        let nan = at0.is_nan_mask() | slope.is_nan_mask();
        let outside = parallel & at0.cmple(self.lengths * INSIDE_MARGIN);
        let live = lanes & !(nan | outside);
        let t = -at0 / slope;
        let entering = live & !parallel & slope.cmpgt(Vec4::ZERO);
        let leaving = live & !parallel & !slope.cmpgt(Vec4::ZERO);
        (
            Vec4::select(leaving, t, Vec4::NEG_INFINITY),
            Vec4::select(entering, t, Vec4::INFINITY),
            live & parallel,
        )
    }

    /// The lines' part of [`Region::inside_interval`](super::region::Region::inside_interval)
    /// for `p + t·d` (`d_len` = |d|): the largest entry and smallest exit parameter over the
    /// lanes, and whether some lane rules the whole line out (a NaN line, or a line parallel
    /// to `d` with `p` not inside it).
    #[inline]
    pub fn crossings(&self, p: Vec2, d: Vec2, d_len: f32) -> (f32, f32, bool) {
        let at0 = self.at(p);
        let slope = self.nx * d.x + self.ny * d.y;
        let parallel = slope.abs().cmple(self.lengths * (f32::EPSILON * d_len));
        let nan = at0.is_nan_mask() | slope.is_nan_mask();
        let outside = parallel & at0.cmple(self.lengths * INSIDE_MARGIN);
        let t = -at0 / slope;
        let entering = !parallel & slope.cmpgt(Vec4::ZERO);
        let leaving = !parallel & !entering;
        let lo = Vec4::select(entering, t, Vec4::NEG_INFINITY).max_element();
        let hi = Vec4::select(leaving, t, Vec4::INFINITY).min_element();
        (lo, hi, (nan | outside).any())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_answers_as_four_lanes_do() {
        // Edges and rays all around, some parallel to each other, against the quad of that edge
        // alone: the scalar path must give the same bits.
        let mut unit = crate::test_rng::unit_floats(987_654_321);
        let mut next = || unit() * 8.0 - 4.0;
        for case in 0..2000 {
            let (a, b) = (Vec2::new(next(), next()), Vec2::new(next(), next()));
            let quad = LineQuad::of_edges(&[(a, b)]);
            let p = Vec2::new(next(), next());
            let d = if case % 5 == 0 {
                (b - a) * 0.5
            } else {
                Vec2::new(next(), next())
            };
            let (scalar, lanes) = (quad.first_crossing(p, d, d.length()), quad.crossings(p, d, d.length()));
            assert_eq!(scalar.0.to_bits(), lanes.0.to_bits(), "case {case}");
            assert_eq!(scalar.1.to_bits(), lanes.1.to_bits(), "case {case}");
            assert_eq!(scalar.2, lanes.2, "case {case}");
        }
    }
}
