//! Wall avoidance (Buckland §2.8): three feelers (one straight ahead of `length`, two at
//! ±`side_angle` of `length · side_ratio`) are tested against every wall segment; for a feeler that
//! crosses a wall, the push is the wall normal (facing the agent) times how far the feeler tip
//! overshoots the nearest crossing.
//!
//! Fix of the listing's state bug (§8.6): the nearest-crossing distance and wall are reset for
//! every feeler, and each feeler's push is computed from its own crossing. The pushes are then
//! summed ([`FeelerCombine::Sum`]) or only the feeler whose crossing is nearest the agent is used
//! ([`FeelerCombine::Nearest`]) — the listing's last-feeler-wins overwrite is not reproduced.
//! Walls are two-sided: the normal is taken on the agent's side of the segment.

use glam::Vec2;

use super::local_space::LocalFrame;
use crate::scene::steering::FeelerCombine;

/// Feeler geometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Feelers {
    /// Length of the middle feeler (m).
    pub length: f32,
    /// Angle of the side feelers from the heading (radians).
    pub side_angle: f32,
    /// Side feeler length as a fraction of `length`.
    pub side_ratio: f32,
}

impl Feelers {
    /// The three feeler tips in world space (ahead, left, right).
    pub fn tips(&self, frame: &LocalFrame) -> [Vec2; 3] {
        let side = self.length * self.side_ratio;
        let (s, c) = self.side_angle.sin_cos();
        [
            frame.point_to_world(Vec2::new(self.length, 0.0)),
            frame.point_to_world(Vec2::new(c * side, s * side)),
            frame.point_to_world(Vec2::new(c * side, -s * side)),
        ]
    }
}

/// Where segment `p0`–`p1` crosses segment `q0`–`q1`: (fraction along p, point), if it does.
pub fn segment_crossing(p0: Vec2, p1: Vec2, q0: Vec2, q1: Vec2) -> Option<(f32, Vec2)> {
    let r = p1 - p0;
    let s = q1 - q0;
    let denom = r.perp_dot(s);
    if denom == 0.0 {
        return None;
    }
    let t = (q0 - p0).perp_dot(s) / denom;
    let u = (q0 - p0).perp_dot(r) / denom;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then(|| (t, p0 + r * t))
}

/// The push for one feeler from `origin` to `tip`: (distance to the nearest crossing, force).
pub fn feeler_push(origin: Vec2, tip: Vec2, walls: &[(Vec2, Vec2)]) -> Option<(f32, Vec2)> {
    let mut nearest: Option<(f32, Vec2, (Vec2, Vec2))> = None;
    for &(a, b) in walls {
        if let Some((t, point)) = segment_crossing(origin, tip, a, b)
            && nearest.is_none_or(|(best, _, _)| t < best)
        {
            nearest = Some((t, point, (a, b)));
        }
    }
    nearest.map(|(t, point, (a, b))| {
        let mut normal = (b - a).perp().normalize_or_zero();
        if normal.dot(origin - a) < 0.0 {
            normal = -normal;
        }
        (t * origin.distance(tip), normal * tip.distance(point))
    })
}

/// The wall avoidance force of an agent in `frame`.
pub fn wall_avoidance_force(
    frame: &LocalFrame,
    feelers: &Feelers,
    combine: FeelerCombine,
    walls: &[(Vec2, Vec2)],
) -> Vec2 {
    let pushes = feelers.tips(frame).map(|tip| feeler_push(frame.origin, tip, walls));
    match combine {
        FeelerCombine::Sum => pushes.iter().flatten().map(|&(_, f)| f).sum(),
        FeelerCombine::Nearest => pushes
            .iter()
            .flatten()
            .fold(None, |best: Option<(f32, Vec2)>, &(d, f)| match best {
                Some((bd, _)) if bd <= d => best,
                _ => Some((d, f)),
            })
            .map_or(Vec2::ZERO, |(_, f)| f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feelers() -> Feelers {
        Feelers {
            length: 10.0,
            side_angle: 45f32.to_radians(),
            side_ratio: 0.5,
        }
    }

    #[test]
    fn push_is_the_normal_times_the_overshoot() {
        let frame = LocalFrame::new(Vec2::ZERO, Vec2::X);
        let wall = [(Vec2::new(8.0, -20.0), Vec2::new(8.0, 20.0))];
        let f = wall_avoidance_force(&frame, &feelers(), FeelerCombine::Sum, &wall);
        // Only the middle feeler (tip at x = 10) crosses x = 8: overshoot 2 along the normal facing the agent.
        assert!((f - Vec2::new(-2.0, 0.0)).length() < 1e-5);
    }

    #[test]
    fn every_feeler_uses_its_own_crossing() {
        // A wall close on the left is crossed by the left feeler only; the middle feeler crosses a far
        // wall ahead. The listing would pair the last feeler with a stale crossing; here each is separate.
        let frame = LocalFrame::new(Vec2::ZERO, Vec2::X);
        let walls = [
            (Vec2::new(-5.0, 2.0), Vec2::new(20.0, 2.0)),
            (Vec2::new(9.0, -20.0), Vec2::new(9.0, 1.0)),
        ];
        let tips = feelers().tips(&frame);
        let left_overshoot = (tips[1].y - 2.0) * 2f32.sqrt(); // along the 45° feeler
        let sum = wall_avoidance_force(&frame, &feelers(), FeelerCombine::Sum, &walls);
        assert!((sum - Vec2::new(-1.0, -left_overshoot)).length() < 1e-4);
        let nearest = wall_avoidance_force(&frame, &feelers(), FeelerCombine::Nearest, &walls);
        assert!((nearest - Vec2::new(0.0, -left_overshoot)).length() < 1e-4);
        assert_eq!(
            wall_avoidance_force(&frame, &feelers(), FeelerCombine::Sum, &[]),
            Vec2::ZERO
        );
    }
}
