//! Cohesion (Buckland §2.13): seek the centre of mass of the tagged neighbours; zero without any.

use glam::Vec2;

use super::{TaggedSums, seek_force};

/// The point cohesion seeks: the mean of the tagged neighbours' positions, if there is one.
pub fn centre_of_mass(sums: &TaggedSums) -> Option<Vec2> {
    (sums.count > 0).then(|| sums.positions / sums.count as f32)
}

/// Cohesion for an agent at `p` with velocity `v`, seeking at `speed`.
pub fn cohesion(p: Vec2, v: Vec2, speed: f32, sums: &TaggedSums) -> Vec2 {
    centre_of_mass(sums).map_or(Vec2::ZERO, |c| seek_force(p, v, c, speed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckland_cohesion_example() {
        // §5.2: neighbours at (10, 0) and (0, 10) → Seek((5, 5)); no neighbours → 0.
        let positions = [Vec2::new(10.0, 0.0), Vec2::new(0.0, 10.0)];
        let sums = TaggedSums::over(Vec2::ZERO, positions.iter().map(|&q| (q, Vec2::X)));
        assert_eq!(centre_of_mass(&sums), Some(Vec2::new(5.0, 5.0)));
        let f = cohesion(Vec2::ZERO, Vec2::ZERO, 2.0, &sums);
        assert_eq!(f, seek_force(Vec2::ZERO, Vec2::ZERO, Vec2::new(5.0, 5.0), 2.0));
        assert_eq!(cohesion(Vec2::ZERO, Vec2::X, 2.0, &TaggedSums::default()), Vec2::ZERO);
    }
}
