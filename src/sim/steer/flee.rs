//! Flee (Buckland §2.2): desired = normalize(p − threat) · speed; force = desired − v, optionally
//! only while the threat is within a panic distance (the text uses 100 units; its listing names
//! the undefined `target` where it means `TargetPos` — fixed here by construction).

use glam::Vec2;

/// The force that turns velocity `v` at `p` into full `speed` straight away from `threat`;
/// zero when `panic_distance` is given and the threat is farther than that.
pub fn flee_force(p: Vec2, v: Vec2, threat: Vec2, speed: f32, panic_distance: Option<f32>) -> Vec2 {
    if let Some(d) = panic_distance
        && p.distance_squared(threat) > d * d
    {
        return Vec2::ZERO;
    }
    (p - threat).normalize_or_zero() * speed - v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckland_flee_with_panic_distance() {
        // §5.2: panic distance 100; a threat at distance 150 → (0, 0); at (50, 0) with v = 0 → (−150, 0).
        let far = flee_force(Vec2::ZERO, Vec2::ZERO, Vec2::new(150.0, 0.0), 150.0, Some(100.0));
        assert_eq!(far, Vec2::ZERO);
        let near = flee_force(Vec2::ZERO, Vec2::ZERO, Vec2::new(50.0, 0.0), 150.0, Some(100.0));
        assert_eq!(near, Vec2::new(-150.0, 0.0));
        let always = flee_force(Vec2::ZERO, Vec2::ZERO, Vec2::new(150.0, 0.0), 150.0, None);
        assert_eq!(always, Vec2::new(-150.0, 0.0));
    }
}
