//! Leader following (Buckland §2.15, "Practice makes perfect"): arrive at a point `distance`
//! behind the leader (offset pursuit with offset (−distance, 0)), and, when the follower finds
//! itself in the leader's path — ahead of it by less than `look_ahead` and closer than
//! `clearance` to the line of its heading — also flee sideways from that line. Chaining followers
//! (each naming the one in front) gives the text's single file of goslings.

use glam::Vec2;

use super::local_space::LocalFrame;
use crate::sim::Body;

/// The point on the leader's heading line a follower at `p` should flee from, if it is in the
/// leader's path.
pub fn point_in_leader_path(p: Vec2, leader: &Body, clearance: f32, look_ahead: f32) -> Option<Vec2> {
    let frame = LocalFrame::new(leader.position, leader.heading);
    let local = frame.point_to_local(p);
    (local.x > 0.0 && local.x < look_ahead && local.y.abs() < clearance)
        .then(|| frame.point_to_world(Vec2::new(local.x, 0.0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Status;

    #[test]
    fn only_a_follower_ahead_of_the_leader_is_in_its_path() {
        let leader = Body {
            id: 0,
            profile: 0,
            position: Vec2::ZERO,
            velocity: Vec2::X,
            heading: Vec2::X,
            radius: 0.3,
            status: Status::Active,
        };
        assert_eq!(
            point_in_leader_path(Vec2::new(2.0, 0.5), &leader, 1.0, 3.0),
            Some(Vec2::new(2.0, 0.0))
        );
        assert_eq!(point_in_leader_path(Vec2::new(-2.0, 0.5), &leader, 1.0, 3.0), None);
        assert_eq!(point_in_leader_path(Vec2::new(2.0, 1.5), &leader, 1.0, 3.0), None);
        assert_eq!(point_in_leader_path(Vec2::new(4.0, 0.0), &leader, 1.0, 3.0), None);
    }
}
