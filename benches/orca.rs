//! ORCA against its in-repo peer, `dodgy_2d` (an RVO2 port), on RVO2's Circle: the same agents,
//! parameters and ticks in the same process, run alternately, reporting microseconds per
//! agent-tick of the step alone and the ratio crowdlab / dodgy_2d (issue target: ≤ 0.75 on
//! Circle 1,000), plus crowdlab's speed-up on 2 threads beside the machine's ceiling for it (two
//! 1-thread runs at once; see `support/ceiling.rs`).
//!
//! The peer gets what RVO2's `doStep` does: neighbours from a uniform grid (the 10 nearest within
//! 15 m), ORCA, integration. crowdlab's step does more — minds, preferred velocity, the recorded
//! frame with its contact check — so the comparison is conservative.
//!
//! Run: `cargo bench --no-default-features --bench orca` (prints a table; not a criterion group,
//! since one whole crossing of the circle, thousands of ticks, is already the measurement).
//! Agent counts given after `--` run only those rows: `... --bench orca -- 1000`; `2` runs only
//! the bottleneck row (1,000 walkers through a 2 m gap between 2 blocks, crowdlab alone).

use std::borrow::Cow;
use std::collections::HashMap;
use std::f32::consts::TAU;
use std::sync::Arc;
use std::time::Instant;

use crowdlab::scene::{Bounds, Obstacle, Scene, load_scene};
use crowdlab::sim::World;
use crowdlab::validate::Method;
use glam::Vec2;

#[path = "support/ceiling.rs"]
mod ceiling;
#[path = "support/crowd.rs"]
mod crowd;
use ceiling::slower_of_two_at_once;
use crowd::{add_mirrored_walker, lattice_crowd};

/// RVO2's Circle parameters.
const RADIUS: f32 = 1.5;
const MAX_SPEED: f32 = 2.0;
const NEIGHBOR_DIST: f32 = 15.0;
const MAX_NEIGHBORS: usize = 10;
const TIME_HORIZON: f32 = 10.0;
const DT: f32 = 0.25;

/// Where agent `i` of `n` starts: evenly on a circle wide enough for 4 m between neighbours
/// (RVO2's 200 m for 250 agents).
fn start(i: usize, n: usize) -> Vec2 {
    let circle = (n as f32 * 4.0 / TAU).max(200.0);
    Vec2::from_angle(i as f32 * TAU / n as f32) * circle
}

/// The bundled ORCA Circle scene with `n` agents.
fn circle_scene(n: usize) -> Scene {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/orca_circle.ron");
    let mut scene = load_scene(&path).expect("bundled scene");
    let half = start(0, n).x + 10.0;
    scene.bounds = Bounds {
        min: Vec2::splat(-half),
        max: Vec2::splat(half),
    };
    scene.agents.clear();
    scene.targets.clear();
    for i in 0..n {
        add_mirrored_walker(&mut scene, i, start(i, n), "orca", RADIUS);
    }
    scene
}

/// Seconds per tick of crowdlab's `World::step` over `ticks` ticks on `threads` threads.
fn crowdlab_run(n: usize, ticks: usize, threads: usize) -> f64 {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let mut world = World::new(Arc::new(circle_scene(n)));
        let t = Instant::now();
        for _ in 0..ticks {
            world.step();
        }
        t.elapsed().as_secs_f64() / ticks as f64
    })
}

/// Seconds per tick of the same Circle with dodgy_2d: grid neighbours, ORCA, integration.
fn dodgy_run(n: usize, ticks: usize) -> f64 {
    let to_dodgy = |v: Vec2| dodgy_2d::Vec2::new(v.x, v.y);
    let mut agents: Vec<dodgy_2d::Agent> = (0..n)
        .map(|i| dodgy_2d::Agent {
            position: to_dodgy(start(i, n)),
            velocity: dodgy_2d::Vec2::ZERO,
            radius: RADIUS,
            avoidance_responsibility: 1.0,
        })
        .collect();
    let goals: Vec<dodgy_2d::Vec2> = (0..n).map(|i| to_dodgy(-start(i, n))).collect();
    let options = dodgy_2d::AvoidanceOptions {
        obstacle_margin: 0.0,
        time_horizon: TIME_HORIZON,
        obstacle_time_horizon: TIME_HORIZON,
    };
    let cell = |p: dodgy_2d::Vec2| {
        (
            (p.x / NEIGHBOR_DIST).floor() as i32,
            (p.y / NEIGHBOR_DIST).floor() as i32,
        )
    };
    let t = Instant::now();
    let mut grid: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
    let mut near: Vec<(f32, usize)> = Vec::new();
    let mut velocities = vec![dodgy_2d::Vec2::ZERO; n];
    for _ in 0..ticks {
        grid.values_mut().for_each(Vec::clear);
        for (i, a) in agents.iter().enumerate() {
            grid.entry(cell(a.position)).or_default().push(i);
        }
        for (i, a) in agents.iter().enumerate() {
            near.clear();
            let (cx, cy) = cell(a.position);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for &j in grid.get(&(cx + dx, cy + dy)).map_or(&[][..], Vec::as_slice) {
                        let d = agents[j].position.distance_squared(a.position);
                        if j != i && d < NEIGHBOR_DIST * NEIGHBOR_DIST {
                            near.push((d, j));
                        }
                    }
                }
            }
            near.sort_by(|x, y| x.0.total_cmp(&y.0));
            near.truncate(MAX_NEIGHBORS);
            let neighbours: Vec<Cow<dodgy_2d::Agent>> = near.iter().map(|&(_, j)| Cow::Borrowed(&agents[j])).collect();
            let to_goal = goals[i] - a.position;
            let preferred = if to_goal.length_squared() > 1.0 {
                to_goal.normalize()
            } else {
                to_goal
            };
            velocities[i] = a.compute_avoiding_velocity(&neighbours, &[], preferred, MAX_SPEED, DT, &options);
        }
        for (a, v) in agents.iter_mut().zip(&velocities) {
            a.velocity = *v;
            a.position += *v * DT;
        }
    }
    t.elapsed().as_secs_f64() / ticks as f64
}

/// The bottleneck row: the 1,000-walker lattice crowd moved 20 m to the west, each walker
/// heading for its point mirrored through the origin, with ORCA's pedestrian settings
/// (`--method orca`) and two blocks leaving a 2 m gap at the origin between them.
fn bottleneck_scene() -> Scene {
    let mut scene = lattice_crowd(1000);
    for agent in &mut scene.agents {
        agent.position.x -= 20.0;
    }
    for target in &mut scene.targets {
        target.position.x += 20.0;
    }
    scene.bounds = Bounds {
        min: Vec2::splat(-45.0),
        max: Vec2::splat(45.0),
    };
    let block = |y0: f32, y1: f32| Obstacle::Polygon {
        vertices: vec![
            Vec2::new(-1.0, y0),
            Vec2::new(1.0, y0),
            Vec2::new(1.0, y1),
            Vec2::new(-1.0, y1),
        ],
    };
    scene.obstacles = vec![block(1.0, 40.0), block(-40.0, -1.0)];
    Method::parse("orca").expect("orca").apply(&mut scene);
    scene
}

/// Milliseconds per tick of the first `ticks` ticks of the bottleneck on `threads` threads.
fn bottleneck_run(ticks: usize, threads: usize) -> f64 {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        let mut world = World::new(Arc::new(bottleneck_scene()));
        let t = Instant::now();
        for _ in 0..ticks {
            world.step();
        }
        t.elapsed().as_secs_f64() * 1e3 / ticks as f64
    })
}

fn main() {
    println!(
        "| ORCA Circle | crowdlab 1 thread (µs/agent-tick) | dodgy_2d (µs/agent-tick) | ratio | crowdlab 2 threads vs 1 | machine's ceiling (two 1-thread runs at once) |"
    );
    println!("|---|---|---|---|---|---|");
    let only: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    // Each figure is the best of `reps` runs in turn (a run of 5,000 crosses 12,832 ticks, half a
    // minute on 1 thread; one run alone was at the mercy of one disturbance).
    for (n, reps) in [(250, 3), (1000, 4), (5000, 2)] {
        if !only.is_empty() && !only.contains(&n) {
            continue;
        }
        // The whole crossing: the ring contracts, jams in the centre and spreads out again.
        let ticks = (2.0 * start(0, n).x / MAX_SPEED / DT) as usize + 100;
        let (mut ours, mut peer, mut two, mut pair) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
        for _ in 0..reps {
            ours = ours.min(crowdlab_run(n, ticks, 1));
            peer = peer.min(dodgy_run(n, ticks));
            two = two.min(crowdlab_run(n, ticks, 2));
            pair = pair.min(slower_of_two_at_once(|| crowdlab_run(n, ticks, 1)));
        }
        let per_agent = |s: f64| s * 1e6 / n as f64;
        println!(
            "| {n} agents, {ticks} ticks | {:.2} | {:.2} | {:.2} | {:.2}x | {:.2}x |",
            per_agent(ours),
            per_agent(peer),
            ours / peer,
            ours / two,
            2.0 * ours / pair
        );
    }
    if only.is_empty() || only.contains(&2) {
        let ticks = 300;
        let (one, two) = (bottleneck_run(ticks, 1), bottleneck_run(ticks, 2));
        println!();
        println!(
            "| ORCA bottleneck, 1,000 walkers, 2 blocks, first {ticks} ticks | 1 thread (ms/tick) | 2 threads (ms/tick) |"
        );
        println!("|---|---|---|");
        println!("| crowdlab | {one:.2} | {two:.2} |");
    }
}
