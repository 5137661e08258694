//! Velocity-obstacle cones as forbidden regions: the truncated cone of a disc (another agent,
//! a circle) or of a capsule (an obstacle edge grown by the agent's radius), the side
//! half-plane of ClearPath's type-II constraint, and the collision disc of ClearPath-2.
//!
//! Truncation uses ClearPath's linear approximation Γ: the chord across the cone at distance
//! (d − R)/τ from the apex along the direction of the nearest point, which lies nearer the apex
//! than the true cut-off arc, so the cone forbids slightly more than the exact VO^τ.

use glam::Vec2;

use super::region::Region;

/// Which side of the cone axis a velocity passes on (seen from the apex looking along the axis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Counter-clockwise of the axis.
    Left,
    /// Clockwise of the axis.
    Right,
}

/// A truncated cone: apex, unit axis (toward the nearest point of the obstacle), unit legs,
/// and the axial distance of the truncation chord (0 = untruncated).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone {
    /// Apex (the neighbour's velocity, or the RVO apex).
    pub apex: Vec2,
    /// Unit direction of the axis.
    pub axis: Vec2,
    /// Unit direction of the left (counter-clockwise) leg.
    pub left: Vec2,
    /// Unit direction of the right leg.
    pub right: Vec2,
    /// Axial distance of the truncation chord from the apex.
    pub cut: f32,
}

impl Cone {
    /// The cone of the disc of `radius` at relative position `p` (from the agent), apex `apex`,
    /// truncated at time horizon `tau`; `None` when the disc already contains the agent.
    pub fn of_disc(p: Vec2, radius: f32, apex: Vec2, tau: f32) -> Option<Cone> {
        let dist = p.length();
        if dist <= radius {
            return None;
        }
        let axis = p / dist;
        let sin = radius / dist;
        let cos = (1.0 - sin * sin).sqrt();
        Some(Cone {
            apex,
            axis,
            left: Vec2::new(cos, sin).rotate(axis),
            right: Vec2::new(cos, -sin).rotate(axis),
            cut: (dist - radius) / tau,
        })
    }

    /// The cone of segment `a`–`b` (relative to the agent) grown by `radius`, apex at the
    /// origin (static), truncated at `tau`; `None` when the agent already touches it.
    pub fn of_segment(a: Vec2, b: Vec2, radius: f32, tau: f32) -> Option<Cone> {
        let nearest = crate::geom::closest_point_on_segment(Vec2::ZERO, a, b);
        let dist = nearest.length();
        if dist <= radius {
            return None;
        }
        let axis = nearest / dist;
        let tangent = |e: Vec2, turn: f32| {
            let len = e.length();
            // At most 1: an end grazing the agent may round to nearer than `dist`.
            let sin = (radius / len).min(1.0);
            let cos = (1.0 - sin * sin).sqrt();
            Vec2::new(cos, turn * sin).rotate(e / len)
        };
        let pick = |d1: Vec2, d2: Vec2, leftmost: bool| {
            if turns_farther(axis, d1, d2) == leftmost {
                d1
            } else {
                d2
            }
        };
        Some(Cone {
            apex: Vec2::ZERO,
            axis,
            left: pick(tangent(a, 1.0), tangent(b, 1.0), true),
            right: pick(tangent(a, -1.0), tangent(b, -1.0), false),
            cut: (dist - radius) / tau,
        })
    }

    /// Where the truncation chord meets the left and right legs.
    pub fn chord(&self) -> (Vec2, Vec2) {
        (
            self.apex + self.left * (self.cut / self.left.dot(self.axis)),
            self.apex + self.right * (self.cut / self.right.dot(self.axis)),
        )
    }

    /// True when no velocity within `max_speed` lies in the truncated cone: the whole cone lies
    /// beyond its chord, across the axis, and the chord lies farther along the axis than the
    /// max-speed disc reaches, by a margin (1 mm/s) that rounding cannot cross.
    pub fn beyond(&self, max_speed: f32) -> bool {
        max_speed - self.axis.dot(self.apex) + 1e-3 < self.cut
    }

    /// Which side of the axis `v` lies on (ties go right).
    pub fn side_of(&self, v: Vec2) -> Side {
        if self.axis.perp_dot(v - self.apex) > 0.0 {
            Side::Left
        } else {
            Side::Right
        }
    }

    /// The cone as a region closed beyond `max_speed`. With `only` set, the edges of the other
    /// side (its leg and its half of the chord) are not candidates (Brandejský's per-VO side);
    /// without it the chord is one edge.
    #[inline]
    pub fn region(&self, max_speed: f32, only: Option<Side>) -> Region {
        self.region_within(self.outline(max_speed), max_speed, only)
    }

    /// Where [`Cone::region`] puts the region's corners for `max_speed`: the chord's ends and
    /// the far vertices' distance from the apex (the square roots and divisions of a region).
    #[inline]
    pub fn outline(&self, max_speed: f32) -> Outline {
        let (near_left, near_right) = self.chord();
        let far = 2.0 * (self.apex.length() + max_speed + 1.0)
            + near_left.distance(self.apex).max(near_right.distance(self.apex));
        Outline {
            near_left,
            near_right,
            far,
        }
    }

    /// [`Cone::region`] from the cone's `outline` for `max_speed`.
    #[inline]
    pub fn region_within(&self, outline: Outline, max_speed: f32, only: Option<Side>) -> Region {
        let Outline {
            near_left,
            near_right,
            far,
        } = outline;
        let mid = (near_left + near_right) * 0.5;
        let left_ok = only != Some(Side::Right);
        let right_ok = only != Some(Side::Left);
        let far_right = self.apex + self.right * far;
        let far_axis = self.apex + self.axis * far;
        let far_left = self.apex + self.left * far;
        // The edges through `far_axis` (1 and 2) close the cone far beyond max speed.
        let mask = |bits: &[bool]| bits.iter().rev().fold(0, |m, &b| m << 1 | b as u8);
        if self.cut > 0.0 && only.is_none() {
            Region::closed_beyond(
                [near_right, far_right, far_axis, far_left, near_left],
                0b11001,
                [0, 3, 4],
                max_speed,
            )
        } else if self.cut > 0.0 {
            Region::closed_beyond(
                [near_right, far_right, far_axis, far_left, near_left, mid],
                mask(&[right_ok, false, false, left_ok, left_ok, right_ok]),
                [0, 3, 4, 5],
                max_speed,
            )
        } else {
            Region::closed_beyond(
                [self.apex, far_right, far_axis, far_left],
                mask(&[right_ok, false, false, left_ok]),
                [0, 3],
                max_speed,
            )
        }
    }
}

/// The chord's ends and the far vertices' distance of a cone's region (see [`Cone::outline`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outline {
    near_left: Vec2,
    near_right: Vec2,
    far: f32,
}

/// Whether direction `d1` lies at a larger angle counter-clockwise from `axis` than `d2`, the
/// angles taken in (−π, π] as `atan2` gives them (a direction straight behind at +π), without
/// computing them: by half-turn first, then by the sign of their cross product.
fn turns_farther(axis: Vec2, d1: Vec2, d2: Vec2) -> bool {
    // Relative to the axis: x along it, y to its left.
    let relative = |d: Vec2| Vec2::new(axis.dot(d), axis.perp_dot(d));
    let (v1, v2) = (relative(d1), relative(d2));
    // The upper half-turn (0, π], as atan2 reads the sign of y (−0 is below).
    let upper = |v: Vec2| v.y > 0.0 || (v.y == 0.0 && v.y.is_sign_positive() && v.x < 0.0);
    match (upper(v1), upper(v2)) {
        (true, false) => true,
        (false, true) => false,
        _ => v2.perp_dot(v1) > 0.0,
    }
}

/// The forbidden half-plane {v : (v − point)·normal > 0}, closed beyond `max_speed`; only its
/// border line is a candidate (ClearPath's type-II side constraint).
#[inline]
pub fn half_plane(point: Vec2, normal: Vec2, max_speed: f32) -> Region {
    let size = 2.0 * (max_speed + point.length() + 1.0);
    let along = Vec2::new(normal.y, -normal.x);
    // Only the border line lies within max speed.
    Region::closed_beyond(
        [
            point - along * size,
            point + along * size,
            point + along * size + normal * 2.0 * size,
            point - along * size + normal * 2.0 * size,
        ],
        0b0001,
        [0],
        max_speed,
    )
}

/// ClearPath-2's collision VO: velocities that leave the agent overlapping the disc of combined
/// `radius` at relative position `p` after one tick `dt` (apex `apex`), as the octagon
/// circumscribing that disc in velocity space.
pub fn collision_disc(p: Vec2, radius: f32, apex: Vec2, dt: f32) -> Region {
    let center = apex + p / dt;
    let r = radius / dt / (std::f32::consts::PI / 8.0).cos();
    Region::polygon(std::array::from_fn::<Vec2, 8, _>(|k| {
        center + Vec2::from_angle((k as f32 + 0.5) * std::f32::consts::FRAC_PI_4) * r
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vo_membership_matches_the_definition() {
        // Disc of combined radius 1 at (5, 0), static, τ = 2 s: v is in VO^τ iff some t ≤ τ has
        // |t·v − p| < 1. Check the region against that definition on a grid of velocities
        // (the chord makes the region a slight superset, so only the "inside ⇒ forbidden near
        // the cut" direction is loose).
        let p = Vec2::new(5.0, 0.0);
        let region = Cone::of_disc(p, 1.0, Vec2::ZERO, 2.0).unwrap().region(4.0, None);
        let collides = |v: Vec2| (0..=2000).any(|k| (v * (k as f32 * 0.001) - p).length() < 1.0);
        for (v, expected) in [
            (Vec2::new(3.0, 0.0), true),
            (Vec2::new(2.1, 0.0), true),
            (Vec2::new(1.9, 0.0), false),
            (Vec2::new(3.0, 0.5), true),
            (Vec2::new(3.0, 1.0), false),
            (Vec2::new(-1.0, 0.0), false),
            (Vec2::new(0.0, 3.0), false),
        ] {
            assert_eq!(collides(v), expected, "{v}");
            assert_eq!(region.contains(v), expected, "{v}");
        }
        // The legs are tangent: half-angle asin(1/5).
        let cone = Cone::of_disc(p, 1.0, Vec2::ZERO, 2.0).unwrap();
        assert!((cone.left.angle_to(Vec2::X).abs() - (0.2f32).asin()).abs() < 1e-6);
    }

    #[test]
    fn turns_farther_orders_directions_as_their_atan2_angles_do() {
        let axis = Vec2::new(0.6, 0.8);
        let angle = |d: Vec2| axis.perp_dot(d).atan2(axis.dot(d));
        // Directions all around, 0.05 rad apart at least, so that no two angles tie.
        for i in 0..63 {
            for j in 0..63 {
                let d1 = Vec2::from_angle(i as f32 * 0.1 - 3.1) * 2.0;
                let d2 = Vec2::from_angle(j as f32 * 0.1 - 3.05) * 0.5;
                assert_eq!(turns_farther(axis, d1, d2), angle(d1) > angle(d2), "{d1} {d2}");
            }
        }
    }

    #[test]
    fn rvo_apex_lies_at_the_mean_velocity() {
        let (va, vb) = (Vec2::new(1.0, 0.0), Vec2::new(-1.0, 0.5));
        let cone = Cone::of_disc(Vec2::new(6.0, 0.0), 1.0, (va + vb) * 0.5, 10.0).unwrap();
        assert_eq!(cone.apex, Vec2::new(0.0, 0.25));
        let region = cone.region(3.0, None);
        assert!(region.contains(Vec2::new(1.0, 0.25)));
        assert!(!region.contains(Vec2::new(1.0, 0.25) - Vec2::new(0.0, 0.5)));
    }

    #[test]
    fn fvo_truncation_line_is_clearpaths_gamma() {
        // ClearPath: M = (|p| − R)·p̂/ΔT + apex, η = tan(asin(R/|p|))·(|p| − R)/ΔT; Γ spans M ± p̂⊥·η.
        let p = Vec2::new(3.0, 4.0);
        let (r, dt, apex) = (1.0, 2.0, Vec2::new(0.5, -0.5));
        let cone = Cone::of_disc(p, r, apex, dt).unwrap();
        let (left, right) = cone.chord();
        let m = apex + p.normalize() * ((5.0 - r) / dt);
        let eta = (r / 5.0f32).asin().tan() * (5.0 - r) / dt;
        assert!((left - (m + p.normalize().perp() * eta)).length() < 1e-5);
        assert!((right - (m - p.normalize().perp() * eta)).length() < 1e-5);
        // Velocities between the apex and Γ are not forbidden: no collision within ΔT.
        let region = cone.region(10.0, None);
        assert!(!region.contains(apex + p.normalize() * 0.5 * (5.0 - r) / dt));
        assert!(region.contains(apex + p.normalize() * 1.5 * (5.0 - r) / dt));
    }

    #[test]
    fn segment_cone_spans_both_ends() {
        // Wall from (2, −1) to (2, 1), agent radius 0.5 at the origin.
        let cone = Cone::of_segment(Vec2::new(2.0, -1.0), Vec2::new(2.0, 1.0), 0.5, 1.0).unwrap();
        assert_eq!(cone.axis, Vec2::X);
        let region = cone.region(5.0, None);
        assert!(
            region.contains(Vec2::new(3.0, 1.6)),
            "toward the upper end grown by the radius"
        );
        assert!(!region.contains(Vec2::new(3.0, 2.5)));
        assert!(!region.contains(Vec2::new(1.0, 0.0)), "cut at (2 − 0.5)/1 = 1.5 m/s");
        assert!(Cone::of_segment(Vec2::new(0.3, -1.0), Vec2::new(0.3, 1.0), 0.5, 1.0).is_none());
    }

    #[test]
    fn a_grazing_segment_end_gives_finite_legs() {
        // From a run: the nearest point lies 2.0000002 m away, but the end b, which is that
        // point, measures 1.9999999 m, nearer than the radius of 2 m.
        let (a, b) = (Vec2::new(30.639488, -1.8950081), Vec2::new(0.63948727, -1.8950081));
        assert!(b.length() < 2.0);
        let cone = Cone::of_segment(a, b, 2.0, 1.0).expect("not touching, by rounding");
        assert!(cone.left.is_finite() && cone.right.is_finite(), "{cone:?}");
        let region = cone.region(2.0, None);
        assert!(region.vertices().iter().all(|v| v.is_finite()));
    }
}
