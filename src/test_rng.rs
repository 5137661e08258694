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

/// proptest's configuration for `cases` cases drawn from `seed`: the same cases in every run
/// (and in CI); change the seed to explore others.
pub fn fixed_cases(cases: u32, seed: u64) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        ..proptest::test_runner::Config::default()
    }
}
