//! Flocking speed (issue 19, row "flocking"): the bundled 10,000-fish shoal
//! (`scenes/flock_10000.ron`: separation, alignment, cohesion and wander on the neighbour grid),
//! milliseconds per tick of `World::step` — think, decide, apply and the recorded frame with its
//! contact check, all that `crowdlab run` times per tick — on 1 and on 2 threads, and the
//! 2-thread speed-up (issue target: ≤ 3 ms/tick on 1 thread, ≥ 1.8× on 2).
//!
//! Each run builds the world, steps `WARM_UP` ticks untimed, then times `TICKS` ticks; 1- and
//! 2-thread runs alternate `REPS` times and the fastest of each is reported, so a busy machine
//! disturbs both columns alike. The last column runs two 1-thread worlds at once: the speed-up
//! the machine gives two independent jobs, which bounds the 2-thread one (on a VM whose two
//! cores share a physical one it is far below 2).
//!
//! Run: `cargo bench --no-default-features --bench flock` (prints a table; not a criterion group,
//! since one 200-tick run is already the measurement). Thread counts given after `--` run only
//! those columns, e.g. `... --bench flock -- 1` for profiling the single thread.

use std::sync::Arc;
use std::time::Instant;

use crowdlab::scene::{Scene, load_scene};
use crowdlab::sim::World;

#[path = "support/ceiling.rs"]
mod ceiling;
use ceiling::slower_of_two_at_once;

/// Ticks stepped before timing (the shoal starts on a lattice and settles into motion).
const WARM_UP: usize = 10;
/// Ticks timed per run.
const TICKS: usize = 200;
/// Alternating repetitions of the 1- and 2-thread runs.
const REPS: usize = 5;

/// The bundled 10,000-fish scene.
fn shoal() -> Arc<Scene> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/flock_10000.ron");
    Arc::new(load_scene(&path).expect("bundled scene"))
}

/// Milliseconds per tick of `TICKS` ticks after the warm-up, on a pool of `threads` threads.
fn ms_per_tick(scene: &Arc<Scene>, threads: usize) -> f64 {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let mut world = World::new(Arc::clone(scene));
        for _ in 0..WARM_UP {
            world.step();
        }
        let t = Instant::now();
        for _ in 0..TICKS {
            world.step();
        }
        t.elapsed().as_secs_f64() * 1e3 / TICKS as f64
    })
}

fn main() {
    let scene = shoal();
    let only: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let wanted = |threads: usize| only.is_empty() || only.contains(&threads);
    let (mut one, mut two, mut pair) = (f64::NAN, f64::NAN, f64::NAN);
    for _ in 0..REPS {
        if wanted(1) {
            one = one.min(ms_per_tick(&scene, 1));
        }
        if wanted(2) {
            two = two.min(ms_per_tick(&scene, 2));
            pair = pair.min(slower_of_two_at_once(|| ms_per_tick(&scene, 1)));
        }
    }
    println!(
        "| Flocking 10,000 agents, {TICKS} ticks | 1 thread (ms/tick) | 2 threads (ms/tick) | speed-up | machine's ceiling (two 1-thread runs at once) |"
    );
    println!("|---|---|---|---|---|");
    println!(
        "| crowdlab | {one:.2} | {two:.2} | {:.2}x | {:.2}x |",
        one / two,
        2.0 * one / pair
    );
}
