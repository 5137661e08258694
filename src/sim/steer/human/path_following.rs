//! PATH FOLLOWING (Popelová §3.4): pass through a corridor of half-width Distance around the
//! agent's path, smoothly and not along the edges. Each tick, with the edge previous → next:
//! 1. end of the path reached → stop request;
//! 2. the next vertex is reached when the agent has passed the line through it perpendicular to
//!    the edge, or is within Distance of it → advance;
//! 3. moving away from the next vertex → F·α/π along the edge (α = angle of velocity to edge);
//! 4. the position projected `projection` ticks ahead lies d_h > D from the edge line → a pull
//!    towards the line of F·max(0, (d_h − D)/D) + 30 N_UT. The thesis prints min(0, …), which
//!    would be a constant 30 N_UT; the prose ("grows with the overshoot, at least 30") means max;
//! 5. always (except at the end) Regulation along the edge.
//!
//! Basic behaviour is `projection` 5 and `regulation` 0; the recommended extended setting is
//! Distance 400 cm, Projection 15, Regulation 50 N_UT.

use glam::Vec2;

use super::output::SteeringOutput;
use crate::scene::steering::human::{PathFollowing, THESIS_TICK};
use crate::sim::steer::SteeringContext;

/// Where along the path an agent is: the edge it follows and its last distance to the next vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathState {
    /// Start of the current edge (initially the agent's location).
    pub previous: Vec2,
    /// Index of the next vertex in the path.
    pub next: usize,
    /// Distance to the next vertex at the last tick.
    pub last_distance: f32,
    /// True once the end has been reached.
    pub done: bool,
}

/// The extra force added outside the corridor, 30 N_UT.
const CORRIDOR_MIN_PULL: f32 = 0.3;

impl PathFollowing {
    /// The steering output for this tick along the agent's path (zero without one), updating `state`.
    pub fn steer(&self, ctx: &SteeringContext, state: &mut Option<PathState>) -> SteeringOutput {
        let Some(scene_path) = ctx.path.filter(|p| !p.points.is_empty()) else {
            return SteeringOutput::force(Vec2::ZERO);
        };
        let (path, closed) = (&scene_path.points[..], scene_path.closed);
        let p = ctx.position();
        let s = state.get_or_insert(PathState {
            previous: p,
            next: 0,
            last_distance: p.distance(path[0]),
            done: false,
        });
        while !s.done && self.reached(p, s.previous, path[s.next]) {
            s.previous = path[s.next];
            s.next += 1;
            if s.next == path.len() {
                if closed {
                    s.next = 0;
                } else {
                    s.done = true;
                }
            }
            s.last_distance = f32::INFINITY;
        }
        if s.done {
            return SteeringOutput::stop(None);
        }
        let next = path[s.next];
        let edge = (next - s.previous)
            .try_normalize()
            .unwrap_or((next - p).normalize_or_zero());
        let v = ctx.velocity();
        let mut force = edge * self.regulation;
        let distance = p.distance(next);
        if distance > s.last_distance && v != Vec2::ZERO {
            force += edge * (self.path_force * edge.angle_to(v).abs() / std::f32::consts::PI);
        }
        s.last_distance = distance;
        let ahead = p + v * (self.projection * THESIS_TICK);
        let on_line = s.previous + edge * (ahead - s.previous).dot(edge);
        let off = on_line - ahead;
        let d_h = off.length();
        if d_h > self.distance {
            let pull = self.path_force * ((d_h - self.distance) / self.distance).max(0.0) + CORRIDOR_MIN_PULL;
            force += off / d_h * pull;
        }
        SteeringOutput::force(force)
    }

    /// Union of the perpendicular-line test and the within-Distance test for vertex `next`.
    fn reached(&self, p: Vec2, previous: Vec2, next: Vec2) -> bool {
        (p - next).dot(next - previous) > 0.0 || p.distance(next) < self.distance
    }
}
