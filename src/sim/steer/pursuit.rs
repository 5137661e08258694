//! Pursuit (Buckland §2.4): seek the evader's predicted position. When the evader is ahead and
//! heading almost straight at the pursuer (relative heading < −0.95, ≈ 18°) seek its current
//! position; otherwise look ahead T = |to evader| / (own max speed + evader speed), optionally
//! plus the turnaround time (coefficient · (1 − heading·direction to target)).
//!
//! Text fix (§8.9): the prose says the turnaround time depends on "the two headings and the max
//! turn rate"; the listing (followed here) uses heading · direction-to-target and no turn rate.

use glam::Vec2;

use crate::sim::Body;

/// Relative heading below which an evader ahead counts as coming head-on (acos 0.95 ≈ 18.2°).
pub const HEAD_ON_DOT: f32 = -0.95;

/// Seconds needed to turn toward `target`: 0 dead ahead, `coefficient` at 90°, 2·`coefficient` behind.
pub fn turnaround_time(p: Vec2, heading: Vec2, target: Vec2, coefficient: f32) -> f32 {
    let dot = heading.dot((target - p).normalize_or_zero());
    (dot - 1.0) * -coefficient
}

/// Seconds to look ahead when closing in on `other` from `p` at up to `max_speed`.
pub fn look_ahead_time(p: Vec2, max_speed: f32, other: &Body) -> f32 {
    let closing = max_speed + other.velocity.length();
    if closing > 0.0 {
        p.distance(other.position) / closing
    } else {
        0.0
    }
}

/// The point a pursuer at `p` facing `heading` seeks to catch `evader`.
pub fn pursuit_point(p: Vec2, heading: Vec2, max_speed: f32, evader: &Body, turnaround_coefficient: f32) -> Vec2 {
    let to_evader = evader.position - p;
    if to_evader.dot(heading) > 0.0 && heading.dot(evader.heading) < HEAD_ON_DOT {
        return evader.position;
    }
    let t =
        look_ahead_time(p, max_speed, evader) + turnaround_time(p, heading, evader.position, turnaround_coefficient);
    evader.position + evader.velocity * t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Status;

    pub(crate) fn mover(position: Vec2, velocity: Vec2, heading: Vec2) -> Body {
        Body {
            id: 9,
            profile: 0,
            position,
            velocity,
            heading,
            radius: 1.0,
            status: Status::Active,
        }
    }

    #[test]
    fn buckland_head_on_pursuit_seeks_the_current_position() {
        let evader = mover(Vec2::new(100.0, 0.0), Vec2::new(-10.0, 0.0), Vec2::NEG_X);
        assert_eq!(pursuit_point(Vec2::ZERO, Vec2::X, 100.0, &evader, 0.0), evader.position);
        // 160° apart: dot −0.94 > −0.95, so the predictive branch is used.
        let h = Vec2::from_angle(160f32.to_radians());
        let slanted = mover(Vec2::new(100.0, 0.0), h * 10.0, h);
        assert!((Vec2::X.dot(h) + 0.9397).abs() < 1e-3);
        assert_ne!(
            pursuit_point(Vec2::ZERO, Vec2::X, 100.0, &slanted, 0.0),
            slanted.position
        );
        assert!((HEAD_ON_DOT.acos().to_degrees() - 161.8).abs() < 0.1);
    }

    #[test]
    fn buckland_predictive_pursuit() {
        // §5.2: pursuer max speed 100 at 0; evader at (100, 0) with v = (0, 50): T = 0.667 → (100, 33.3).
        let evader = mover(Vec2::new(100.0, 0.0), Vec2::new(0.0, 50.0), Vec2::Y);
        let target = pursuit_point(Vec2::ZERO, Vec2::X, 100.0, &evader, 0.0);
        assert!((target - Vec2::new(100.0, 100.0 / 3.0)).length() < 1e-3);
    }

    #[test]
    fn buckland_turnaround_times() {
        // §5.2: coefficient 0.5 → 0 s ahead, 0.5 s at 90°, 1 s behind.
        let t = |target: Vec2| turnaround_time(Vec2::ZERO, Vec2::X, target, 0.5);
        assert_eq!(t(Vec2::new(10.0, 0.0)), 0.0);
        assert!((t(Vec2::new(0.0, 10.0)) - 0.5).abs() < 1e-6);
        assert!((t(Vec2::new(-10.0, 0.0)) - 1.0).abs() < 1e-6);
    }
}
