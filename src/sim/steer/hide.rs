//! Hide (Buckland §2.10): for every obstacle circle, the hiding spot lies on the far side from
//! the hunter, `distance_from_boundary` beyond its radius; the agent arrives (fast) at the nearest
//! spot, or evades the hunter when there is no obstacle. Polygons hide by their bounding circle
//! (see `obstacles.rs`). The Polish text's "omija" for the no-obstacle case means Evade (§8.13).

use glam::Vec2;

/// The spot behind an obstacle at `center` of `radius`, seen from `hunter`.
pub fn hiding_spot(center: Vec2, radius: f32, hunter: Vec2, distance_from_boundary: f32) -> Vec2 {
    center + (center - hunter).normalize_or_zero() * (radius + distance_from_boundary)
}

/// The hiding spot nearest to `p` (by squared distance) among `circles`, if there is any circle.
pub fn best_hiding_spot(
    p: Vec2,
    hunter: Vec2,
    distance_from_boundary: f32,
    circles: impl Iterator<Item = (Vec2, f32)>,
) -> Option<Vec2> {
    circles
        .map(|(c, r)| hiding_spot(c, r, hunter, distance_from_boundary))
        .fold(None, |best: Option<Vec2>, spot| match best {
            Some(b) if b.distance_squared(p) <= spot.distance_squared(p) => best,
            _ => Some(spot),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckland_hide_example() {
        // §5.2: hunter at 0; obstacle (100, 0) r 20 → spot (150, 0); obstacle (0, 100) r 10 → (0, 140);
        // a vehicle at (120, 50) picks (150, 0) (3400 vs 22500); no obstacles → none (evade).
        assert_eq!(
            hiding_spot(Vec2::new(100.0, 0.0), 20.0, Vec2::ZERO, 30.0),
            Vec2::new(150.0, 0.0)
        );
        assert_eq!(
            hiding_spot(Vec2::new(0.0, 100.0), 10.0, Vec2::ZERO, 30.0),
            Vec2::new(0.0, 140.0)
        );
        let circles = [(Vec2::new(100.0, 0.0), 20.0), (Vec2::new(0.0, 100.0), 10.0)];
        let best = best_hiding_spot(Vec2::new(120.0, 50.0), Vec2::ZERO, 30.0, circles.into_iter());
        assert_eq!(best, Some(Vec2::new(150.0, 0.0)));
        assert_eq!(best_hiding_spot(Vec2::ZERO, Vec2::ONE, 30.0, std::iter::empty()), None);
    }
}
