//! Where spawn groups' agents appear, computed in one place for validation (which reports a
//! group that cannot be placed) and the simulator (which places it): an area's agents on a
//! jittered lattice whose pitch keeps bodies apart, skipping points whose body would touch an
//! obstacle; a gate's simultaneous arrivals (no interval) on evenly spaced slots.

use glam::Vec2;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

use super::model::Scene;
use super::navigation::Gate;
use super::obstacle_index::ObstacleIndex;

/// Largest lattice jitter as a share of the cell, each way.
const JITTER: f32 = 0.15;
/// Clearance kept between two spawned bodies (metres).
const GAP: f32 = 0.01;
/// The share of a gate's length arrivals use: they appear between these fractions of it.
pub const GATE_SPAN: (f32, f32) = (0.1, 0.9);

/// The random generator of spawn group `group` of a scene with `seed`.
pub fn spawn_rng(seed: u64, group: usize) -> Pcg32 {
    Pcg32::seed_from_u64(seed ^ 0x7370_6177_6e00 ^ (group as u64) << 40)
}

/// Up to `count` points on a jittered lattice over `min`–`max`, row by row, whose bodies of
/// `radius` keep apart, inside the scene's bounds and clear of its `obstacles` at `time`. Fewer
/// points than `count` mean the area cannot hold the group (validation reports it).
pub fn area_points(
    scene: &Scene,
    obstacles: &ObstacleIndex,
    (min, max): (Vec2, Vec2),
    count: u32,
    radius: f32,
    time: f32,
    rng: &mut Pcg32,
) -> Vec<Vec2> {
    let size = max - min;
    let pitch = 2.0 * radius + GAP;
    let most = |length: f32| ((length / pitch).floor() as u64).clamp(1, u64::from(count.max(1))) as u32;
    let (max_cols, max_rows) = (most(size.x), most(size.y));
    let n = count as f32;
    let cols = ((n * size.x / size.y).sqrt().ceil().max(1.0) as u32).min(max_cols);
    let mut rows = count.div_ceil(cols).clamp(1, max_rows);
    let clear = |p: Vec2| {
        scene.bounds.min.cmple(p).all()
            && p.cmple(scene.bounds.max).all()
            && obstacles.overlapping(p, radius, time, 0.0).is_empty()
    };
    let mut points = Vec::new();
    // Grow the lattice until enough points are clear (obstacles inside the area).
    for _ in 0..4 {
        let step = Vec2::new(size.x / cols as f32, size.y / rows as f32);
        // Jitter only as far as keeps neighbouring bodies apart (none on a tight lattice).
        let jitter_scale = ((Vec2::ONE - pitch / step) * 0.5).clamp(Vec2::ZERO, Vec2::splat(JITTER)) / JITTER;
        points = (0..u64::from(rows) * u64::from(cols))
            .map(|k| {
                let cols = u64::from(cols);
                let cell = Vec2::new((k % cols) as f32 + 0.5, (k / cols) as f32 + 0.5);
                let jitter = Vec2::new(rng.random_range(-JITTER..JITTER), rng.random_range(-JITTER..JITTER));
                min + (cell + jitter * jitter_scale) * step
            })
            .filter(|&p| clear(p))
            .take(count as usize)
            .collect();
        if points.len() == count as usize || rows == max_rows {
            break;
        }
        rows = (rows + rows / 2 + 1).min(max_rows);
    }
    points
}

/// How many bodies of `radius` fit side by side on a gate's arrival span.
pub fn gate_capacity(gate: &Gate, radius: f32) -> u64 {
    let span = gate.from.distance(gate.to) * (GATE_SPAN.1 - GATE_SPAN.0);
    (span / (2.0 * radius + GAP)).floor() as u64
}

/// The fraction along the gate of slot `k` of `count` simultaneous arrivals.
pub fn gate_slot(k: u32, count: u32) -> f32 {
    GATE_SPAN.0 + (GATE_SPAN.1 - GATE_SPAN.0) * (k as f32 + 0.5) / count as f32
}
