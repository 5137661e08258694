//! The dispatch from a scene's [`Behaviour`] to the behaviour files: each behaviour's raw force
//! for one agent this tick. Conventions: "speed" in a desired velocity is the profile's preferred
//! (cruising) speed; look-ahead times use the max speed, as in the text. Behaviours that name
//! another agent get a zero force while that agent is absent.

use glam::Vec2;
use rand_pcg::Pcg32;

use super::arrive::arrive_force;
use super::interpose::interpose_point;
use super::state::SteerMemory;
use super::wall_avoidance::{Feelers, wall_avoidance_force};
use super::{
    SteeringContext, alignment, cohesion, evade, flee, hide, leader_following, obstacle_avoidance, offset_pursuit,
    pursuit, seek_force, wander,
};
use crate::scene::steering::{Behaviour, InterposeEnd};

impl Behaviour {
    /// The behaviour's raw (unweighted) force for one agent this tick; `memory` and `rng` are the
    /// agent's own (wander). Human steerings give zero here: they are evaluated by the Popelová
    /// combiner, the only one validation lets them use.
    ///
    /// Inlined into its callers (the combiner's loop): a call per behaviour per agent, four for
    /// each fish of a shoal, cost the flock about 3 % of its tick.
    #[inline(always)]
    pub fn force(&self, ctx: &SteeringContext, memory: &mut SteerMemory, rng: &mut Pcg32) -> Vec2 {
        let (p, v, heading) = (ctx.position(), ctx.velocity(), ctx.body.heading);
        let speed = ctx.profile.preferred_speed;
        match self {
            Behaviour::Separation { view_radius, fov_deg } => ctx.tagged_sums(*view_radius, *fov_deg).separation,
            Behaviour::Alignment { view_radius, fov_deg } => {
                alignment::alignment(heading, &ctx.tagged_sums(*view_radius, *fov_deg))
            }
            Behaviour::Cohesion { view_radius, fov_deg } => {
                cohesion::cohesion(p, v, speed, &ctx.tagged_sums(*view_radius, *fov_deg))
            }
            Behaviour::Wander {
                radius,
                distance,
                jitter,
            } => {
                wander::jitter_target(&mut memory.wander_target, rng, *radius, *jitter, ctx.dt);
                wander::wander_force(&ctx.frame(), memory.wander_target, *distance)
            }
            _ => self.other_force(ctx, memory, rng),
        }
    }

    /// [`Behaviour::force`] of the behaviours other than a flock's (separation, alignment,
    /// cohesion, wander): out of line, so that the flock's calls, thousands every tick, do not
    /// pay for setting up the large frame some of these need.
    #[inline(never)]
    fn other_force(&self, ctx: &SteeringContext, memory: &mut SteerMemory, rng: &mut Pcg32) -> Vec2 {
        let (p, v, heading) = (ctx.position(), ctx.velocity(), ctx.body.heading);
        let (speed, max_speed) = (ctx.profile.preferred_speed, ctx.profile.max_speed);
        match self {
            Behaviour::Seek => ctx.goal.map_or(Vec2::ZERO, |g| seek_force(p, v, g.position, speed)),
            Behaviour::Flee { from, panic_distance } => {
                let threat = match from {
                    Some(id) => ctx.other(*id).map(|b| b.position),
                    None => ctx.goal.map(|g| g.position),
                };
                threat.map_or(Vec2::ZERO, |t| flee::flee_force(p, v, t, speed, *panic_distance))
            }
            Behaviour::Arrive { deceleration } | Behaviour::FollowPath { deceleration, .. } => {
                ctx.goal.map_or(Vec2::ZERO, |g| {
                    if g.is_final {
                        arrive_force(p, v, g.position, speed, *deceleration)
                    } else {
                        seek_force(p, v, g.position, speed)
                    }
                })
            }
            Behaviour::Pursuit {
                target,
                turnaround_coefficient,
            } => ctx.other(*target).map_or(Vec2::ZERO, |e| {
                let point = pursuit::pursuit_point(p, heading, max_speed, e, *turnaround_coefficient);
                seek_force(p, v, point, speed)
            }),
            Behaviour::Evade {
                pursuer,
                panic_distance,
            } => ctx.other(*pursuer).map_or(Vec2::ZERO, |b| {
                flee::flee_force(p, v, evade::evade_point(p, max_speed, b), speed, *panic_distance)
            }),
            Behaviour::ObstacleAvoidance {
                min_box_length,
                braking_weight,
                margin,
            } => {
                let length = obstacle_avoidance::box_length(*min_box_length, v.length(), max_speed);
                let circles = ctx.obstacles.circles_at(ctx.time);
                obstacle_avoidance::obstacle_avoidance_force(
                    &ctx.frame(),
                    ctx.body.radius + margin,
                    length,
                    *braking_weight,
                    circles,
                )
            }
            Behaviour::WallAvoidance {
                feeler_length,
                side_angle_deg,
                side_ratio,
                combine,
            } => {
                let feelers = Feelers {
                    length: *feeler_length,
                    side_angle: side_angle_deg.to_radians(),
                    side_ratio: *side_ratio,
                };
                wall_avoidance_force(&ctx.frame(), &feelers, *combine, &ctx.obstacles.walls)
            }
            Behaviour::Interpose { a, b, deceleration } => {
                let end = |e: &InterposeEnd| match e {
                    InterposeEnd::Agent(id) => ctx.other(*id).map(|b| (b.position, b.velocity)),
                    InterposeEnd::Point(q) => Some((*q, Vec2::ZERO)),
                };
                match (end(a), end(b)) {
                    (Some(a), Some(b)) => arrive_force(p, v, interpose_point(p, max_speed, a, b), speed, *deceleration),
                    _ => Vec2::ZERO,
                }
            }
            Behaviour::Hide {
                hunter,
                distance_from_boundary,
                deceleration,
            } => ctx.other(*hunter).map_or(Vec2::ZERO, |h| {
                let circles = ctx.obstacles.circles_at(ctx.time);
                match hide::best_hiding_spot(p, h.position, *distance_from_boundary, circles) {
                    Some(spot) => arrive_force(p, v, spot, speed, *deceleration),
                    None => flee::flee_force(p, v, evade::evade_point(p, max_speed, h), speed, None),
                }
            }),
            Behaviour::OffsetPursuit {
                leader,
                offset,
                deceleration,
            } => ctx.other(*leader).map_or(Vec2::ZERO, |l| {
                let point = offset_pursuit::offset_pursuit_point(p, max_speed, l, *offset);
                arrive_force(p, v, point, speed, *deceleration)
            }),
            // Not sent here by `force`, which computes them itself.
            Behaviour::Separation { .. }
            | Behaviour::Alignment { .. }
            | Behaviour::Cohesion { .. }
            | Behaviour::Wander { .. } => self.force(ctx, memory, rng),
            Behaviour::Flocking { .. } => self
                .expand(1.0)
                .iter()
                .map(|s| s.behaviour.force(ctx, memory, rng) * s.weight)
                .sum(),
            Behaviour::LeaderFollowing {
                leader,
                distance,
                clearance,
                look_ahead,
                deceleration,
            } => ctx.other(*leader).map_or(Vec2::ZERO, |l| {
                let behind = offset_pursuit::offset_pursuit_point(p, max_speed, l, Vec2::new(-distance, 0.0));
                let follow = arrive_force(p, v, behind, speed, *deceleration);
                let step_aside = leader_following::point_in_leader_path(p, l, *clearance, *look_ahead)
                    .map_or(Vec2::ZERO, |q| (p - q).normalize_or(l.heading.perp()) * speed);
                follow + step_aside
            }),
            Behaviour::Human(_) => Vec2::ZERO,
            Behaviour::Stria(f) => f.force(ctx),
        }
    }
}
