//! Stria's obstacle forces (§4.2.2, forces 7–8).
//! - Avoidance: of the perceived obstacle hits (the ray fan), only the nearest counts; the boundary
//!   normal there, minus its component along the orientation, turns the agent away. The force
//!   grows linearly from zero at the ray's end to `strength` at contact (the text gives no scale).
//!   A hit met exactly head-on has no sideways component; the agent then turns away from the side
//!   of the ray that saw it (left when it was the straight-ahead ray).
//! - Side clearance: rays to the left and right of `clearance` length; the nearest boundary point's
//!   normal, minus its component along the orientation, pushes the agent off, growing as it closes in.

use glam::Vec2;

use super::perception::ObstaclePerception;
use crate::geom::RayHit;

/// The part of `n` perpendicular to unit `o`.
fn sideways(n: Vec2, o: Vec2) -> Vec2 {
    n - o * n.dot(o)
}

/// Avoidance force from the nearest of `seen` (sorted nearest first) for orientation `o`.
pub fn avoidance(seen: &[ObstaclePerception], o: Vec2, range: f32, strength: f32) -> Vec2 {
    let Some(nearest) = seen.first() else {
        return Vec2::ZERO;
    };
    let urgency = (1.0 - nearest.hit.distance / range).clamp(0.0, 1.0);
    let side = sideways(nearest.hit.normal, o);
    let dir = side.try_normalize().unwrap_or_else(|| {
        if o.perp_dot(nearest.dir) > 0.0 {
            -o.perp()
        } else {
            o.perp()
        }
    });
    dir * (strength * urgency)
}

/// Side-clearance force from the nearer of the left and right hits.
pub fn side_clearance(left: Option<RayHit>, right: Option<RayHit>, o: Vec2, clearance: f32, strength: f32) -> Vec2 {
    let nearest = match (left, right) {
        (Some(l), Some(r)) => Some(if l.distance <= r.distance { l } else { r }),
        (l, r) => l.or(r),
    };
    nearest.map_or(Vec2::ZERO, |hit| {
        sideways(hit.normal, o).normalize_or_zero() * (strength * (1.0 - hit.distance / clearance).clamp(0.0, 1.0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(dir: Vec2, distance: f32, normal: Vec2) -> ObstaclePerception {
        ObstaclePerception {
            dir,
            hit: RayHit {
                distance,
                point: dir * distance,
                normal,
            },
        }
    }

    #[test]
    fn only_the_sideways_part_of_the_nearest_normal_steers() {
        let n = Vec2::new(-1.0, 1.0).normalize();
        let f = avoidance(
            &[seen(Vec2::X, 2.5, n), seen(Vec2::X, 4.0, -Vec2::Y)],
            Vec2::X,
            5.0,
            2.0,
        );
        assert!(
            (f - Vec2::new(0.0, 1.0)).length() < 1e-5,
            "half strength at half range: {f}"
        );
        let head_on = avoidance(&[seen(Vec2::X, 1.0, -Vec2::X)], Vec2::X, 5.0, 1.0);
        assert!(head_on.x.abs() < 1e-6 && head_on.y > 0.0);
    }

    #[test]
    fn side_clearance_grows_as_the_wall_gets_closer() {
        let wall = |d: f32| RayHit {
            distance: d,
            point: Vec2::new(0.0, d),
            normal: -Vec2::Y,
        };
        let far = side_clearance(Some(wall(0.8)), None, Vec2::X, 1.0, 1.0);
        let near = side_clearance(Some(wall(0.2)), None, Vec2::X, 1.0, 1.0);
        assert!(near.y < far.y && far.y < 0.0);
    }
}
