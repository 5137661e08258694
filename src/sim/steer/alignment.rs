//! Alignment (Buckland §2.13): the average heading of the tagged neighbours minus the agent's own
//! heading; zero without neighbours. (The listing's `IsTagged` without `()` and missing semicolon,
//! §8.11, have no counterpart here.)

use glam::Vec2;

/// Mean of `neighbour_headings` minus `heading`, or zero when there are none.
pub fn alignment_from(heading: Vec2, neighbour_headings: impl Iterator<Item = Vec2>) -> Vec2 {
    let (sum, count) = neighbour_headings.fold((Vec2::ZERO, 0u32), |(s, n), h| (s + h, n + 1));
    if count == 0 {
        Vec2::ZERO
    } else {
        sum / count as f32 - heading
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckland_alignment_example() {
        // §5.2: neighbour headings (1, 0) and (0, 1), own (1, 0) → (−0.5, 0.5); no neighbours → 0.
        let f = alignment_from(Vec2::X, [Vec2::X, Vec2::Y].into_iter());
        assert_eq!(f, Vec2::new(-0.5, 0.5));
        assert_eq!(alignment_from(Vec2::X, std::iter::empty()), Vec2::ZERO);
    }
}
