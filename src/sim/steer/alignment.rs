//! Alignment (Buckland §2.13): the average heading of the tagged neighbours minus the agent's own
//! heading; zero without neighbours. (The listing's `IsTagged` without `()` and missing semicolon,
//! §8.11, have no counterpart here.)

use glam::Vec2;

use super::TaggedSums;

/// Mean of the tagged neighbours' headings in `sums` minus `heading`, or zero when there are none.
pub fn alignment(heading: Vec2, sums: &TaggedSums) -> Vec2 {
    if sums.count == 0 {
        Vec2::ZERO
    } else {
        sums.headings / sums.count as f32 - heading
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckland_alignment_example() {
        // §5.2: neighbour headings (1, 0) and (0, 1), own (1, 0) → (−0.5, 0.5); no neighbours → 0.
        let sums = TaggedSums::over(Vec2::ZERO, [(Vec2::X, Vec2::X), (Vec2::Y, Vec2::Y)].into_iter());
        assert_eq!(alignment(Vec2::X, &sums), Vec2::new(-0.5, 0.5));
        assert_eq!(alignment(Vec2::X, &TaggedSums::default()), Vec2::ZERO);
    }
}
