//! Interpose (Buckland §2.9): get between two agents (or points). Predict where both will be after
//! the time T = |midpoint − p| / max speed needed to reach their current midpoint, then arrive
//! (fast) at the midpoint of the predictions.

use glam::Vec2;

/// The point to arrive at between `a` and `b`, each given as (position, velocity).
pub fn interpose_point(p: Vec2, max_speed: f32, a: (Vec2, Vec2), b: (Vec2, Vec2)) -> Vec2 {
    let midpoint = (a.0 + b.0) * 0.5;
    let t = if max_speed > 0.0 {
        p.distance(midpoint) / max_speed
    } else {
        0.0
    };
    ((a.0 + a.1 * t) + (b.0 + b.1 * t)) * 0.5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckland_interpose_example() {
        // §5.2: A (0, 0) v (0, 10); B (100, 0) v (0, 10); self (50, 100), max speed 50 → T = 2,
        // predictions (0, 20) and (100, 20), arrive (fast) at (50, 20).
        let a = (Vec2::ZERO, Vec2::new(0.0, 10.0));
        let b = (Vec2::new(100.0, 0.0), Vec2::new(0.0, 10.0));
        assert_eq!(
            interpose_point(Vec2::new(50.0, 100.0), 50.0, a, b),
            Vec2::new(50.0, 20.0)
        );
    }
}
