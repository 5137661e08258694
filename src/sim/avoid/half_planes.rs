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

use glam::{BVec4A, Vec2, Vec4};

use super::line_quad::LineQuad;
use super::region::Region;

/// The half-plane regions of a search, by their lines.
#[derive(Clone, Debug, Default)]
pub struct HalfPlanes {
    /// Their lines, as [`LineQuad::first_line`] gives them, in region order.
    lines: Vec<[f32; 4]>,
    /// The region of each line, ascending.
    members: Vec<u32>,
    /// The lines four to a quad, with the lanes that hold one ([`HalfPlanes::seal`]).
    quads: Vec<(LineQuad, BVec4A)>,
}

impl HalfPlanes {
    /// No half-planes (what a cut that meets them one by one, as regions, is handed).
    pub const NONE: HalfPlanes = HalfPlanes {
        lines: Vec::new(),
        members: Vec::new(),
        quads: Vec::new(),
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

    /// Groups the lines taken into quads, for [`HalfPlanes::rays`]; true when there is one.
    pub fn seal(&mut self) -> bool {
        let held = |lines: &[[f32; 4]]| BVec4A::new(true, lines.len() > 1, lines.len() > 2, lines.len() > 3);
        self.quads.extend(
            self.lines
                .chunks(4)
                .map(|lines| (LineQuad::of_lines(lines), held(lines))),
        );
        !self.lines.is_empty()
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
