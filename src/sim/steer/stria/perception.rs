//! Stria's perception (§2.4, §3.2): a fan of rays across the field of view whose lengths follow
//! Goffman's attention parabola, and a memory of at most seven perceived agents, nearest first.
//!
//! Ray length: the parabola y = −(4/d)·x² + d (d = range straight ahead) bounds the ray ends, with x
//! the lateral offset and y the distance ahead (the text leaves x undefined; the lateral-offset
//! reading gives f(0) = d and f(±d/2) = 0). A ray at angle θ from the heading therefore has the
//! length L with L·cos θ = d − (4/d)·L²·sin² θ: d straight ahead, d/2 at ±90°. Ray angles are
//! rounded to whole degrees, as in MASS's precomputed Bresenham table.

use glam::Vec2;

use crate::geom::RayHit;
use crate::sim::Body;
use crate::sim::steer::SteeringContext;

/// Miller's magical number: the most agents an agent keeps in its perception memory.
pub const AGENT_MEMORY: usize = 7;

/// The length of a ray at `angle` (radians from the heading) under the attention parabola of
/// range `d`.
pub fn parabola_length(angle: f32, d: f32) -> f32 {
    let (s, c) = angle.sin_cos();
    let a = 4.0 * s * s / d;
    if a <= f32::EPSILON {
        return if c > 0.0 { d } else { 0.0 };
    }
    (-c + (c * c + 4.0 * a * d).sqrt()) / (2.0 * a)
}

/// The ray directions (whole degrees, relative to the heading) spanning `fov_deg` every `spacing_deg`,
/// outermost rays included.
pub fn fan_angles(fov_deg: f32, spacing_deg: f32) -> Vec<f32> {
    let half = fov_deg * 0.5;
    let steps = (fov_deg / spacing_deg).floor() as i32;
    let mut angles: Vec<f32> = (0..=steps).map(|i| (-half + i as f32 * spacing_deg).round()).collect();
    if angles.last().is_some_and(|&a| a < half.round()) {
        angles.push(half.round());
    }
    angles.dedup();
    angles
}

/// One perceived obstacle: where the ray went and what it hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObstaclePerception {
    /// The ray's unit direction.
    pub dir: Vec2,
    /// The hit.
    pub hit: RayHit,
}

/// Casts the fan of rays and returns the hits, nearest first.
pub fn perceive_obstacles(
    ctx: &SteeringContext,
    fov_deg: f32,
    spacing_deg: f32,
    range: f32,
) -> Vec<ObstaclePerception> {
    let mut seen: Vec<ObstaclePerception> = fan_angles(fov_deg, spacing_deg)
        .into_iter()
        .filter_map(|deg| {
            let angle = deg.to_radians();
            let dir = Vec2::from_angle(angle).rotate(ctx.body.heading);
            let length = parabola_length(angle, range);
            ctx.statics
                .cast_ray(ctx.position(), dir, length, ctx.time)
                .map(|hit| ObstaclePerception { dir, hit })
        })
        .collect();
    seen.sort_by(|a, b| a.hit.distance.total_cmp(&b.hit.distance));
    seen
}

/// The agents in the field of view within `range`, nearest first, at most [`AGENT_MEMORY`].
pub fn perceive_agents<'a>(ctx: &'a SteeringContext, fov_deg: f32, range: f32) -> Vec<&'a Body> {
    let me = ctx.body;
    let cos_half = (fov_deg * 0.5).to_radians().cos();
    let mut seen: Vec<&Body> = ctx
        .neighbours
        .iter()
        .map(|&i| &ctx.bodies[i as usize])
        .filter(|b| {
            let to = b.position - me.position;
            let d = to.length();
            d <= range && (fov_deg >= 360.0 || d == 0.0 || to.dot(me.heading) / d >= cos_half)
        })
        .collect();
    seen.sort_by(|a, b| {
        a.position
            .distance_squared(me.position)
            .total_cmp(&b.position.distance_squared(me.position))
            .then(a.id.cmp(&b.id))
    });
    seen.truncate(AGENT_MEMORY);
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parabola_gives_full_range_ahead_and_half_at_the_side() {
        assert!((parabola_length(0.0, 10.0) - 10.0).abs() < 1e-5);
        let side = parabola_length(std::f32::consts::FRAC_PI_2, 10.0);
        assert!((side - 5.0).abs() < 1e-4, "{side}");
        let oblique = parabola_length(45f32.to_radians(), 10.0);
        let (x, y) = (oblique * 45f32.to_radians().sin(), oblique * 45f32.to_radians().cos());
        assert!((y - (10.0 - 0.4 * x * x)).abs() < 1e-4, "the end lies on the parabola");
        assert!(oblique < 10.0 && oblique > 5.0);
    }

    #[test]
    fn sixteen_rays_for_150_degrees_every_10() {
        let fan = fan_angles(150.0, 10.0);
        assert_eq!(fan.len(), 16);
        assert_eq!((fan[0], fan[15]), (-75.0, 75.0));
        assert!(fan.iter().all(|a| a.fract() == 0.0), "whole degrees");
    }
}
