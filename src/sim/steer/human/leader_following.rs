//! LEADER FOLLOWING (Popelová §3.6), basic type (Reynolds) and formation type (new).
//!
//! Basic (D = Distance, d = distance to the leader): leader moving and d > D → attraction
//! F·(d − D)/Force Distance; d < D → repulsion F·((D − d)/D)². The thesis prints F·(d/D)², which
//! contradicts its prose ("the closer, the larger, at most F"); the prose is followed (§7.6).
//! Leader stopped and d within D ± 80 cm → stop facing the leader. *Deceleration* (d < D): a
//! leader at least as fast → only a deceleration share (D − d)/D; a slower leader → that share
//! plus the repulsion scaled by the relative speed difference (no formula in the thesis).
//!
//! Formation: the slot is L'_L + p with L'_L = L_L + τ·v_L (τ = one 250 ms tick) and p the leader's
//! (or, with Memory, its last Memory Size velocities' mean) direction rotated by Angle (positive =
//! right, as the prose says) and scaled to Distance — the printed formula uses the raw velocity,
//! which contradicts "Distance sets the distance from the leader" (§7.7). The pull is
//! F·|v|/Force Distance towards the slot. *Circumvention*: when the leader is nearer than the slot
//! and the straight way passes within D2 = max(150 cm, D/2) of the leader's mean position, a
//! rotation vector (|v| of the follower, away from the leader) × K × F/d is added.
//!
//! Both types vote for the speed boost only while the follower lags behind (beyond D + 80 cm,
//! or more than D from its slot), and a formation follower of a stopped leader stops within 80 cm
//! of its slot, facing the leader's way.
//!
//! A leader hidden behind an obstacle is replaced by its last seen state; never seen → the
//! follower turns on the spot looking for it.

use std::collections::VecDeque;

use glam::Vec2;
use rand_pcg::Pcg32;

use super::output::{Side, SteeringOutput, motion_direction};
use crate::geom::closest_point_on_segment;
use crate::scene::steering::human::{Formation, LeaderFollowing, MAX_MEMORY, THESIS_TICK};
use crate::sim::Body;
use crate::sim::steer::SteeringContext;

/// What the follower remembers of its leader.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeaderState {
    /// The leader's last velocities, newest last (at most 20).
    pub velocities: VecDeque<Vec2>,
    /// The leader's last seen (position, velocity, heading).
    pub last_seen: Option<(Vec2, Vec2, Vec2)>,
}

/// Tolerance around Distance within which a follower of a stopped leader stops, 80 cm_UT.
const STOP_BAND: f32 = 0.8;
/// Below this speed (m/s) the leader counts as stopped.
const STOPPED: f32 = 0.05;

impl LeaderFollowing {
    /// The steering output for this tick, updating `state`.
    pub fn steer(&self, ctx: &SteeringContext, state: &mut LeaderState, rng: &mut Pcg32) -> SteeringOutput {
        if let Some(leader) = super::visible_agent(ctx, self.leader) {
            state.last_seen = Some((leader.position, leader.velocity, leader.heading));
            state.velocities.push_back(leader.velocity);
            while state.velocities.len() > MAX_MEMORY {
                state.velocities.pop_front();
            }
        }
        let Some((lp, lv, lh)) = state.last_seen else {
            let me = ctx.body;
            return SteeringOutput::stop(Some(me.position + me.heading.perp()));
        };
        match &self.formation {
            None => self.basic(ctx.body, lp, lv),
            Some(f) => self.formation(ctx.body, f, lp, lv, lh, state, rng),
        }
    }

    fn basic(&self, me: &Body, lp: Vec2, lv: Vec2) -> SteeringOutput {
        let to_leader = lp - me.position;
        let d = to_leader.length();
        let dir = to_leader.normalize_or_zero();
        let (dd, fd) = (self.distance, self.force_distance);
        let leader_speed = lv.length();
        if leader_speed < STOPPED && (d - dd).abs() <= STOP_BAND {
            return SteeringOutput::stop(Some(lp));
        }
        if d >= dd {
            return SteeringOutput {
                force: dir * (self.leader_force * (d - dd) / fd),
                boost: d > dd + STOP_BAND,
                ..SteeringOutput::default()
            };
        }
        let repulsion = -dir * (self.leader_force * ((dd - d) / dd).powi(2));
        if !self.deceleration {
            return SteeringOutput {
                force: repulsion,
                ..SteeringOutput::default()
            };
        }
        let my_speed = me.velocity.length();
        let force = if leader_speed >= my_speed || my_speed <= 0.0 {
            Vec2::ZERO
        } else {
            repulsion * ((my_speed - leader_speed) / my_speed)
        };
        SteeringOutput {
            force,
            deceleration: (dd - d) / dd,
            ..SteeringOutput::default()
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn formation(
        &self,
        me: &Body,
        f: &Formation,
        lp: Vec2,
        lv: Vec2,
        lh: Vec2,
        state: &LeaderState,
        rng: &mut Pcg32,
    ) -> SteeringOutput {
        let slot = self.slot(f, lp, lv, lh, &state.velocities);
        let v = slot - me.position;
        if lv.length() < STOPPED && v.length() <= STOP_BAND {
            return SteeringOutput::stop(Some(me.position + lh));
        }
        let mut force = v * (self.leader_force / self.force_distance);
        if f.circumvention {
            let mean_leader = lp + lv * (THESIS_TICK * 0.5);
            let to_leader = mean_leader.distance(me.position);
            if v.length() > to_leader && to_leader > 0.0 {
                let d2 = (self.distance * 0.5).max(1.5);
                let closest = closest_point_on_segment(mean_leader, me.position, slot);
                let d_p = closest.distance(mean_leader);
                let way = v.normalize_or_zero();
                let (side, k) = match Side::of(mean_leader, me.position, way) {
                    Some(s) if d_p > 1e-3 => (s.opposite(), ((d2 - d_p) / d2).max(0.0)),
                    _ => (Side::random(rng), 1.0),
                };
                let dir = motion_direction(me.velocity, way);
                let rotation = side.unit(dir) * me.velocity.length().max(lv.length());
                force += rotation * (k * self.leader_force / to_leader);
            }
        }
        SteeringOutput {
            force,
            boost: v.length() > self.distance,
            ..SteeringOutput::default()
        }
    }

    /// The follower's slot next tick: the predicted leader position plus the rotated offset.
    pub fn slot(&self, f: &Formation, lp: Vec2, lv: Vec2, lh: Vec2, memory: &VecDeque<Vec2>) -> Vec2 {
        let n = f.memory_size.min(memory.len());
        let heading_velocity = if n > 0 {
            memory.iter().rev().take(n).sum::<Vec2>() / n as f32
        } else {
            lv
        };
        let facing = heading_velocity.try_normalize().unwrap_or(lh);
        let offset = Vec2::from_angle(-f.angle_deg.to_radians()).rotate(facing) * self.distance;
        lp + lv * THESIS_TICK + offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formation_slot_is_to_the_right_at_distance() {
        let lf = LeaderFollowing {
            leader: 1,
            leader_force: 2.4,
            distance: 2.0,
            force_distance: 0.5,
            formation: None,
            deceleration: false,
        };
        let f = Formation {
            angle_deg: 90.0,
            memory_size: 0,
            circumvention: false,
        };
        let slot = lf.slot(&f, Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::X, &VecDeque::new());
        assert!((slot - Vec2::new(0.5, -2.0)).length() < 1e-5, "{slot}");
        let mut memory = VecDeque::from(vec![Vec2::new(0.0, 2.0), Vec2::new(2.0, 0.0)]);
        memory.push_back(Vec2::new(2.0, 0.0));
        let remembered = Formation { memory_size: 3, ..f };
        let smooth = lf.slot(&remembered, Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::X, &memory);
        assert!(
            smooth.y > -2.0 && smooth.x > 0.5,
            "the mean heading leans towards the old direction"
        );
    }

    #[test]
    fn basic_repulsion_grows_as_the_follower_gets_closer() {
        let lf = LeaderFollowing {
            leader: 1,
            leader_force: 2.0,
            distance: 2.0,
            force_distance: 0.5,
            formation: None,
            deceleration: false,
        };
        let me = |x: f32| Body {
            id: 0,
            profile: 0,
            position: Vec2::new(x, 0.0),
            velocity: Vec2::X,
            heading: Vec2::X,
            radius: 0.3,
            status: crate::sim::Status::Active,
        };
        let lv = Vec2::X;
        assert!((lf.basic(&me(-1.0), Vec2::ZERO, lv).force.x + 0.5).abs() < 1e-5);
        assert!(
            (lf.basic(&me(-0.0001), Vec2::ZERO, lv).force.x + 2.0).abs() < 1e-3,
            "at most F"
        );
        assert!(
            (lf.basic(&me(-3.0), Vec2::ZERO, lv).force.x - 4.0).abs() < 1e-5,
            "F·(d − D)/FD"
        );
        assert!(
            lf.basic(&me(-2.5), Vec2::ZERO, Vec2::ZERO).stop.is_some(),
            "stopped leader within ±80 cm"
        );
    }
}
