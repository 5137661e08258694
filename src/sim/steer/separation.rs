//! Separation (Buckland §2.13): Σ normalize(p − q) / |p − q| over neighbours within the view
//! radius (plus the neighbour's body radius, as in `TagNeighbors`), summed with the other flock
//! sums in [`super::TaggedSums`] (computed by [`super::FlockLanes::sums`]).

#[cfg(test)]
use glam::Vec2;

/// The 1/distance push away from neighbour `q` of an agent at `p` (zero when they coincide):
/// the definition the neighbour grid's flock lanes are tested against.
#[cfg(test)]
pub fn push_away(p: Vec2, q: Vec2) -> Vec2 {
    let away = p - q;
    let d_sq = away.length_squared();
    if d_sq > 0.0 { away / d_sq } else { Vec2::ZERO }
}

#[cfg(test)]
mod tests {
    use super::super::TaggedSums;
    use super::*;

    fn separation(p: Vec2, neighbours: &[Vec2]) -> Vec2 {
        TaggedSums::over(p, neighbours.iter().map(|&q| (q, Vec2::X))).separation
    }

    #[test]
    fn buckland_separation_example() {
        // §5.2: self at 0, neighbours at (10, 0) and (0, −20) → (−0.1, 0.05).
        let f = separation(Vec2::ZERO, &[Vec2::new(10.0, 0.0), Vec2::new(0.0, -20.0)]);
        assert!((f - Vec2::new(-0.1, 0.05)).length() < 1e-7);
        let sym = separation(Vec2::ZERO, &[Vec2::new(1.0, 0.0), Vec2::new(-1.0, 0.0)]);
        assert_eq!(sym, Vec2::ZERO);
        assert_eq!(push_away(Vec2::X, Vec2::X), Vec2::ZERO);
    }
}
