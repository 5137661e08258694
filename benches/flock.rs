//! Flocking speed (issue 19, row "flocking"): the bundled 10,000-fish shoal
//! (`scenes/flock_10000.ron`: separation, alignment, cohesion and wander on the neighbour grid),
//! milliseconds per tick of `World::step` — think, decide, apply and the recorded frame with its
//! contact check, all that `crowdlab run` times per tick — on 1 and on 2 threads, and the
//! 2-thread speed-up (issue target: ≤ 3 ms/tick on 1 thread, ≥ 1.8× on 2).
//!
//! Each run builds a 1-thread world, a 2-thread world and two 1-thread worlds stepped at once
//! (the speed-up the machine gives two independent jobs, which bounds the 2-thread one: on a VM
//! whose two cores share a physical one it is far below 2), steps each `WARM_UP` ticks untimed,
//! then `TICKS` ticks in turns of `CHUNK` (so that all three see the machine at the same speed,
//! see `support/turns.rs`). Of `REPS` runs, the table shows the fastest 1- and 2-thread times and
//! the median speed-up and ceiling with their ranges. The machine-speed reference (`dodgy_2d`
//! crossing RVO2's Circle with 1,000 agents, `support/reference.rs`) takes its turns beside
//! them, and the last columns give its time and the 1-thread time scaled to the machine the
//! issue's targets were set on.
//!
//! A second table splits the 2-thread speed-up by where the host put the two CPUs, turn by turn:
//! each 2-thread turn after a hand-off of a cache line between its workers is timed (near: a
//! shared cache; far: another die or socket; see `support/placement.rs`), and its time is set
//! against the 1-thread turn of the same round.
//!
//! A third table times 2-thread ticks stepped one at a time after a pause as long as a tick
//! lasts in the window at 1x: with the workers pinned to a CPU each (as crowdlab runs them) and
//! free, in turns (see `crowdlab::workers`).
//!
//! Run: `cargo bench --no-default-features --bench flock` (prints the tables; not a criterion
//! group, since one 200-tick run is already the measurement). `-- 1` runs only the 1-thread
//! world and `-- 2` only the 2-thread one, for profiling either alone.

use std::sync::Arc;
use std::time::Duration;

use crowdlab::scene::{Scene, load_scene};
use crowdlab::workers::{Pinning, pool_builder};

#[path = "support/ceiling.rs"]
mod ceiling;
#[path = "support/placement.rs"]
mod placement;
#[path = "support/reference.rs"]
mod reference;
#[path = "support/turns.rs"]
mod turns;
use ceiling::two_at_once;
use placement::{NEAR_BELOW, TurnLog, speed_up_by_placement};
use reference::{reference_beside, reference_us, to_reference_ms};
use turns::{Runs, pool, take_turns, world_on};

/// Ticks stepped before timing (the shoal starts on a lattice and settles into motion).
const WARM_UP: usize = 10;
/// Ticks timed per run.
const TICKS: usize = 200;
/// Ticks per turn (about a tenth of a second, as in the ORCA bench).
const CHUNK: usize = 20;
/// Runs.
const REPS: usize = 5;
/// Ticks of each world in the paced table.
const PACED_TICKS: usize = 41;
/// The pause before each paced tick: a tick's wall time in the window at 1x (dt = 0.1 s).
const PACE: Duration = Duration::from_millis(100);

/// The bundled 10,000-fish scene.
fn shoal() -> Arc<Scene> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/flock_10000.ron");
    Arc::new(load_scene(&path).expect("bundled scene"))
}

fn main() {
    let scene = shoal();
    let only: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    println!(
        "| Flocking 10,000 agents, {TICKS} ticks | 1 thread (ms/tick, best run) | 2 threads (ms/tick, best run) | speed-up (median of {REPS} runs, range) | machine's ceiling (two 1-thread worlds at once; median, range) | reference: `dodgy_2d` Circle 1,000 (µs/agent-tick, best run) | 1 thread on the reference machine (ms/tick, median, range) |"
    );
    println!("|---|---|---|---|---|---|---|");
    let ms = |spent: std::time::Duration| spent.as_secs_f64() * 1e3 / TICKS as f64;
    if let [threads @ (1 | 2)] = only[..] {
        // One world alone on 1 or 2 threads, for profiling.
        let best = (0..REPS)
            .map(|_| ms(take_turns(&mut [world_on(&pool(threads), &scene, WARM_UP)], TICKS, TICKS)[0]))
            .fold(f64::MAX, f64::min);
        let (one, two) = if threads == 1 {
            (format!("{best:.2}"), String::new())
        } else {
            (String::new(), format!("{best:.2}"))
        };
        println!("| crowdlab | {one} | {two} | | | | |");
        return;
    }
    let (one, other, two) = (pool(1), pool(1), pool(2));
    let (one_log, two_log) = (TurnLog::default(), TurnLog::default());
    let runs = Runs(
        (0..REPS)
            .map(|_| {
                let mut steppers = [
                    one_log.logged(world_on(&one, &scene, WARM_UP), None),
                    two_log.logged(world_on(&two, &scene, WARM_UP), Some(Arc::clone(&two))),
                    two_at_once([&one, &other], &scene, WARM_UP),
                    reference_beside(TICKS),
                ];
                take_turns(&mut steppers, TICKS, CHUNK)
            })
            .collect(),
    );
    let (speed_up, s_low, s_high) = runs.ratio(0, 1, 1.0);
    let (ceiling, c_low, c_high) = runs.ratio(0, 2, 2.0);
    let (scaled, r_low, r_high) = runs.ratio(0, 3, to_reference_ms(TICKS));
    println!(
        "| crowdlab | {:.2} | {:.2} | {speed_up:.2}x ({s_low:.2}–{s_high:.2}) | {ceiling:.2}x ({c_low:.2}–{c_high:.2}) | {:.2} | {scaled:.2} ({r_low:.2}–{r_high:.2}) |",
        ms(runs.fastest(0)),
        ms(runs.fastest(1)),
        reference_us(runs.fastest(3)),
    );
    let [near, far] = speed_up_by_placement(&one_log.turns(), &two_log.turns());
    println!();
    println!(
        "| 2 threads vs 1, turn by turn, by where the host put the two CPUs | near: hand-off under {} ns (median, range) | far |",
        NEAR_BELOW.as_nanos()
    );
    println!("|---|---|---|");
    println!("| crowdlab | {near} | {far} |");
    paced(&scene);
}

/// Prints the median time of a 2-thread tick stepped after a pause of [`PACE`], with pinned and
/// with free workers, the two worlds taking their ticks in turn.
fn paced(scene: &Arc<Scene>) {
    let pool = |pinning| Arc::new(pool_builder(Some(2), pinning).build().unwrap());
    let mut steppers = [
        world_on(&pool(Pinning::Pinned), scene, WARM_UP),
        world_on(&pool(Pinning::Free), scene, WARM_UP),
    ];
    let mut ticks = [Vec::new(), Vec::new()];
    for _ in 0..PACED_TICKS {
        for (stepper, ticks) in steppers.iter_mut().zip(&mut ticks) {
            std::thread::sleep(PACE);
            ticks.push(stepper(1).as_secs_f64() * 1e3);
        }
    }
    let median = |ticks: &mut Vec<f64>| {
        ticks.sort_by(f64::total_cmp);
        ticks[ticks.len() / 2]
    };
    println!();
    println!(
        "| 2 threads, one tick every {} ms ({PACED_TICKS} ticks each, in turns) | workers pinned (ms/tick, median) | workers free (ms/tick, median) |",
        PACE.as_millis()
    );
    println!("|---|---|---|");
    println!(
        "| crowdlab | {:.2} | {:.2} |",
        median(&mut ticks[0]),
        median(&mut ticks[1])
    );
}
