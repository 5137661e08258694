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

/// Where the move from `from` to `to` crosses segment `a`–`b` (its ends widened by `reach`
/// metres along it, so that a move through the point two segments share cannot slip between
/// them by rounding), as the fraction of the move done there, in (0, 1]: when `from` lies off
/// the segment's line and `to` on the other side of it or exactly on it (a move that ends on
/// the line reaches it, at 1, so that the next move cannot start from the line and cross
/// unseen), while a move that starts on the line crosses nothing; `None` when it does not
/// cross. It is worked out in `f64` ([`side_of`]): in `f32` a point within rounding of the line,
/// a hair beyond it, can come out on the near side, and where along the segment a grazing move
/// meets its line can come out anywhere, and the move would end past the line unseen.
pub fn segment_crossing(from: Vec2, to: Vec2, (a, b): (Vec2, Vec2), reach: f32) -> Option<f32> {
    let (side_from, side_to) = (side_of(a, b, from), side_of(a, b, to));
    let reaches = side_from != 0.0 && (side_to == 0.0 || (side_from > 0.0) != (side_to > 0.0));
    if !reaches {
        return None;
    }
    // Where along the segment (0 at `a`, 1 at `b`) the move meets its line.
    let (side_a, side_b) = (side_of(from, to, a), side_of(from, to, b));
    let along = side_a / (side_a - side_b);
    let widened = f64::from(reach) / f64::from(a.distance(b));
    (-widened..=1.0 + widened)
        .contains(&along)
        .then(|| (side_from / (side_from - side_to)) as f32)
}

/// Which side of the line from `a` through `b` the point `p` lies on: (b − a) × (p − a), positive
/// to the left, zero on the line, from the `f32` coordinates in `f64` (in which the difference
/// of two coordinates of a scene's magnitudes is exact, and a product rounds some 5·10⁸ times
/// finer than in `f32`).
pub fn side_of(a: Vec2, b: Vec2, p: Vec2) -> f64 {
    let [ax, ay, bx, by, px, py] = [a.x, a.y, b.x, b.y, p.x, p.y].map(f64::from);
    (bx - ax) * (py - ay) - (by - ay) * (px - ax)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_crosses_a_segment_only_from_one_side_to_the_other() {
        let wall = (Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0));
        // Straight down through x = 4: a quarter of the way.
        let t = segment_crossing(Vec2::new(4.0, 1.0), Vec2::new(4.0, -3.0), wall, 0.0);
        assert_eq!(t, Some(0.25));
        // Diagonal: from (−1, 2) to (3, −2) crosses y = 0 at x = 1, halfway.
        assert_eq!(
            segment_crossing(Vec2::new(-1.0, 2.0), Vec2::new(3.0, -2.0), wall, 0.0),
            Some(0.5)
        );
        // Stopping short, moving along, or starting on the line: no crossing.
        assert_eq!(
            segment_crossing(Vec2::new(4.0, 1.0), Vec2::new(4.0, 0.5), wall, 0.0),
            None
        );
        assert_eq!(
            segment_crossing(Vec2::new(1.0, 1.0), Vec2::new(9.0, 1.0), wall, 0.0),
            None
        );
        assert_eq!(
            segment_crossing(Vec2::new(4.0, 0.0), Vec2::new(4.0, -1.0), wall, 0.0),
            None
        );
        // Ending exactly on the line reaches it, at the end of the move.
        assert_eq!(
            segment_crossing(Vec2::new(4.0, 1.0), Vec2::new(4.0, 0.0), wall, 0.0),
            Some(1.0)
        );
        // 1e-25 m either side of the line: sides of ±1e-24, whose product `f32` rounds to zero.
        assert!(segment_crossing(Vec2::new(4.0, 1e-25), Vec2::new(4.0, -1e-25), wall, 0.0).is_some());
        // Past the end: only within the widened end.
        let past = (Vec2::new(10.0005, 1.0), Vec2::new(10.0005, -1.0));
        assert_eq!(segment_crossing(past.0, past.1, wall, 0.0), None);
        assert_eq!(segment_crossing(past.0, past.1, wall, 1e-3), Some(0.5));
        // Either direction through a two-sided wall.
        assert_eq!(
            segment_crossing(Vec2::new(4.0, -1.0), Vec2::new(4.0, 1.0), wall, 0.0),
            Some(0.5)
        );
    }

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
