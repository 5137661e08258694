//! Stria's reactive layer (seed 001, MASS §4.2): goal, speed, path, obstacle and agent forces,
//! perceived through a ray fan with an attention parabola and a seven-agent memory, and combined by
//! prioritised selection: the first force that is needed (non-zero), in the profile's order, is
//! applied and the rest are not examined — unless a random draw skips it with its skip
//! probability. Forces are in newtons and integrated by the ordinary locomotion
//! (F capped at max force, a = F/m, v capped at max speed), as in Stria §4.2.1.
//! The forces' parameters and skip probabilities, as a scene writes them, are in
//! `scene::steering::stria`.

mod agents;
mod motion;
mod obstacles;
mod path;
mod perception;
mod priority;

pub use agents::{Situation, Threat, closest_approach_time, situation, soonest_threat};
pub use perception::{
    AGENT_MEMORY, ObstaclePerception, fan_angles, parabola_length, perceive_agents, perceive_obstacles,
};
pub use priority::select;

use glam::Vec2;

use crate::scene::steering::stria::{StriaForce, StriaKind};
use crate::sim::steer::SteeringContext;

impl StriaForce {
    /// The force for one agent this tick (zero when not needed).
    pub fn force(&self, ctx: &SteeringContext) -> Vec2 {
        let (p, v, o) = (ctx.position(), ctx.velocity(), ctx.body.heading);
        let v_max = ctx.profile.max_speed;
        let goal = ctx.goal;
        match self.force {
            StriaKind::Seek => goal.map_or(Vec2::ZERO, |g| motion::seek(p, v, g.position, v_max)),
            StriaKind::DirectPull => goal.map_or(Vec2::ZERO, |g| motion::direct_pull(p, g.position)),
            StriaKind::Arrival { slowing_distance } => goal.map_or(Vec2::ZERO, |g| {
                if g.is_final {
                    motion::arrival(p, v, g.position, v_max, slowing_distance)
                } else {
                    motion::seek(p, v, g.position, v_max)
                }
            }),
            StriaKind::ReachSpeed { speed } => motion::reach_speed(v, o, speed),
            StriaKind::PathWaypoints { blend_distance } => match (goal, ctx.path) {
                (Some(g), Some(route)) => {
                    let i = route.points.iter().position(|&q| q == g.position).unwrap_or(0);
                    path::waypoints(p, v, &route.points, i, v_max, blend_distance)
                }
                (Some(g), None) => motion::seek(p, v, g.position, v_max),
                _ => Vec2::ZERO,
            },
            StriaKind::PathCorridor { half_width, prediction } => ctx.path.map_or(Vec2::ZERO, |route| {
                path::corridor(p, v, &route.points, v_max, half_width, prediction)
            }),
            StriaKind::ObstacleAvoidance {
                fov_deg,
                ray_spacing_deg,
                range,
                strength,
            } => obstacles::avoidance(
                &perceive_obstacles(ctx, fov_deg, ray_spacing_deg, range),
                o,
                range,
                strength,
            ),
            StriaKind::SideClearance { clearance, strength } => {
                let cast = |dir: Vec2| ctx.statics.cast_ray(p, dir, clearance, ctx.time);
                obstacles::side_clearance(cast(o.perp()), cast(-o.perp()), o, clearance, strength)
            }
            StriaKind::AgentAvoidance {
                fov_deg,
                range,
                horizon,
                strength,
            } => {
                let seen = perceive_agents(ctx, fov_deg, range);
                soonest_threat(ctx.body, &seen, horizon)
                    .map_or(Vec2::ZERO, |t| agents::avoidance(ctx.body, &t, strength))
            }
        }
    }
}
