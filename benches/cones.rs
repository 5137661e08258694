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
/// Runs per method; the fastest counts.
const RUNS: usize = 6;
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

/// What one run measured.
struct Outcome {
    per_tick: Duration,
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

/// Runs the hallway with `method` for [`TICKS`] ticks on 1 thread, timing the steps alone.
fn run(method: &Method) -> Outcome {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.install(|| {
        let mut world = World::new(Arc::new(hallway_scene(method)));
        let mut stepping = Duration::ZERO;
        let mut deepest = 0.0f32;
        for _ in 0..TICKS {
            let t = Instant::now();
            world.step();
            stepping += t.elapsed();
            deepest = deepest.max(deepest_overlap(world.bodies()));
        }
        let mut crc = crc32fast::Hasher::new();
        for b in world.bodies() {
            crc.update(&b.position.x.to_le_bytes());
            crc.update(&b.position.y.to_le_bytes());
        }
        Outcome {
            per_tick: stepping / TICKS as u32,
            arrived: world.bodies().iter().filter(|b| b.status == Status::Arrived).count(),
            deepest_overlap: deepest,
            checksum: crc.finalize(),
        }
    })
}

fn main() {
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    println!(
        "| hallway, 200 walkers, first {TICKS} ticks, 1 thread | ms/tick | ratio to ORCA | arrived | deepest overlap (m) | final positions crc32 |"
    );
    println!("|---|---|---|---|---|---|");
    let orca = Method::parse("orca").expect("orca");
    // ORCA's fastest run so far: each method's runs alternate with ORCA's, under the same load.
    let mut orca_best = Duration::MAX;
    for name in ["orca", "vo", "rvo", "clearpath", "brandejsky"] {
        if name != "orca" && !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let method = Method::parse(name).expect("a listed method");
        let mut out = run(&method);
        for _ in 1..RUNS {
            orca_best = orca_best.min(run(&orca).per_tick);
            out.per_tick = out.per_tick.min(run(&method).per_tick);
        }
        if name == "orca" {
            orca_best = orca_best.min(out.per_tick);
        }
        let ms = out.per_tick.as_secs_f64() * 1e3;
        println!(
            "| {name} | {ms:.2} | {:.2} | {} | {:.3} | {:08x} |",
            ms / (orca_best.as_secs_f64() * 1e3),
            out.arrived,
            out.deepest_overlap,
            out.checksum
        );
    }
}
