//! The unit tests' pseudo-random numbers: a 32-bit linear congruential generator (Numerical
//! Recipes' constants), so a test's cases are the same on every machine and need no crate.

/// A generator of floats in [0, 1) from `seed`: each call advances the state once and returns
/// its top 24 bits as a fraction.
pub fn unit_floats(mut seed: u32) -> impl FnMut() -> f32 {
    move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    }
}
