//! Stria's two path-following forces (§4.2.2, forces 5–6) on the agent's path.
//! - Waypoints: seek the current waypoint (the mind's goal point); within `blend_distance` of it
//!   the next waypoint attracts too, the two interpolated by distance (the current one weakening),
//!   and once the mind advances only the next one attracts.
//! - Corridor: predict the position `prediction` seconds ahead; inside the corridor (half-width)
//!   nothing happens, otherwise seek the point where the agent would be by then had it moved along
//!   the path: its projection on the path moved |v|·prediction further along.

use glam::Vec2;

use super::motion::seek;
use crate::geom::closest_point_on_segment;

/// The waypoint force given the current waypoint index `i` of `points`.
pub fn waypoints(p: Vec2, v: Vec2, points: &[Vec2], i: usize, v_max: f32, blend_distance: f32) -> Vec2 {
    let current = seek(p, v, points[i], v_max);
    let Some(&next) = points.get(i + 1) else {
        return current;
    };
    let d = p.distance(points[i]);
    if d >= blend_distance {
        return current;
    }
    let w = d / blend_distance;
    current * w + seek(p, v, next, v_max) * (1.0 - w)
}

/// Arc length along `points` of the point nearest `q`, and that point.
fn project(points: &[Vec2], q: Vec2) -> (f32, Vec2) {
    let mut best = (f32::INFINITY, 0.0, points[0]);
    let mut run = 0.0;
    for w in points.windows(2) {
        let c = closest_point_on_segment(q, w[0], w[1]);
        let d = c.distance_squared(q);
        if d < best.0 {
            best = (d, run + w[0].distance(c), c);
        }
        run += w[0].distance(w[1]);
    }
    (best.1, best.2)
}

/// The point at arc length `s` along `points` (clamped to the ends).
fn point_at(points: &[Vec2], mut s: f32) -> Vec2 {
    for w in points.windows(2) {
        let len = w[0].distance(w[1]);
        if s <= len {
            return w[0] + (w[1] - w[0]) * (s / len.max(f32::EPSILON));
        }
        s -= len;
    }
    points[points.len() - 1]
}

/// The corridor force: zero while the predicted position stays within `half_width` of the path.
pub fn corridor(p: Vec2, v: Vec2, points: &[Vec2], v_max: f32, half_width: f32, prediction: f32) -> Vec2 {
    if points.len() < 2 {
        return Vec2::ZERO;
    }
    let ahead = p + v * prediction;
    let (_, on_path) = project(points, ahead);
    if ahead.distance(on_path) <= half_width {
        return Vec2::ZERO;
    }
    let (s, _) = project(points, p);
    seek(
        p,
        v,
        point_at(points, s + v.length().max(v_max * 0.5) * prediction),
        v_max,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corridor_is_quiet_inside_and_pulls_back_outside() {
        let path = [Vec2::ZERO, Vec2::new(10.0, 0.0)];
        assert_eq!(corridor(Vec2::new(2.0, 0.5), Vec2::X, &path, 1.0, 1.0, 1.0), Vec2::ZERO);
        let out = corridor(Vec2::new(2.0, 0.5), Vec2::new(0.0, 1.0), &path, 1.0, 1.0, 1.0);
        assert!(
            out.y < 0.0 && out.x > 0.0,
            "towards a point further along the path: {out}"
        );
    }

    #[test]
    fn waypoint_pull_blends_into_the_next_one() {
        let points = [Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)];
        let far = waypoints(Vec2::ZERO, Vec2::ZERO, &points, 0, 1.0, 2.0);
        assert_eq!(far, Vec2::X);
        let near = waypoints(Vec2::new(9.0, 0.0), Vec2::ZERO, &points, 0, 1.0, 2.0);
        assert!(near.x > 0.0 && near.y > 0.0, "half way between the two pulls: {near}");
    }
}
