//! The cone methods (VO, RVO, ClearPath, Brandejský) against ORCA on one scene: 200 walkers in
//! a 40 m × 6 m hallway between two walls, 100 from each end walking toward the other
//! (counter-flow), each method set on every profile as `crowdlab run --method` does. Prints
//! milliseconds per tick of `World::step` on 1 thread over the first 300 ticks (the best of 6
//! runs, each method's runs alternating with ORCA's), the ratio to ORCA (issue 19 target: ≤ 3),
//! and per method how many arrived, the deepest overlap seen and a checksum of the final
//! positions (to tell whether a change altered behaviour).
//!
//! Run: `cargo bench --no-default-features --bench cones` (a table, not a criterion group).
//! Method names after `--` run only those rows besides ORCA: `... --bench cones -- vo clearpath`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crowdlab::scene::{Bounds, Obstacle, Scene};
use crowdlab::sim::{Body, Status, World};
use crowdlab::validate::Method;
use glam::Vec2;

#[path = "support/crowd.rs"]
mod crowd;
use crowd::{add_mirrored_walker, lattice_crowd};

/// Ticks measured per run.
const TICKS: usize = 300;
/// Ticks a world steps in one turn before the other takes over (a few milliseconds: this VM's
/// speed drifts by up to a third over seconds, and both worlds of a run then see the same drift).
const CHUNK: usize = 10;
/// Runs per method; the median ratio counts.
const RUNS: usize = 7;
/// Half the hallway's length and width (m).
const HALF_LENGTH: f32 = 20.0;
const HALF_WIDTH: f32 = 3.0;

/// The hallway: two walls along y = ±3 m from x = −20 to 20 m; each group is 5 rows of 20
/// walkers, 0.8 m apart along the hallway and 1.2 m across it, filling one end, each walker
/// heading for its point mirrored through the origin (at the other end).
fn hallway_scene(method: &Method) -> Scene {
    let mut scene = lattice_crowd(0);
    scene.bounds = Bounds {
        min: Vec2::new(-HALF_LENGTH - 2.0, -HALF_WIDTH - 2.0),
        max: Vec2::new(HALF_LENGTH + 2.0, HALF_WIDTH + 2.0),
    };
    let wall = |y: f32| Obstacle::Wall {
        a: Vec2::new(-HALF_LENGTH, y),
        b: Vec2::new(HALF_LENGTH, y),
    };
    scene.obstacles = vec![wall(-HALF_WIDTH), wall(HALF_WIDTH)];
    for i in 0..200 {
        let (group, k) = (i / 100, i % 100);
        let x = HALF_LENGTH - 0.5 - (k % 20) as f32 * 0.8;
        let y = (k / 20) as f32 * 1.2 - 2.4;
        let p = Vec2::new(if group == 0 { -x } else { x }, y);
        add_mirrored_walker(&mut scene, i, p, "walker", 0.3);
    }
    method.apply(&mut scene);
    scene
}

/// What one method's run measured.
struct Outcome {
    /// Time of its steps over the run.
    stepping: Duration,
    /// Time of ORCA's steps over the same run, interleaved with the method's.
    orca: Duration,
    arrived: usize,
    deepest_overlap: f32,
    checksum: u32,
}

/// Deepest overlap (m) between two present bodies.
fn deepest_overlap(bodies: &[Body]) -> f32 {
    let present: Vec<&Body> = bodies.iter().filter(|b| b.status.present()).collect();
    let mut deepest = 0.0f32;
    for (i, a) in present.iter().enumerate() {
        for b in &present[i + 1..] {
            deepest = deepest.max(a.radius + b.radius - a.position.distance(b.position));
        }
    }
    deepest
}

/// Runs the hallway with `method` for [`TICKS`] ticks on 1 thread, and with ORCA beside it: the
/// two worlds take turns every [`CHUNK`] ticks (each starting first in every other turn), so
/// that both see the machine at the same speed, and only the steps are timed.
fn run(method: &Method, orca: &Method) -> Outcome {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.install(|| {
        let mut world = World::new(Arc::new(hallway_scene(method)));
        let mut peer = World::new(Arc::new(hallway_scene(orca)));
        let (mut stepping, mut orca) = (Duration::ZERO, Duration::ZERO);
        let mut deepest = 0.0f32;
        let steps = |world: &mut World, deepest: &mut f32| {
            let mut spent = Duration::ZERO;
            for _ in 0..CHUNK {
                let t = Instant::now();
                world.step();
                spent += t.elapsed();
                *deepest = deepest.max(deepest_overlap(world.bodies()));
            }
            spent
        };
        for turn in 0..TICKS / CHUNK {
            if turn % 2 == 0 {
                stepping += steps(&mut world, &mut deepest);
                orca += steps(&mut peer, &mut 0.0);
            } else {
                orca += steps(&mut peer, &mut 0.0);
                stepping += steps(&mut world, &mut deepest);
            }
        }
        let mut crc = crc32fast::Hasher::new();
        for b in world.bodies() {
            crc.update(&b.position.x.to_le_bytes());
            crc.update(&b.position.y.to_le_bytes());
        }
        Outcome {
            stepping,
            orca,
            arrived: world.bodies().iter().filter(|b| b.status == Status::Arrived).count(),
            deepest_overlap: deepest,
            checksum: crc.finalize(),
        }
    })
}

/// The median of `values` (an odd count of them).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    println!(
        "| hallway, 200 walkers, first {TICKS} ticks, 1 thread | ms/tick (best run) | ORCA beside it (ms/tick, best run) | ratio to ORCA (median of {RUNS} runs) | ratio's range | arrived | deepest overlap (m) | final positions crc32 |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let orca = Method::parse("orca").expect("orca");
    for name in ["orca", "vo", "rvo", "clearpath", "brandejsky"] {
        if name != "orca" && !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let method = Method::parse(name).expect("a listed method");
        let outcomes: Vec<Outcome> = (0..RUNS).map(|_| run(&method, &orca)).collect();
        let mut ratios: Vec<f64> = outcomes
            .iter()
            .map(|o| o.stepping.as_secs_f64() / o.orca.as_secs_f64())
            .collect();
        let per_tick = |d: Duration| d.as_secs_f64() * 1e3 / TICKS as f64;
        let best = outcomes.iter().map(|o| per_tick(o.stepping)).fold(f64::MAX, f64::min);
        let orca_best = outcomes.iter().map(|o| per_tick(o.orca)).fold(f64::MAX, f64::min);
        let (low, high) = ratios
            .iter()
            .fold((f64::MAX, 0.0f64), |(l, h), &r| (l.min(r), h.max(r)));
        let last = &outcomes[RUNS - 1];
        println!(
            "| {name} | {best:.2} | {orca_best:.2} | {:.3} | {low:.3}–{high:.3} | {} | {:.3} | {:08x} |",
            median(&mut ratios),
            last.arrived,
            last.deepest_overlap,
            last.checksum
        );
    }
}
