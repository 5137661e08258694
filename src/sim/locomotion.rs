//! Locomotion (Buckland §1.2): force → acceleration → velocity (capped at max speed, turn rate
//! limited) → position; heading follows velocity only above the speed threshold.

use glam::Vec2;

use crate::geom::truncate;
use crate::sim::{Body, ResolvedProfile};

/// Squared speed below which the heading is left unchanged (Buckland's 1e-8 guard).
pub const HEADING_SPEED_SQ_THRESHOLD: f32 = 1e-8;

/// The velocity a steering force asks for: v + F/m·dt, truncated to max speed.
pub fn preferred_velocity(body: &Body, force: Vec2, profile: &ResolvedProfile, dt: f32) -> Vec2 {
    truncate(body.velocity + force / profile.mass * dt, profile.max_speed)
}

/// The body's next (position, velocity, heading) when it moves with `velocity` for `dt`:
/// the direction change is limited to the max turn rate, then the position integrated.
pub fn advance(body: &Body, velocity: Vec2, profile: &ResolvedProfile, dt: f32) -> (Vec2, Vec2, Vec2) {
    let velocity = limit_turn(body.heading, velocity, profile.max_turn_rate * dt);
    let position = body.position + velocity * dt;
    let heading = if velocity.length_squared() > HEADING_SPEED_SQ_THRESHOLD {
        velocity.normalize()
    } else {
        body.heading
    };
    (position, velocity, heading)
}

/// Rotates `velocity` toward `heading` so that it differs by at most `max_angle` radians.
fn limit_turn(heading: Vec2, velocity: Vec2, max_angle: f32) -> Vec2 {
    let speed = velocity.length();
    if speed * speed <= HEADING_SPEED_SQ_THRESHOLD || surely_within(heading, velocity, max_angle) {
        return velocity;
    }
    let angle = heading.angle_to(velocity);
    if angle.abs() <= max_angle {
        velocity
    } else {
        Vec2::from_angle(max_angle.copysign(angle)).rotate(heading) * speed
    }
}

/// True when the angle between `a` and `b` is certainly at most `max_angle` as
/// [`Vec2::angle_to`] measures it: their cosine exceeds an upper bound of cos(`max_angle`),
/// 1 − m²/2 + m⁴/24, by 10⁻⁴ — far more than the rounding here and the error of glam's
/// approximate arc cosine, since the arc cosine falls at least as fast as its argument rises.
/// Squared, so the common small turn costs neither a square root nor the arc cosine; false
/// says nothing.
fn surely_within(a: Vec2, b: Vec2, max_angle: f32) -> bool {
    let m_sq = max_angle * max_angle;
    let cos_above = 1.0 - 0.5 * m_sq + m_sq * m_sq / 24.0 + 1e-4;
    let dot = a.dot(b);
    dot > 0.0 && cos_above > 0.0 && dot * dot >= cos_above * cos_above * (a.length_squared() * b.length_squared())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::steering::Combiner;
    use crate::sim::Status;

    fn profile(max_turn_deg: f32) -> ResolvedProfile {
        ResolvedProfile {
            radius: 1.0,
            mass: 2.0,
            max_speed: 2.0,
            preferred_speed: 2.0,
            max_force: 100.0,
            max_turn_rate: max_turn_deg.to_radians(),
            behaviours: vec![],
            labels: vec![],
            probabilities: vec![],
            combiner: Combiner::default(),
            neighbour_radius: 0.0,
            behaviour_radius: 0.0,
            lists_neighbours: false,
            flock_view: None,
            nearest: None,
            preferred_velocity: Default::default(),
            avoidance: Default::default(),
            unstick: Default::default(),
            waypoint_seek_distance: None,
            heading_smoothing: 0,
        }
    }

    fn body(velocity: Vec2, heading: Vec2) -> Body {
        Body {
            id: 0,
            profile: 0,
            position: Vec2::ZERO,
            velocity,
            heading,
            radius: 1.0,
            status: Status::Active,
        }
    }

    #[test]
    fn buckland_vehicle_update_example() {
        // §5.2: m = 2, dt = 0.5, F = (10, 0), v0 = 0, MaxSpeed 2 → v = (2, 0), p += (1, 0), heading (1, 0).
        let b = body(Vec2::ZERO, Vec2::Y);
        let p = profile(100_000.0);
        let v = preferred_velocity(&b, Vec2::new(10.0, 0.0), &p, 0.5);
        assert_eq!(v, Vec2::new(2.0, 0.0));
        let (pos, vel, heading) = advance(&b, v, &p, 0.5);
        assert_eq!((pos, vel, heading), (Vec2::new(1.0, 0.0), Vec2::new(2.0, 0.0), Vec2::X));
    }

    #[test]
    fn heading_is_kept_below_the_speed_threshold() {
        let b = body(Vec2::ZERO, Vec2::Y);
        let (_, _, heading) = advance(&b, Vec2::new(1e-5, 0.0), &profile(100_000.0), 0.1);
        assert_eq!(heading, Vec2::Y);
    }

    #[test]
    fn surely_within_never_admits_a_turn_wider_than_the_limit() {
        // Turns just inside and outside limits from a hundredth of a degree to 180°, at
        // several speeds and headings: whenever the shortcut says yes, glam's angle agrees.
        let mut admitted = 0;
        for limit_step in 1..=400 {
            let limit = limit_step as f32 * std::f32::consts::PI / 400.0;
            for turn_step in -50..=50 {
                let turn = limit * (1.0 + turn_step as f32 * 2e-3);
                for (heading_angle, speed) in [(0.0f32, 1.5f32), (2.0, 0.01), (-1.2, 7.0)] {
                    let heading = Vec2::from_angle(heading_angle);
                    let velocity = Vec2::from_angle(heading_angle + turn) * speed;
                    if surely_within(heading, velocity, limit) {
                        admitted += 1;
                        assert!(heading.angle_to(velocity).abs() <= limit, "{limit} {turn} {speed}");
                    }
                }
            }
        }
        assert!(
            admitted > 10_000,
            "the shortcut takes most turns inside the limit: {admitted}"
        );
    }

    #[test]
    fn turn_rate_caps_the_change_of_direction() {
        let b = body(Vec2::X, Vec2::X);
        let (_, vel, heading) = advance(&b, Vec2::new(0.0, 1.0), &profile(90.0), 0.5);
        let expected = Vec2::from_angle(45f32.to_radians());
        assert!((vel - expected).length() < 1e-5);
        assert!((heading.length() - 1.0).abs() < 1e-6);
    }
}
