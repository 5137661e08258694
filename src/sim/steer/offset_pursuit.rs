//! Offset pursuit (Buckland §2.12): hold a position given in the leader's local space (x ahead,
//! y to its left). Look ahead T = |to offset| / (own max speed + leader speed) and arrive (fast)
//! at the offset point moved on by the leader's velocity.

use glam::Vec2;

use super::local_space::LocalFrame;
use super::pursuit::look_ahead_time;
use crate::sim::Body;

/// The point a follower at `p` (up to `max_speed`) arrives at to hold `offset` from `leader`.
pub fn offset_pursuit_point(p: Vec2, max_speed: f32, leader: &Body, offset: Vec2) -> Vec2 {
    let world_offset = LocalFrame::new(leader.position, leader.heading).point_to_world(offset);
    let at_offset = Body {
        position: world_offset,
        ..*leader
    };
    world_offset + leader.velocity * look_ahead_time(p, max_speed, &at_offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Status;

    #[test]
    fn buckland_offset_pursuit_example() {
        // §5.2: leader (100, 100), h (1, 0), v (20, 0); offset (−20, 10) → world (80, 110);
        // follower at (80, 150), max speed 60: T = 40/80 = 0.5 → arrive (fast) at (90, 110).
        let leader = Body {
            id: 0,
            profile: 0,
            position: Vec2::new(100.0, 100.0),
            velocity: Vec2::new(20.0, 0.0),
            heading: Vec2::X,
            radius: 1.0,
            status: Status::Active,
        };
        let world = LocalFrame::new(leader.position, leader.heading).point_to_world(Vec2::new(-20.0, 10.0));
        assert_eq!(world, Vec2::new(80.0, 110.0));
        let target = offset_pursuit_point(Vec2::new(80.0, 150.0), 60.0, &leader, Vec2::new(-20.0, 10.0));
        assert!((target - Vec2::new(90.0, 110.0)).length() < 1e-4);
    }
}
