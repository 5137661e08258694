//! The bounding boxes of a search's regions, four to a group of lanes, so that a cut learns
//! which regions its part may meet in a few vector comparisons per four regions, as a mask,
//! instead of one data-dependent branch per region.
//!
//! Each lane compares what [`Region::box_misses`] compares, so the mask holds exactly the
//! regions whose box that test would not say is missed (NaN boxes included).

use glam::{BVec4A, Vec2, Vec4};

use super::region::Region;

/// The boxes of four regions: corners with the smaller and the larger coordinates.
#[derive(Clone, Copy, Debug)]
struct BoxQuad {
    min_x: Vec4,
    min_y: Vec4,
    max_x: Vec4,
    max_y: Vec4,
}

impl BoxQuad {
    /// Per lane: whether the box from `low` to `high` meets that region's box (is not missed).
    #[inline]
    fn meets(&self, low: Vec2, high: Vec2) -> BVec4A {
        let missed = Vec4::splat(high.x).cmplt(self.min_x)
            | Vec4::splat(high.y).cmplt(self.min_y)
            | Vec4::splat(low.x).cmpgt(self.max_x)
            | Vec4::splat(low.y).cmpgt(self.max_y);
        !missed
    }
}

/// Regions per mask word.
pub const BLOCK: usize = 64;

/// The boxes of a list of regions, and which of them are half-planes.
#[derive(Clone, Debug, Default)]
pub struct RegionBoxes {
    quads: Vec<BoxQuad>,
    /// Per block of [`BLOCK`] regions: bit `i` set when region `i` of the block is a half-plane.
    half_planes: Vec<u64>,
}

impl RegionBoxes {
    /// Takes the boxes of `regions`, replacing those held.
    pub fn fill(&mut self, regions: &[Region]) {
        self.quads.clear();
        self.half_planes.clear();
        for four in regions.chunks(4) {
            // Lanes without a region: an empty box (their bits are masked off anyway).
            let (mut min, mut max) = ([Vec2::INFINITY; 4], [Vec2::NEG_INFINITY; 4]);
            for (lane, region) in four.iter().enumerate() {
                (min[lane], max[lane]) = region.bounds();
            }
            self.quads.push(BoxQuad {
                min_x: Vec4::from_array(min.map(|v| v.x)),
                min_y: Vec4::from_array(min.map(|v| v.y)),
                max_x: Vec4::from_array(max.map(|v| v.x)),
                max_y: Vec4::from_array(max.map(|v| v.y)),
            });
        }
        for block in regions.chunks(BLOCK) {
            let bits = block.iter().enumerate().filter(|(_, r)| r.is_half_plane());
            self.half_planes.push(bits.fold(0, |m, (i, _)| m | 1 << i));
        }
    }

    /// Of the regions `block · BLOCK ..` below `len` (at most [`BLOCK`] of them; `len` at most
    /// the number filled), the bits of those whose box the box from `low` to `high` meets, as
    /// [`Region::box_misses`] judges; half-planes left out when `skip_half_planes`.
    #[inline]
    pub fn meeting(&self, block: usize, len: usize, (low, high): (Vec2, Vec2), skip_half_planes: bool) -> u64 {
        let start = block * BLOCK;
        let count = (len - start).min(BLOCK);
        let mut bits = 0u64;
        for (q, quad) in self.quads[start / 4..(start + count).div_ceil(4)].iter().enumerate() {
            bits |= (quad.meets(low, high).bitmask() as u64) << (4 * q);
        }
        if count < BLOCK {
            bits &= (1 << count) - 1;
        }
        if skip_half_planes {
            bits &= !self.half_planes[block];
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mask_holds_the_regions_the_box_test_keeps() {
        // Pseudo-random squares (some NaN) and half-planes against pseudo-random boxes, some
        // NaN: every bit answers as `box_misses` does, for prefixes of the regions filled too.
        let mut next = crate::test_rng::unit_floats(77);
        let mut boxes = RegionBoxes::default();
        let mut met = 0;
        for case in 0..300 {
            let regions: Vec<Region> = (0..1 + case % 150)
                .map(|i| {
                    let c = Vec2::new(next() * 8.0 - 4.0, next() * 8.0 - 4.0);
                    let s = if i % 17 == 5 { f32::NAN } else { 0.2 + next() * 2.0 };
                    if i % 5 == 3 {
                        crate::sim::avoid::cone::half_plane(c, Vec2::from_angle(s * 3.0), 3.0)
                    } else {
                        Region::polygon([c, c + Vec2::new(s, 0.0), c + Vec2::new(s, s), c + Vec2::new(0.0, s)])
                    }
                })
                .collect();
            boxes.fill(&regions);
            let a = Vec2::new(next() * 10.0 - 5.0, next() * 10.0 - 5.0);
            let b = if case % 23 == 0 {
                Vec2::NAN
            } else {
                a + Vec2::new(next(), next() - 0.5) * 3.0
            };
            let part = (a.min(b), a.max(b));
            let len = regions.len() - (case % 3).min(regions.len() - 1);
            let skip_half_planes = case % 2 == 0;
            for block in 0..len.div_ceil(BLOCK) {
                let bits = boxes.meeting(block, len, part, skip_half_planes);
                for i in 0..BLOCK {
                    let kept = regions[..len].get(block * BLOCK + i).is_some_and(|region| {
                        !(region.box_misses(part.0, part.1) || skip_half_planes && region.is_half_plane())
                    });
                    assert_eq!(bits >> i & 1 == 1, kept, "case {case}, block {block}, region {i}");
                    met += kept as u32;
                }
            }
        }
        assert!(met > 1000, "{met} regions met");
    }
}
