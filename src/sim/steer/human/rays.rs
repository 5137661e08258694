//! The five body rays of Popelová's obstacle avoidance (§3.1) and wall following (§3.5): a long
//! front ray along the facing, two long oblique rays at ±angle and two short side rays at ±90°.
//! Ray lengths are not in the thesis (§7.13); the side rays are half the long ones, which for the
//! 30° wall-following rays makes the line through the side and oblique ray ends parallel to the
//! front ray, as §3.5 asks.

use glam::Vec2;

use super::output::Side;
use crate::geom::RayHit;
use crate::sim::steer::SteeringContext;

/// Which of the five rays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RayKind {
    /// Along the facing.
    Front,
    /// At ±angle from the facing, on a side.
    Oblique(Side),
    /// At ±90° from the facing, on a side.
    Lateral(Side),
}

/// One cast ray and what it hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyRay {
    /// Which ray this is.
    pub kind: RayKind,
    /// Unit direction.
    pub dir: Vec2,
    /// Length in metres.
    pub length: f32,
    /// The nearest obstacle hit, if any.
    pub hit: Option<RayHit>,
}

impl BodyRay {
    /// The side the ray looks to (`None` for the front ray).
    pub fn side(&self) -> Option<Side> {
        match self.kind {
            RayKind::Front => None,
            RayKind::Oblique(s) | RayKind::Lateral(s) => Some(s),
        }
    }
}

/// Casts the five rays from the agent's centre: long rays of `length`, oblique at ±`oblique_deg`;
/// with `thickness` > 0 each is a disc of that radius swept along the ray (a corner between two
/// thin rays is still seen), otherwise a thin ray.
pub fn cast_body_rays(ctx: &SteeringContext, oblique_deg: f32, length: f32, thickness: f32) -> [BodyRay; 5] {
    let facing = ctx.body.heading;
    let ray = |kind: RayKind| {
        let (angle, len) = match kind {
            RayKind::Front => (0.0, length),
            RayKind::Oblique(s) => (signed(s, oblique_deg), length),
            RayKind::Lateral(s) => (signed(s, 90.0), length * 0.5),
        };
        let dir = Vec2::from_angle(angle.to_radians()).rotate(facing);
        BodyRay {
            kind,
            dir,
            length: len,
            hit: if thickness > 0.0 {
                ctx.statics.cast_disc(ctx.position(), dir, len, thickness, ctx.time)
            } else {
                ctx.statics.cast_ray(ctx.position(), dir, len, ctx.time)
            },
        }
    };
    [
        ray(RayKind::Front),
        ray(RayKind::Oblique(Side::Left)),
        ray(RayKind::Oblique(Side::Right)),
        ray(RayKind::Lateral(Side::Left)),
        ray(RayKind::Lateral(Side::Right)),
    ]
}

fn signed(side: Side, deg: f32) -> f32 {
    match side {
        Side::Left => deg,
        Side::Right => -deg,
    }
}
