//! Casting a disc instead of a thin ray: where a body of radius r moving straight from `origin`
//! first touches a segment. It is the ray cast against the segment grown by r (a capsule: the two
//! offset sides and the discs round the end points), so a corner that a thin ray would pass beside
//! is still met. The hit's point is the contact point on the segment, its normal points from there
//! to the disc's centre.

use glam::Vec2;

use super::ray::{RayHit, nearer, ray_circle, ray_segment};
use super::segment::closest_point_on_segment;

/// The first contact of a disc of `radius` > 0 moving from `origin` along unit `dir`, at most
/// `length` far, with the segment `a`–`b`. A disc already touching hits at distance 0.
pub fn disc_segment(origin: Vec2, dir: Vec2, length: f32, radius: f32, a: Vec2, b: Vec2) -> Option<RayHit> {
    let closest = closest_point_on_segment(origin, a, b);
    if origin.distance_squared(closest) <= radius * radius {
        return Some(RayHit {
            distance: 0.0,
            point: closest,
            normal: (origin - closest).try_normalize().unwrap_or(-dir),
        });
    }
    let corner = |c: Vec2| ray_circle(origin, dir, length, c, radius).map(|h| RayHit { point: c, ..h });
    let side = (b - a)
        .perp()
        .try_normalize()
        .map(|n| if n.dot(origin - a) < 0.0 { -n } else { n });
    let face = side.and_then(|n| {
        ray_segment(origin, dir, length, a + n * radius, b + n * radius).map(|h| RayHit {
            distance: h.distance,
            point: h.point - n * radius,
            normal: n,
        })
    });
    nearer(nearer(face, corner(a)), corner(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disc_meets_a_face_a_radius_early_and_a_corner_a_thin_ray_misses() {
        let (a, b) = (Vec2::new(2.0, -1.0), Vec2::new(2.0, 1.0));
        let face = disc_segment(Vec2::ZERO, Vec2::X, 5.0, 0.5, a, b).unwrap();
        assert!((face.distance - 1.5).abs() < 1e-6);
        assert_eq!((face.point, face.normal), (Vec2::new(2.0, 0.0), Vec2::new(-1.0, 0.0)));
        let origin = Vec2::new(0.0, 1.3);
        assert!(
            ray_segment(origin, Vec2::X, 5.0, a, b).is_none(),
            "the thin ray passes the corner"
        );
        let corner = disc_segment(origin, Vec2::X, 5.0, 0.5, a, b).unwrap();
        assert_eq!(corner.point, b);
        assert!((corner.distance - 1.6).abs() < 1e-5, "{}", corner.distance);
        assert!(
            corner.normal.x < 0.0 && corner.normal.y > 0.0,
            "pushes back and off the corner"
        );
        let touching = disc_segment(Vec2::new(1.6, 0.2), Vec2::Y, 5.0, 0.5, a, b).unwrap();
        assert_eq!(touching.distance, 0.0);
        assert!((touching.normal - Vec2::new(-1.0, 0.0)).length() < 1e-6);
        assert!(disc_segment(Vec2::new(0.0, 2.0), Vec2::X, 5.0, 0.5, a, b).is_none());
    }
}
