//! ORCA (van den Berg, Guy, Lin, Manocha 2011), following RVO2's `Agent::computeNewVelocity`:
//! one half-plane per obstacle edge (time horizon `time_horizon_obst`, never relaxed), per
//! static circle (likewise), and per agent or moving circle (time horizon `time_horizon`; half
//! the responsibility for a reactive agent, all of it for a non-reactive one); then the 2-D
//! linear program with the 3-D fallback.

use glam::Vec2;

use super::AvoidingAgent;
use super::lp::{EPSILON, Line, solve};
use super::neighbours::{Mover, Neighbourhood};
use super::obstacles::AvoidObstacles;
use crate::record::Constraint;
use crate::scene::avoidance::ObstacleParams;

/// The ORCA half-plane of an agent at `position` moving with `velocity` against the disc
/// `other`: collisions within `time_horizon` are excluded; when the two already overlap, the
/// line pushes them apart within one tick `dt`.
#[inline(always)]
pub fn agent_line(position: Vec2, velocity: Vec2, radius: f32, other: &Mover, time_horizon: f32, dt: f32) -> Line {
    let rel_pos = other.position - position;
    let rel_vel = velocity - other.velocity;
    let dist_sq = rel_pos.length_squared();
    let combined = radius + other.radius;
    let combined_sq = combined * combined;
    let (direction, u) = if dist_sq > combined_sq {
        let inv_tau = 1.0 / time_horizon;
        let w = rel_vel - rel_pos * inv_tau;
        let w_len_sq = w.length_squared();
        let dot1 = w.dot(rel_pos);
        if dot1 < 0.0 && dot1 * dot1 > combined_sq * w_len_sq {
            // Project on the cut-off circle.
            let w_len = w_len_sq.sqrt();
            let unit_w = w / w_len;
            (Vec2::new(unit_w.y, -unit_w.x), unit_w * (combined * inv_tau - w_len))
        } else {
            // Project on the nearer leg.
            let leg = (dist_sq - combined_sq).sqrt();
            let direction = if rel_pos.perp_dot(w) > 0.0 {
                Vec2::new(
                    rel_pos.x * leg - rel_pos.y * combined,
                    rel_pos.x * combined + rel_pos.y * leg,
                ) / dist_sq
            } else {
                -Vec2::new(
                    rel_pos.x * leg + rel_pos.y * combined,
                    -rel_pos.x * combined + rel_pos.y * leg,
                ) / dist_sq
            };
            (direction, direction * rel_vel.dot(direction) - rel_vel)
        }
    } else {
        // Already overlapping: project on the cut-off circle of one tick.
        let inv_dt = 1.0 / dt;
        let w = rel_vel - rel_pos * inv_dt;
        let w_len = w.length();
        let unit_w = if w_len > EPSILON { w / w_len } else { Vec2::X };
        (Vec2::new(unit_w.y, -unit_w.x), unit_w * (combined * inv_dt - w_len))
    };
    let share = if other.reactive { 0.5 } else { 1.0 };
    Line {
        point: velocity + u * share,
        direction,
    }
}

/// RVO2's obstacle lines for the edges in `edges` (start vertices, nearest first), skipping
/// edges whose velocity obstacle earlier lines already cover.
fn obstacle_lines(
    agent: &AvoidingAgent,
    edges: &[usize],
    obstacles: &AvoidObstacles,
    inv_tau: f32,
    lines: &mut Vec<Line>,
) {
    let verts = &obstacles.vertices;
    let radius = agent.radius;
    let radius_sq = radius * radius;
    let at_origin = |direction: Vec2| Line {
        point: Vec2::ZERO,
        direction,
    };
    for &first in edges {
        let (mut o1, mut o2) = (first, verts[first].next);
        let rel1 = verts[o1].point - agent.position;
        let rel2 = verts[o2].point - agent.position;
        let covered = lines.iter().any(|l| {
            (rel1 * inv_tau - l.point).perp_dot(l.direction) - inv_tau * radius >= -EPSILON
                && (rel2 * inv_tau - l.point).perp_dot(l.direction) - inv_tau * radius >= -EPSILON
        });
        if covered {
            continue;
        }
        let dist_sq1 = rel1.length_squared();
        let dist_sq2 = rel2.length_squared();
        let obstacle_vector = verts[o2].point - verts[o1].point;
        let s = (-rel1).dot(obstacle_vector) / obstacle_vector.length_squared();
        let dist_sq_line = (-rel1 - obstacle_vector * s).length_squared();
        if s < 0.0 && dist_sq1 <= radius_sq {
            if verts[o1].convex {
                lines.push(at_origin(Vec2::new(-rel1.y, rel1.x).normalize()));
            }
            continue;
        } else if s > 1.0 && dist_sq2 <= radius_sq {
            if verts[o2].convex && rel2.perp_dot(verts[o2].unit_dir) >= 0.0 {
                lines.push(at_origin(Vec2::new(-rel2.y, rel2.x).normalize()));
            }
            continue;
        } else if (0.0..1.0).contains(&s) && dist_sq_line <= radius_sq {
            lines.push(at_origin(-verts[o1].unit_dir));
            continue;
        }
        let left_leg_of = |rel: Vec2, dist_sq: f32| {
            let leg = (dist_sq - radius_sq).sqrt();
            Vec2::new(rel.x * leg - rel.y * radius, rel.x * radius + rel.y * leg) / dist_sq
        };
        let right_leg_of = |rel: Vec2, dist_sq: f32| {
            let leg = (dist_sq - radius_sq).sqrt();
            Vec2::new(rel.x * leg + rel.y * radius, -rel.x * radius + rel.y * leg) / dist_sq
        };
        let (mut left_leg, mut right_leg);
        if s < 0.0 && dist_sq_line <= radius_sq {
            // Seen obliquely: the left vertex defines the velocity obstacle.
            if !verts[o1].convex {
                continue;
            }
            o2 = o1;
            left_leg = left_leg_of(rel1, dist_sq1);
            right_leg = right_leg_of(rel1, dist_sq1);
        } else if s > 1.0 && dist_sq_line <= radius_sq {
            // Seen obliquely: the right vertex defines the velocity obstacle.
            if !verts[o2].convex {
                continue;
            }
            o1 = o2;
            left_leg = left_leg_of(rel2, dist_sq2);
            right_leg = right_leg_of(rel2, dist_sq2);
        } else {
            left_leg = if verts[o1].convex {
                left_leg_of(rel1, dist_sq1)
            } else {
                -verts[o1].unit_dir
            };
            right_leg = if verts[o2].convex {
                right_leg_of(rel2, dist_sq2)
            } else {
                verts[o1].unit_dir
            };
        }
        // A leg pointing into the neighbouring edge is replaced by that edge's cut-off line.
        let left_neighbour = verts[o1].prev;
        let mut left_foreign = false;
        let mut right_foreign = false;
        if verts[o1].convex && left_leg.perp_dot(-verts[left_neighbour].unit_dir) >= 0.0 {
            left_leg = -verts[left_neighbour].unit_dir;
            left_foreign = true;
        }
        if verts[o2].convex && right_leg.perp_dot(verts[o2].unit_dir) <= 0.0 {
            right_leg = verts[o2].unit_dir;
            right_foreign = true;
        }
        let left_cutoff = (verts[o1].point - agent.position) * inv_tau;
        let right_cutoff = (verts[o2].point - agent.position) * inv_tau;
        let cutoff_vec = right_cutoff - left_cutoff;
        let same = o1 == o2;
        let v = agent.velocity;
        let t = if same {
            0.5
        } else {
            (v - left_cutoff).dot(cutoff_vec) / cutoff_vec.length_squared()
        };
        let t_left = (v - left_cutoff).dot(left_leg);
        let t_right = (v - right_cutoff).dot(right_leg);
        let on_circle = |cutoff: Vec2| {
            let unit_w = (v - cutoff).normalize();
            Line {
                point: cutoff + unit_w * (radius * inv_tau),
                direction: Vec2::new(unit_w.y, -unit_w.x),
            }
        };
        if (t < 0.0 && t_left < 0.0) || (same && t_left < 0.0 && t_right < 0.0) {
            lines.push(on_circle(left_cutoff));
            continue;
        } else if t > 1.0 && t_right < 0.0 {
            lines.push(on_circle(right_cutoff));
            continue;
        }
        // Not `!(0.0..=1.0).contains(&t)`: a NaN `t` must not count as outside (RVO2's test).
        #[allow(clippy::manual_range_contains)]
        let dist_sq_cutoff = if t < 0.0 || t > 1.0 || same {
            f32::INFINITY
        } else {
            (v - (left_cutoff + cutoff_vec * t)).length_squared()
        };
        let dist_sq_left = if t_left < 0.0 {
            f32::INFINITY
        } else {
            (v - (left_cutoff + left_leg * t_left)).length_squared()
        };
        let dist_sq_right = if t_right < 0.0 {
            f32::INFINITY
        } else {
            (v - (right_cutoff + right_leg * t_right)).length_squared()
        };
        let along = |cutoff: Vec2, direction: Vec2| Line {
            point: cutoff + Vec2::new(-direction.y, direction.x) * (radius * inv_tau),
            direction,
        };
        if dist_sq_cutoff <= dist_sq_left && dist_sq_cutoff <= dist_sq_right {
            lines.push(along(left_cutoff, -verts[o1].unit_dir));
        } else if dist_sq_left <= dist_sq_right {
            if !left_foreign {
                lines.push(along(left_cutoff, left_leg));
            }
        } else if !right_foreign {
            lines.push(along(right_cutoff, -right_leg));
        }
    }
}

/// The ORCA velocity of `agent` among its neighbourhood (whose line buffers are reused);
/// `debug` receives every half-plane.
pub fn orca_velocity(
    agent: &AvoidingAgent,
    nb: &mut Neighbourhood,
    obstacles: &AvoidObstacles,
    params: &ObstacleParams,
    dt: f32,
    debug: Option<&mut Vec<Constraint>>,
) -> Vec2 {
    let lines = &mut nb.lines;
    lines.clear();
    obstacle_lines(agent, &nb.edges, obstacles, 1.0 / params.time_horizon_obst, lines);
    for circle in &nb.static_circles {
        lines.push(agent_line(
            agent.position,
            agent.velocity,
            agent.radius,
            circle,
            params.time_horizon_obst,
            dt,
        ));
    }
    let hard = lines.len();
    for other in &nb.movers {
        lines.push(agent_line(
            agent.position,
            agent.velocity,
            agent.radius,
            other,
            params.time_horizon,
            dt,
        ));
    }
    if let Some(out) = debug {
        out.extend(lines.iter().enumerate().map(|(i, l)| Constraint::HalfPlane {
            point: l.point,
            direction: l.direction,
            hard: i < hard,
        }));
    }
    solve(lines, hard, agent.max_speed, agent.preferred, &mut nb.projected)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(position: Vec2, velocity: Vec2) -> Mover {
        Mover {
            position,
            velocity,
            radius: 0.5,
            reactive: true,
        }
    }

    #[test]
    fn head_on_pair_gets_mirror_half_planes_sharing_the_correction() {
        // A at (−5, 0) → +x at 1 m/s, B at (5, 0) → −x; τ = 10 s. They would touch after 4.5 s,
        // within τ, and the relative velocity is nearer the legs than the cut-off circle.
        let a = agent(Vec2::new(-5.0, 0.0), Vec2::new(1.0, 0.0));
        let b = agent(Vec2::new(5.0, 0.0), Vec2::new(-1.0, 0.0));
        let la = agent_line(a.position, a.velocity, a.radius, &b, 10.0, 0.1);
        let lb = agent_line(b.position, b.velocity, b.radius, &a, 10.0, 0.1);
        // Relative velocity (2, 0) lies on the cone axis, so it is on neither side strictly;
        // RVO2 takes the right leg (det = 0). Both lines are parallel to a leg and symmetric.
        assert!((la.direction.length() - 1.0).abs() < 1e-6);
        assert!(
            (la.direction + lb.direction).length() < 1e-5,
            "mirror images: {la:?} {lb:?}"
        );
        // A's current velocity is forbidden by the line, and half of u puts it on the border.
        assert!(la.violation(a.velocity) > 0.0);
        // Each agent's share: the point is v + u/2, so v_A − point_A = −(v_B − point_B).
        assert!(((a.velocity - la.point) + (b.velocity - lb.point)).length() < 1e-5);
    }

    #[test]
    fn crossing_pair_permits_passing_behind() {
        // A moves +x, B moves +y from below-right; they would meet at the origin after 4 s.
        let a = agent(Vec2::new(-4.0, 0.0), Vec2::new(1.0, 0.0));
        let b = agent(Vec2::new(0.0, -4.0), Vec2::new(0.0, 1.0));
        let la = agent_line(a.position, a.velocity, a.radius, &b, 5.0, 0.1);
        assert!(la.violation(a.velocity) > 0.0, "the current velocity collides within τ");
        assert!(la.violation(Vec2::ZERO) <= 0.0, "stopping is permitted");
    }

    #[test]
    fn overlapping_pair_is_pushed_apart_within_one_tick() {
        // Centres 0.8 m apart, combined radius 1: the line demands separating at ≥ (1 − 0.8)/dt
        // between them; each agent takes half.
        let a = agent(Vec2::ZERO, Vec2::ZERO);
        let b = agent(Vec2::new(0.8, 0.0), Vec2::ZERO);
        let la = agent_line(a.position, a.velocity, a.radius, &b, 5.0, 0.1);
        assert!((la.point - Vec2::new(-1.0, 0.0)).length() < 1e-4, "{la:?}");
        assert!(la.violation(Vec2::new(-1.1, 0.0)) <= 0.0 && la.violation(Vec2::new(-0.9, 0.0)) > 0.0);
        let obstacle = Mover { reactive: false, ..b };
        let full = agent_line(a.position, a.velocity, a.radius, &obstacle, 5.0, 0.1);
        assert!(
            (full.point - Vec2::new(-2.0, 0.0)).length() < 1e-4,
            "full responsibility: {full:?}"
        );
    }
}
