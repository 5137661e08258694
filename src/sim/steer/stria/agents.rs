//! Stria's avoidance of other agents (§4.2.2, force 9). Of the perceived agents (at most seven,
//! nearest first) the potential collision soonest in time is handled: the time of closest
//! approach t* = −(Δp·Δv)/|Δv|², a collision when the bodies would then come closer than
//! [`COMFORT`] times the sum of their radii (within the horizon). The force depends on the situation, told by the angle between the orientations:
//! - head-on (more than 150° apart): sideways, away from where the other will be at t*;
//! - same direction (less than 30° apart): step to the side opposite the other;
//! - crossing (otherwise): the faster agent speeds up and steers ahead of the collision point,
//!   the slower one slows down and turns towards it, so the faster passes in front.

use glam::Vec2;

use crate::sim::Body;

/// Centre gap, in sums of radii, below which a predicted approach counts as a collision (a
/// little personal space; the text does not say).
pub const COMFORT: f32 = 1.5;

/// How two agents are about to meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Situation {
    /// Facing each other.
    HeadOn,
    /// Walking the same way.
    SameDirection,
    /// Paths crossing at an angle.
    Crossing,
}

/// A predicted collision with one neighbour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Threat<'a> {
    /// The neighbour.
    pub other: &'a Body,
    /// Seconds to the closest approach.
    pub time: f32,
}

/// The time of closest approach of `a` and `b` (0 when they are moving apart or together).
pub fn closest_approach_time(a: &Body, b: &Body) -> f32 {
    let dp = b.position - a.position;
    let dv = b.velocity - a.velocity;
    let dv2 = dv.length_squared();
    if dv2 <= f32::EPSILON {
        0.0
    } else {
        (-dp.dot(dv) / dv2).max(0.0)
    }
}

/// The soonest collision among `seen` within `horizon` seconds, if any.
pub fn soonest_threat<'a>(me: &Body, seen: &[&'a Body], horizon: f32) -> Option<Threat<'a>> {
    seen.iter()
        .filter_map(|&other| {
            let t = closest_approach_time(me, other);
            let gap = (me.position + me.velocity * t).distance(other.position + other.velocity * t);
            (t <= horizon && gap < (me.radius + other.radius) * COMFORT).then_some(Threat { other, time: t })
        })
        .min_by(|x, y| x.time.total_cmp(&y.time).then(x.other.id.cmp(&y.other.id)))
}

/// The situation between `me` and `other` from their orientations.
pub fn situation(me: &Body, other: &Body) -> Situation {
    let angle = me.heading.angle_to(other.heading).abs().to_degrees();
    if angle > 150.0 {
        Situation::HeadOn
    } else if angle < 30.0 {
        Situation::SameDirection
    } else {
        Situation::Crossing
    }
}

/// The unit side vector of `o` pointing away from `point` seen from `from` (left when on the line).
fn away_side(o: Vec2, from: Vec2, point: Vec2) -> Vec2 {
    if o.perp_dot(point - from) > 0.0 {
        -o.perp()
    } else {
        o.perp()
    }
}

/// The avoidance force of `me` against `threat`, of magnitude about `strength`.
pub fn avoidance(me: &Body, threat: &Threat, strength: f32) -> Vec2 {
    let other = threat.other;
    let o = me.heading;
    match situation(me, other) {
        Situation::HeadOn => away_side(o, me.position, other.position + other.velocity * threat.time) * strength,
        Situation::SameDirection => away_side(o, me.position, other.position) * strength,
        Situation::Crossing => {
            let meet = me.position + me.velocity * threat.time;
            let to_meet = (meet - me.position).normalize_or_zero();
            if me.velocity.length() >= other.velocity.length() {
                (o + away_side(o, meet, other.position) * 0.5).normalize_or_zero() * strength
            } else {
                (-o + to_meet * 0.5) * strength
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Status;

    fn body(id: u32, p: Vec2, v: Vec2) -> Body {
        Body {
            id,
            profile: 0,
            position: p,
            velocity: v,
            heading: v.normalize_or_zero(),
            radius: 0.3,
            status: Status::Active,
        }
    }

    #[test]
    fn closest_approach_of_a_head_on_pair() {
        let a = body(0, Vec2::ZERO, Vec2::X);
        let b = body(1, Vec2::new(10.0, 0.2), -Vec2::X);
        assert!((closest_approach_time(&a, &b) - 5.0).abs() < 1e-5);
        assert_eq!(situation(&a, &b), Situation::HeadOn);
        let threat = soonest_threat(&a, &[&b], 10.0).unwrap();
        let f = avoidance(&a, &threat, 1.0);
        assert!(f.y < 0.0, "b passes on the left, so a swerves right: {f}");
        assert!(soonest_threat(&a, &[&b], 4.0).is_none(), "beyond the horizon");
    }

    #[test]
    fn crossing_faster_goes_ahead_and_slower_brakes() {
        let fast = body(0, Vec2::new(-4.0, 0.0), Vec2::new(2.0, 0.0));
        let slow = body(1, Vec2::new(0.0, -2.0), Vec2::new(0.0, 1.0));
        assert_eq!(situation(&fast, &slow), Situation::Crossing);
        let t = soonest_threat(&fast, &[&slow], 10.0).unwrap();
        assert!(avoidance(&fast, &t, 1.0).dot(fast.heading) > 0.0, "faster speeds up");
        let t = soonest_threat(&slow, &[&fast], 10.0).unwrap();
        assert!(avoidance(&slow, &t, 1.0).dot(slow.heading) < 0.0, "slower slows down");
    }

    #[test]
    fn same_direction_steps_away_from_the_neighbour() {
        let me = body(0, Vec2::ZERO, Vec2::new(1.5, 0.0));
        let right = body(1, Vec2::new(0.5, -0.3), Vec2::new(1.0, 0.0));
        let t = soonest_threat(&me, &[&right], 10.0).unwrap();
        assert_eq!(situation(&me, &right), Situation::SameDirection);
        assert!(
            avoidance(&me, &t, 1.0).y > 0.0,
            "the neighbour is on the right, so it moves left"
        );
    }
}
