//! Stria's goal and speed forces (§4.2.2, forces 1–4), for an agent at `p` with velocity `v`:
//! - seek: F = v_max·d̂ − v (d̂ towards the target);
//! - direct pull: F = d̂, the "aggressive" unit pull;
//! - arrival: F = min(v_max·d/d_max, v_max)·d̂ − v, equal to seek from d_max out;
//! - reach speed: F = (s − |v|)·ô along the orientation, so the agent does not turn. The text
//!   writes the speed difference as a norm, which is never negative and would never brake; the
//!   signed difference is used.

use glam::Vec2;

/// Seek: full speed towards `target`.
pub fn seek(p: Vec2, v: Vec2, target: Vec2, v_max: f32) -> Vec2 {
    (target - p).normalize_or_zero() * v_max - v
}

/// Direct pull: the unit vector towards `target`.
pub fn direct_pull(p: Vec2, target: Vec2) -> Vec2 {
    (target - p).normalize_or_zero()
}

/// Arrival: seek slowing linearly inside `d_max`.
pub fn arrival(p: Vec2, v: Vec2, target: Vec2, v_max: f32, d_max: f32) -> Vec2 {
    let to = target - p;
    let d = to.length();
    if d <= 0.0 {
        return -v;
    }
    to / d * (v_max * d / d_max).min(v_max) - v
}

/// Reach speed `s` along the orientation `o` (unit), signed.
pub fn reach_speed(v: Vec2, o: Vec2, s: f32) -> Vec2 {
    o * (s - v.length())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrival_at_half_d_max_asks_for_half_speed() {
        let f = arrival(Vec2::ZERO, Vec2::ZERO, Vec2::new(2.0, 0.0), 1.5, 4.0);
        assert!((f - Vec2::new(0.75, 0.0)).length() < 1e-6);
        let far = arrival(Vec2::ZERO, Vec2::Y, Vec2::new(10.0, 0.0), 1.5, 4.0);
        assert_eq!(far, seek(Vec2::ZERO, Vec2::Y, Vec2::new(10.0, 0.0), 1.5));
    }

    #[test]
    fn reach_speed_brakes_as_well_as_accelerates() {
        assert_eq!(reach_speed(Vec2::new(2.0, 0.0), Vec2::X, 1.0), Vec2::new(-1.0, 0.0));
        assert_eq!(reach_speed(Vec2::new(0.5, 0.0), Vec2::X, 1.0), Vec2::new(0.5, 0.0));
        assert_eq!(direct_pull(Vec2::ZERO, Vec2::new(0.0, 3.0)), Vec2::Y);
    }
}
