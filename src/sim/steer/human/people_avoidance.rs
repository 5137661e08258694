//! PEOPLE AVOIDANCE (Popelová §3.2). Basic: Σ pᵢ over agents Bᵢ closer than Distance D, each from
//! Bᵢ to A with |pᵢ| = F·max(0, D − |ABᵢ|)/D. Extended:
//! - *Circumvention*: with constant velocities, t = the first tick (≤ Projection P) at which the
//!   two are closer than D; a rotation vector of 2·F·K1·max(K2, K3) is added on the side opposite
//!   to B's predicted position. Readings of §7: K1 = clamp((P − t)/(P − 1), 0, 1), which is 1 for
//!   t ≤ 1 as the prose says (the printed (P − t)/P is 1 only at t = 0); K3 = max(0, (π − λ)/π),
//!   zero when B is straight behind as the prose says (the printed formula is zero from π/2).
//! - *Deceleration / Acceleration*: at the crossing S of the two velocity rays, the one arriving
//!   first speeds up (×3, "so that it survives the combiner") and the other slows down, by the
//!   share K1·K2 of the stop vector (K1 = (M − |L_A S|)/M with M the distance covered in P ticks,
//!   K2 = (D − d_t)/D with d_t the gap after t ticks). Circumvention applies only when this is zero.
//!
//! Only agents in sight count (not behind an obstacle). Ticks are the thesis's 250 ms ([`THESIS_TICK`]), whatever the scene's dt.

use std::f32::consts::PI;

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use super::output::{Side, SteeringOutput, motion_direction};
use crate::scene::steering::human::{PeopleAvoidance, THESIS_TICK};
use crate::sim::Body;
use crate::sim::steer::SteeringContext;

impl PeopleAvoidance {
    /// The steering output for this tick.
    pub fn steer(&self, ctx: &SteeringContext, rng: &mut Pcg32) -> SteeringOutput {
        let p = self.effective();
        let me = ctx.body;
        let mut out = SteeringOutput::force(Vec2::ZERO);
        // In index order (the context lists them in the grid's), so the random draws and the
        // sums do not depend on where the agents stand in the grid.
        let mut seen: Vec<u32> = ctx
            .neighbours
            .iter()
            .copied()
            .filter(|&i| super::sees(ctx, &ctx.bodies[i as usize]))
            .collect();
        seen.sort_unstable();
        let others: Vec<&Body> = seen.iter().map(|&i| &ctx.bodies[i as usize]).collect();
        for b in &others {
            let away = me.position - b.position;
            let d = away.length();
            if d < p.distance && d > 0.0 {
                out.force += away / d * (p.repulsive_force * (p.distance - d) / p.distance);
                out.boost = false;
            }
        }
        if p.deceleration || p.acceleration {
            out.deceleration = others
                .iter()
                .map(|b| p.speed_change(me, b, rng))
                .fold(0.0, |acc: f32, x| if x.abs() > acc.abs() { x } else { acc });
        }
        if p.circumvention && out.deceleration == 0.0 {
            out.force += others
                .iter()
                .filter_map(|b| p.circumvention_vector(me, b, rng))
                .sum::<Vec2>();
        }
        if out.deceleration != 0.0 {
            out.boost = false;
        }
        out
    }

    /// The first tick t ≤ P at which the two bodies, moving on, are closer than D.
    pub fn first_close_tick(&self, a: &Body, b: &Body) -> Option<u32> {
        (0..=self.projection.floor() as u32).find(|&t| {
            let s = t as f32 * THESIS_TICK;
            (a.position + a.velocity * s).distance(b.position + b.velocity * s) < self.distance
        })
    }

    /// The circumvention rotation vector against `b`, if a close approach lies within P ticks.
    pub fn circumvention_vector(&self, a: &Body, b: &Body, rng: &mut Pcg32) -> Option<Vec2> {
        let t = self.first_close_tick(a, b)?;
        let s = t as f32 * THESIS_TICK;
        let (a_t, b_t) = (a.position + a.velocity * s, b.position + b.velocity * s);
        let dir = motion_direction(a.velocity, a.heading);
        let side = Side::of(b_t, a_t, dir).map_or_else(|| Side::random(rng), Side::opposite);
        let k1 = urgency(self.projection, t as f32);
        let k2 = ((self.distance - a_t.distance(b_t)) / self.distance).max(0.0);
        let lambda = dir.angle_to(b.position - a.position).abs();
        let k3 = ((PI - lambda) / PI).max(0.0);
        Some(side.unit(dir) * (2.0 * self.repulsive_force * k1 * k2.max(k3)))
    }

    /// Signed share of the stop vector for the crossing with `b`: positive slows `a` down,
    /// negative (×3) speeds it up; 0 when the paths do not meet soon and close.
    pub fn speed_change(&self, a: &Body, b: &Body, rng: &mut Pcg32) -> f32 {
        let (sa, sb) = (a.velocity.length(), b.velocity.length());
        let Some(s) = ray_crossing(a.position, a.velocity, b.position, b.velocity).filter(|_| sa > 0.0 && sb > 0.0)
        else {
            return 0.0;
        };
        let ticks_a = a.position.distance(s) / (sa * THESIS_TICK);
        let ticks_b = b.position.distance(s) / (sb * THESIS_TICK);
        let t = ticks_a.min(ticks_b);
        let gap = (a.position + a.velocity * t * THESIS_TICK).distance(b.position + b.velocity * t * THESIS_TICK);
        if gap >= self.distance || t >= self.projection {
            return 0.0;
        }
        let reach = sa * THESIS_TICK * self.projection;
        let share = ((reach - a.position.distance(s)) / reach).max(0.0) * (self.distance - gap) / self.distance;
        let first = if ticks_a.round() == ticks_b.round() {
            rng.random::<bool>()
        } else {
            ticks_a < ticks_b
        };
        match (first, self.acceleration, self.deceleration) {
            (true, true, _) => -3.0 * share,
            (false, _, true) => share,
            _ => 0.0,
        }
    }
}

/// K1 = clamp((P − t)/(P − 1), 0, 1): full urgency up to one tick ahead, none at P.
fn urgency(projection: f32, t: f32) -> f32 {
    if projection <= 1.0 {
        return if t <= 1.0 { 1.0 } else { 0.0 };
    }
    ((projection - t) / (projection - 1.0)).clamp(0.0, 1.0)
}

/// Where the rays `pa + s·va` and `pb + u·vb` (s, u ≥ 0) cross, if they do.
fn ray_crossing(pa: Vec2, va: Vec2, pb: Vec2, vb: Vec2) -> Option<Vec2> {
    let denom = va.perp_dot(vb);
    if denom.abs() <= 1e-9 {
        return None;
    }
    let d = pb - pa;
    let s = d.perp_dot(vb) / denom;
    let u = d.perp_dot(va) / denom;
    (s >= 0.0 && u >= 0.0).then(|| pa + va * s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Status;
    use rand::SeedableRng;

    fn body(id: u32, position: Vec2, velocity: Vec2) -> Body {
        Body {
            id,
            profile: 0,
            position,
            velocity,
            heading: velocity.try_normalize().unwrap_or(Vec2::X),
            radius: 0.3,
            status: Status::Active,
        }
    }

    #[test]
    fn head_on_pair_gets_a_sideways_rotation() {
        let pa = PeopleAvoidance::default();
        let a = body(0, Vec2::ZERO, Vec2::new(1.0, 0.0));
        let b = body(1, Vec2::new(8.0, 0.1), Vec2::new(-1.0, 0.0));
        // Closing at 2 m/s = 0.5 m per tick: the gap is just over 3 m at tick 10, under it at 11.
        assert_eq!(pa.first_close_tick(&a, &b), Some(11));
        let r = pa.circumvention_vector(&a, &b, &mut Pcg32::seed_from_u64(1)).unwrap();
        assert!(r.x.abs() < 1e-6 && r.y < 0.0, "B ends up left, so A turns right: {r}");
    }

    #[test]
    fn earlier_arrival_speeds_up_and_the_later_slows() {
        let pa = PeopleAvoidance::default();
        let a = body(0, Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0));
        let b = body(1, Vec2::new(0.0, -3.0), Vec2::new(0.0, 2.0));
        let mut rng = Pcg32::seed_from_u64(1);
        assert!(pa.speed_change(&a, &b, &mut rng) < 0.0);
        assert!(pa.speed_change(&b, &a, &mut rng) > 0.0);
    }
}
