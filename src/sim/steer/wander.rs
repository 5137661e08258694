//! Wander (Buckland §2.6, Reynolds' projected circle). A target on a circle of `radius` around
//! the agent is nudged by a random displacement of up to `jitter · dt` per axis, re-projected onto
//! the circle, then the circle is pushed `distance` ahead; the force is the vector to that point.
//!
//! Text fixes: jitter is "per second" in the prose but not scaled by Δt in the listing (§8.7) —
//! it is scaled here, so behaviour does not depend on the tick length. The Polish claim that a
//! closer circle restricts turning is reversed (§8.8): the force stays within ±asin(R/D) of the
//! heading, so a closer circle (smaller D) allows sharper turns.

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use super::local_space::LocalFrame;

/// Moves `target` (local, relative to the circle's centre ahead of the agent) by the jitter for
/// `dt` and re-projects it onto the circle of `radius`.
pub fn jitter_target(target: &mut Vec2, rng: &mut Pcg32, radius: f32, jitter_per_second: f32, dt: f32) {
    let step = jitter_per_second * dt;
    *target += Vec2::new(rng.random_range(-1.0..=1.0) * step, rng.random_range(-1.0..=1.0) * step);
    *target = target.normalize_or(Vec2::X) * radius;
}

/// The wander force for an agent in `frame`: from the agent to the target on the circle
/// projected `distance` ahead (a raw offset vector, as in the text, not desired − v).
pub fn wander_force(frame: &LocalFrame, target: Vec2, distance: f32) -> Vec2 {
    frame.vector_to_world(target + Vec2::new(distance, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn target_stays_on_the_circle_and_force_within_the_cone() {
        // §5.2 property: the local target lies on the circle of radius R centred at (D, 0); the force
        // direction is within ±asin(R/D) of the heading.
        let (r, d) = (1.2, 2.0);
        let mut rng = Pcg32::seed_from_u64(3);
        let mut target = Vec2::X;
        let frame = LocalFrame::new(Vec2::new(5.0, -3.0), Vec2::from_angle(0.7));
        for _ in 0..500 {
            jitter_target(&mut target, &mut rng, r, 80.0, 0.1);
            let local = target + Vec2::new(d, 0.0);
            assert!((local.distance(Vec2::new(d, 0.0)) - r).abs() < 1e-5);
            let f = wander_force(&frame, target, d);
            assert!(frame.heading.angle_to(f).abs() <= (r / d).asin() + 1e-4);
        }
    }

    #[test]
    fn jitter_scales_with_dt() {
        let mut rng = Pcg32::seed_from_u64(1);
        let mut target = Vec2::new(1.2, 0.0);
        jitter_target(&mut target, &mut rng, 1.2, 10.0, 0.0);
        assert_eq!(target, Vec2::new(1.2, 0.0));
    }
}
