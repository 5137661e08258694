//! WALK ALONG (Popelová §3.7, new): two partners walk side by side to a target. L_m is their
//! midpoint, the axis runs L_m → target; T_m / T_p lie on the line through the target
//! perpendicular to the axis, D/2 either side (T_m the one nearer me). Basic: v1 + v2 + v3 with
//! - v1 → T_m, F·2^min(1.5, D_m − D_p) + c (c = 30 N_UT when I lag, D_m > D_p). The printed
//!   exponent is a raw centimetre difference, which makes the pull a step; the prose describes a
//!   graded pull (the lagging partner pulled hard, the leading one weakly), so it is in metres (§7.8);
//! - v2 → partner, F·max(0, d_p − D)/D; v3 ← partner, F·max(0, D − d_p)/D;
//! - at the target (within 150 cm of T_m) a stop request.
//!
//! *Give Way* replaces v3 by a push off the axis, F·(D − 2d_a)/D when d_a ≤ D/2.
//! *Wait for Partner*: when I am far ahead (d_p > D and the partner is more than 3·D farther from
//! the target than I am — the sign the prose implies, §7.8) I go to the axis and towards the partner
//! (each F·d_a/D) or, already near the axis, stop facing the partner.

use glam::Vec2;
use rand_pcg::Pcg32;

use super::output::{Side, SteeringOutput};
use super::target_approaching::STOP_DISTANCE;
use crate::scene::steering::human::WalkAlong;
use crate::sim::steer::SteeringContext;

/// The lagging partner's extra pull, 30 N_UT.
const LAG_PULL: f32 = 0.3;

impl WalkAlong {
    /// The steering output for this tick (zero without a goal or a visible partner).
    pub fn steer(&self, ctx: &SteeringContext, rng: &mut Pcg32) -> SteeringOutput {
        let (Some(goal), Some(partner)) = (ctx.goal, super::visible_agent(ctx, self.partner)) else {
            return SteeringOutput::force(Vec2::ZERO);
        };
        let (me, other, target) = (ctx.position(), partner.position, goal.position);
        let f = self.partner_force;
        let dd = self.distance;
        let mid = (me + other) * 0.5;
        let axis = (target - mid).try_normalize().unwrap_or(ctx.body.heading);
        let across = axis.perp() * (dd * 0.5);
        let (a, b) = (target + across, target - across);
        let (t_m, t_p) = match me.distance(a).partial_cmp(&me.distance(b)) {
            Some(std::cmp::Ordering::Less) => (a, b),
            Some(std::cmp::Ordering::Greater) => (b, a),
            _ if Side::random(rng) == Side::Left => (a, b),
            _ => (b, a),
        };
        if me.distance(t_m) < STOP_DISTANCE {
            return SteeringOutput::stop(None);
        }
        let (d_m, d_p) = (me.distance(t_m), other.distance(t_p));
        let to_partner = (other - me).normalize_or_zero();
        let gap = me.distance(other);
        let off_axis = (me - mid) - axis * (me - mid).dot(axis);
        let d_a = off_axis.length();
        let c = if d_m > d_p { LAG_PULL } else { 0.0 };
        let v1 = (t_m - me).normalize_or_zero() * (f * 2f32.powf((d_m - d_p).min(1.5)) + c);
        let mut v2 = to_partner * (f * (gap - dd).max(0.0) / dd);
        let ahead = other.distance(target) - me.distance(target);
        if self.wait_for_partner && gap > dd && ahead > 3.0 * dd {
            if d_a <= dd * 0.5 {
                return SteeringOutput::stop(Some(other));
            }
            v2 = to_partner * (f * d_a / dd) - off_axis / d_a * (f * d_a / dd);
            return SteeringOutput::force(v2);
        }
        let v3 = if self.give_way {
            let push = if d_a > dd * 0.5 { 0.0 } else { f * (dd - 2.0 * d_a) / dd };
            let away = off_axis.try_normalize().unwrap_or_else(|| Side::random(rng).unit(axis));
            away * push
        } else {
            -to_partner * (f * (dd - gap).max(0.0) / dd)
        };
        SteeringOutput::force(v1 + v2 + v3)
    }
}
