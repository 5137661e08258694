//! Evade (Buckland §2.5): flee from the pursuer's predicted position, looking ahead
//! T = |to pursuer| / (own max speed + pursuer speed); no heading check. Whether the text's Evade
//! inherits Flee's panic distance is left open (§8.14), so it is a parameter here.

use glam::Vec2;

use super::pursuit::look_ahead_time;
use crate::sim::Body;

/// The point an agent at `p` (up to `max_speed`) flees from to evade `pursuer`.
pub fn evade_point(p: Vec2, max_speed: f32, pursuer: &Body) -> Vec2 {
    pursuer.position + pursuer.velocity * look_ahead_time(p, max_speed, pursuer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Status;

    #[test]
    fn buckland_evade_example() {
        // §5.2: self max speed 100 at 0; pursuer at (100, 0), v = (−50, 0): T = 0.667 → flee from (66.7, 0).
        let pursuer = Body {
            id: 1,
            profile: 0,
            position: Vec2::new(100.0, 0.0),
            velocity: Vec2::new(-50.0, 0.0),
            heading: Vec2::NEG_X,
            radius: 1.0,
            status: Status::Active,
        };
        let point = evade_point(Vec2::ZERO, 100.0, &pursuer);
        assert!((point - Vec2::new(200.0 / 3.0, 0.0)).length() < 1e-3);
    }
}
