//! Separation (Buckland §2.13): Σ normalize(p − q) / |p − q| over neighbours within the view
//! radius (plus the neighbour's body radius, as in `TagNeighbors`).

use glam::Vec2;

/// Sum of 1/distance pushes away from each neighbour `q` of `p` (coincident ones are skipped).
pub fn separation_from(p: Vec2, neighbours: impl Iterator<Item = Vec2>) -> Vec2 {
    neighbours
        .map(|q| {
            let away = p - q;
            let d_sq = away.length_squared();
            if d_sq > 0.0 { away / d_sq } else { Vec2::ZERO }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckland_separation_example() {
        // §5.2: self at 0, neighbours at (10, 0) and (0, −20) → (−0.1, 0.05).
        let f = separation_from(Vec2::ZERO, [Vec2::new(10.0, 0.0), Vec2::new(0.0, -20.0)].into_iter());
        assert!((f - Vec2::new(-0.1, 0.05)).length() < 1e-7);
        let sym = separation_from(Vec2::ZERO, [Vec2::new(1.0, 0.0), Vec2::new(-1.0, 0.0)].into_iter());
        assert_eq!(sym, Vec2::ZERO);
    }
}
