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

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crowdlab::scene::{Bounds, Obstacle, Scene};
use crowdlab::sim::{Body, Status, World};
use crowdlab::validate::Method;
use glam::Vec2;

#[path = "support/crowd.rs"]
mod crowd;
#[path = "support/turns.rs"]
mod turns;
use crowd::{add_mirrored_walker, lattice_crowd};
use turns::{Runs, pool, take_turns, watched_world_on, world_on};

/// Ticks measured per run.
const TICKS: usize = 300;
/// Ticks a world steps in one turn before the other takes over (a few milliseconds, see
/// `support/turns.rs`).
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

/// What a run showed of the method's world: after its last tick, and the deepest overlap over all
/// its ticks.
#[derive(Default)]
struct Seen {
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

/// Runs the hallway with `method` and with ORCA for [`TICKS`] ticks each on 1 thread, in turns
/// of [`CHUNK`] ticks; returns the method's time and ORCA's, and what the method's world showed.
fn run(method: &Method, orca: &Method) -> (Vec<Duration>, Seen) {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let watching = Arc::clone(&seen);
    let watch = move |world: &World| {
        let mut seen = watching.lock().unwrap();
        let bodies = world.bodies();
        seen.deepest_overlap = seen.deepest_overlap.max(deepest_overlap(bodies));
        seen.arrived = bodies.iter().filter(|b| b.status == Status::Arrived).count();
        let mut crc = crc32fast::Hasher::new();
        for b in bodies {
            crc.update(&b.position.x.to_le_bytes());
            crc.update(&b.position.y.to_le_bytes());
        }
        seen.checksum = crc.finalize();
    };
    let one = pool(1);
    let mut steppers = [
        watched_world_on(&one, &Arc::new(hallway_scene(method)), 0, watch),
        world_on(&one, &Arc::new(hallway_scene(orca)), 0),
    ];
    let spent = take_turns(&mut steppers, TICKS, CHUNK);
    drop(steppers);
    let seen = Arc::into_inner(seen).unwrap().into_inner().unwrap();
    (spent, seen)
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
        let (spent, seen): (Vec<Vec<Duration>>, Vec<Seen>) = (0..RUNS).map(|_| run(&method, &orca)).unzip();
        let runs = Runs(spent);
        let per_tick = |k: usize| runs.fastest(k).as_secs_f64() * 1e3 / TICKS as f64;
        let (ratio, low, high) = runs.ratio(0, 1, 1.0);
        let last = &seen[RUNS - 1];
        println!(
            "| {name} | {:.2} | {:.2} | {ratio:.3} | {low:.3}–{high:.3} | {} | {:.3} | {:08x} |",
            per_tick(0),
            per_tick(1),
            last.arrived,
            last.deepest_overlap,
            last.checksum
        );
    }
}
