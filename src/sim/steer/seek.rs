//! Seek (Buckland §2.1): desired = normalize(target − p) · speed; force = desired − v.

use glam::Vec2;

/// The force that turns velocity `v` at `p` into full `speed` straight toward `target`.
pub fn seek_force(p: Vec2, v: Vec2, target: Vec2, speed: f32) -> Vec2 {
    (target - p).normalize_or_zero() * speed - v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckland_seek_example() {
        // §5.2: p = 0, v = (0, 50), target (100, 0), MaxSpeed 150 → (150, −50).
        let f = seek_force(Vec2::ZERO, Vec2::new(0.0, 50.0), Vec2::new(100.0, 0.0), 150.0);
        assert_eq!(f, Vec2::new(150.0, -50.0));
    }
}
