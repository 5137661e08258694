//! Point–segment queries.

use glam::Vec2;

/// The point of segment `a`–`b` closest to `p` (the endpoint when the segment is degenerate).
pub fn closest_point_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let len_sq = ab.length_squared();
    if len_sq <= f32::EPSILON {
        return a;
    }
    let t = ((p - a).dot(ab) / len_sq).clamp(0.0, 1.0);
    a + ab * t
}

/// Euclidean distance from `p` to segment `a`–`b`.
pub fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    p.distance(closest_point_on_segment(p, a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_point_clamps_to_endpoints() {
        let a = Vec2::new(0.0, 0.0);
        let b = Vec2::new(10.0, 0.0);
        assert_eq!(closest_point_on_segment(Vec2::new(5.0, 3.0), a, b), Vec2::new(5.0, 0.0));
        assert_eq!(closest_point_on_segment(Vec2::new(-5.0, 3.0), a, b), a);
        assert_eq!(distance_to_segment(Vec2::new(13.0, 4.0), a, b), 5.0);
        assert_eq!(distance_to_segment(Vec2::new(1.0, 1.0), a, a), 2f32.sqrt());
    }
}
