//! Ray casting against circles and segments: the "rays from the agent's body" sense of
//! Popelová §2.1.1 and Stria §2.4. A hit reports the distance along the ray, the point and the
//! surface normal there, always pointing out of the obstacle (towards the side the ray came from).

use glam::Vec2;

/// Where a ray meets an obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// Distance from the ray origin to the hit point, in metres (0 when the origin is inside).
    pub distance: f32,
    /// The hit point.
    pub point: Vec2,
    /// Unit surface normal at the hit point, pointing out of the obstacle.
    pub normal: Vec2,
}

impl RayHit {
    /// The immersed length of a ray of `length` (Popelová's D): length minus distance to the hit.
    pub fn immersion(&self, length: f32) -> f32 {
        (length - self.distance).max(0.0)
    }
}

/// The nearer of two optional hits.
pub fn nearer(a: Option<RayHit>, b: Option<RayHit>) -> Option<RayHit> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if y.distance < x.distance { y } else { x }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// The first hit of the ray `origin + s·dir` (`dir` unit, 0 ≤ s ≤ `length`) with a solid disc.
/// A ray starting inside the disc hits at distance 0 with the normal from the centre to the origin.
pub fn ray_circle(origin: Vec2, dir: Vec2, length: f32, center: Vec2, radius: f32) -> Option<RayHit> {
    let to_origin = origin - center;
    let c = to_origin.length_squared() - radius * radius;
    if c <= 0.0 {
        let normal = to_origin.try_normalize().unwrap_or(-dir);
        return Some(RayHit {
            distance: 0.0,
            point: origin,
            normal,
        });
    }
    let b = to_origin.dot(dir);
    let disc = b * b - c;
    if b > 0.0 || disc < 0.0 {
        return None;
    }
    let s = -b - disc.sqrt();
    (s <= length).then(|| {
        let point = origin + dir * s;
        RayHit {
            distance: s,
            point,
            normal: (point - center) / radius,
        }
    })
}

/// The hit of the ray with the segment `a`–`b`; the normal faces the ray's origin side.
pub fn ray_segment(origin: Vec2, dir: Vec2, length: f32, a: Vec2, b: Vec2) -> Option<RayHit> {
    let edge = b - a;
    let denom = dir.perp_dot(edge);
    if denom.abs() <= f32::EPSILON {
        return None;
    }
    let to_a = a - origin;
    let s = to_a.perp_dot(edge) / denom;
    let u = to_a.perp_dot(dir) / denom;
    if !(0.0..=length).contains(&s) || !(0.0..=1.0).contains(&u) {
        return None;
    }
    let mut normal = edge.perp().normalize();
    if normal.dot(dir) > 0.0 {
        normal = -normal;
    }
    Some(RayHit {
        distance: s,
        point: origin + dir * s,
        normal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ray_meets_a_circle_with_an_outward_normal() {
        let hit = ray_circle(Vec2::ZERO, Vec2::X, 10.0, Vec2::new(5.0, 0.0), 1.0).unwrap();
        assert!((hit.distance - 4.0).abs() < 1e-6);
        assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
        assert!((hit.immersion(10.0) - 6.0).abs() < 1e-6);
        assert!(ray_circle(Vec2::ZERO, Vec2::X, 3.0, Vec2::new(5.0, 0.0), 1.0).is_none());
        assert!(ray_circle(Vec2::ZERO, -Vec2::X, 10.0, Vec2::new(5.0, 0.0), 1.0).is_none());
        let inside = ray_circle(Vec2::new(4.5, 0.0), Vec2::X, 1.0, Vec2::new(5.0, 0.0), 1.0).unwrap();
        assert_eq!((inside.distance, inside.normal), (0.0, Vec2::new(-1.0, 0.0)));
    }

    #[test]
    fn ray_meets_a_segment_from_either_side() {
        let (a, b) = (Vec2::new(2.0, -1.0), Vec2::new(2.0, 1.0));
        let hit = ray_segment(Vec2::ZERO, Vec2::X, 5.0, a, b).unwrap();
        assert!((hit.distance - 2.0).abs() < 1e-6);
        assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
        let back = ray_segment(Vec2::new(4.0, 0.0), -Vec2::X, 5.0, a, b).unwrap();
        assert_eq!(back.normal, Vec2::X);
        assert!(ray_segment(Vec2::ZERO, Vec2::Y, 5.0, a, b).is_none());
        assert!(ray_segment(Vec2::ZERO, Vec2::X, 1.5, a, b).is_none());
        assert_eq!(nearer(Some(hit), Some(back)).unwrap().distance, hit.distance);
    }
}
