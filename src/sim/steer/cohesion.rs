//! Cohesion (Buckland §2.13): seek the centre of mass of the tagged neighbours; zero without any.

use glam::Vec2;

use super::seek_force;

/// The point cohesion seeks: the mean of `neighbour_positions`, if there is at least one.
pub fn centre_of_mass(neighbour_positions: impl Iterator<Item = Vec2>) -> Option<Vec2> {
    let (sum, count) = neighbour_positions.fold((Vec2::ZERO, 0u32), |(s, n), q| (s + q, n + 1));
    (count > 0).then(|| sum / count as f32)
}

/// Cohesion for an agent at `p` with velocity `v`, seeking at `speed`.
pub fn cohesion_from(p: Vec2, v: Vec2, speed: f32, neighbour_positions: impl Iterator<Item = Vec2>) -> Vec2 {
    centre_of_mass(neighbour_positions).map_or(Vec2::ZERO, |c| seek_force(p, v, c, speed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckland_cohesion_example() {
        // §5.2: neighbours at (10, 0) and (0, 10) → Seek((5, 5)); no neighbours → 0.
        let positions = [Vec2::new(10.0, 0.0), Vec2::new(0.0, 10.0)];
        assert_eq!(centre_of_mass(positions.into_iter()), Some(Vec2::new(5.0, 5.0)));
        let f = cohesion_from(Vec2::ZERO, Vec2::ZERO, 2.0, positions.into_iter());
        assert_eq!(f, seek_force(Vec2::ZERO, Vec2::ZERO, Vec2::new(5.0, 5.0), 2.0));
        assert_eq!(cohesion_from(Vec2::ZERO, Vec2::X, 2.0, std::iter::empty()), Vec2::ZERO);
    }
}
