//! Arrive (Buckland §2.3): seek that slows down to stop exactly on the target.
//! speed = min(dist / (deceleration · 0.3), max); desired = to_target · speed / dist.

use glam::Vec2;

use crate::scene::steering::Deceleration;

/// Buckland's `DecelerationTweaker`, needed because the deceleration enum is an integer.
const DECELERATION_TWEAKER: f32 = 0.3;

/// The speed Arrive asks for at distance `dist`, capped at `max_speed`.
pub fn arrive_speed(dist: f32, max_speed: f32, deceleration: Deceleration) -> f32 {
    (dist / (deceleration.factor() * DECELERATION_TWEAKER)).min(max_speed)
}

/// The Arrive force for an agent at `p` with velocity `v`; zero when already on the target.
pub fn arrive_force(p: Vec2, v: Vec2, target: Vec2, max_speed: f32, deceleration: Deceleration) -> Vec2 {
    let to_target = target - p;
    let dist = to_target.length();
    if dist > 0.0 {
        let speed = arrive_speed(dist, max_speed, deceleration);
        to_target * (speed / dist) - v
    } else {
        Vec2::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckland_arrive_speeds_at_30_300_and_0() {
        let near = |d| arrive_force(Vec2::ZERO, Vec2::ZERO, Vec2::new(30.0, 0.0), 150.0, d).x;
        assert!((near(Deceleration::Slow) - 33.333).abs() < 1e-3);
        assert!((near(Deceleration::Normal) - 50.0).abs() < 1e-4);
        assert!((near(Deceleration::Fast) - 100.0).abs() < 1e-4);
        for d in [Deceleration::Slow, Deceleration::Normal, Deceleration::Fast] {
            assert_eq!(
                arrive_force(Vec2::ZERO, Vec2::ZERO, Vec2::new(300.0, 0.0), 150.0, d),
                Vec2::new(150.0, 0.0)
            );
            assert_eq!(arrive_force(Vec2::ONE, Vec2::ONE, Vec2::ONE, 150.0, d), Vec2::ZERO);
        }
    }
}
