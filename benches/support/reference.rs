//! The machine-speed reference: `dodgy_2d` (an RVO2 port) crossing RVO2's Circle with 1,000
//! agents. The speed targets were set on a day when RVO2 itself took 0.9 µs per
//! agent-tick there, and `dodgy_2d` measures within 5 % of RVO2; on the VM the benches run on,
//! the same work has taken from 0.8 to 1.5 µs from one day (or minute) to the next. A bench that
//! reports an absolute time also steps this reference in the same run and prints its time
//! scaled to the reference machine: its own time × [`REFERENCE_US`] / the reference's.
//! (Needs `support/turns.rs` as the bench's `turns` module.)

use std::borrow::Cow;
use std::collections::HashMap;
use std::f32::consts::TAU;
use std::time::{Duration, Instant};

use glam::Vec2;

use crate::turns::Stepper;

/// `dodgy_2d`'s microseconds per agent-tick on Circle 1,000 on the reference machine: RVO2's
/// 0.9 µs there, the figure the table gives.
pub const REFERENCE_US: f64 = 0.9;

/// Agents of the reference crossing.
const REFERENCE_AGENTS: usize = 1000;

/// RVO2's Circle parameters.
pub const RADIUS: f32 = 1.5;
const MAX_SPEED: f32 = 2.0;
const NEIGHBOR_DIST: f32 = 15.0;
const MAX_NEIGHBORS: usize = 10;
const TIME_HORIZON: f32 = 10.0;
const DT: f32 = 0.25;

/// Where agent `i` of `n` starts: evenly on a circle wide enough for 4 m between neighbours
/// (RVO2's 200 m for 250 agents).
pub fn start(i: usize, n: usize) -> Vec2 {
    let circle = (n as f32 * 4.0 / TAU).max(200.0);
    Vec2::from_angle(i as f32 * TAU / n as f32) * circle
}

/// Ticks of a whole crossing of the circle with `n` agents: the ring contracts, jams in the
/// centre and spreads out again.
pub fn crossing_ticks(n: usize) -> usize {
    (2.0 * start(0, n).x / MAX_SPEED / DT) as usize + 100
}

/// The Circle with `n` agents in `dodgy_2d` as a stepper: what RVO2's `doStep` does — neighbours
/// from a uniform grid (the 10 nearest within 15 m), ORCA, integration.
pub fn dodgy_circle(n: usize) -> Stepper<'static> {
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
    let mut grid: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
    let mut near: Vec<(f32, usize)> = Vec::new();
    let mut velocities = vec![dodgy_2d::Vec2::ZERO; n];
    Box::new(move |ticks| {
        let t = Instant::now();
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
                let neighbours: Vec<Cow<dodgy_2d::Agent>> =
                    near.iter().map(|&(_, j)| Cow::Borrowed(&agents[j])).collect();
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
        t.elapsed()
    })
}

/// The reference crossing as a stepper that takes turns beside a bench's own work of
/// `outer_ticks` ticks: asked for its share of those, it steps the same share of the whole
/// crossing, so that both end together.
pub fn reference_beside(outer_ticks: usize) -> Stepper<'static> {
    let inner_ticks = crossing_ticks(REFERENCE_AGENTS);
    let mut reference = dodgy_circle(REFERENCE_AGENTS);
    let mut done = 0;
    Box::new(move |ticks| {
        let (from, to) = (
            done * inner_ticks / outer_ticks,
            (done + ticks) * inner_ticks / outer_ticks,
        );
        done += ticks;
        reference(to - from)
    })
}

/// The reference's microseconds per agent-tick from its time over a whole crossing.
pub fn reference_us(crossing: Duration) -> f64 {
    crossing.as_secs_f64() * 1e6 / (crossing_ticks(REFERENCE_AGENTS) * REFERENCE_AGENTS) as f64
}

/// The scale that turns a ratio (the bench's time over `ticks` ticks) / (the reference's time
/// over a whole crossing) into the bench's milliseconds per tick on the reference machine.
pub fn to_reference_ms(ticks: usize) -> f64 {
    REFERENCE_US * 1e-3 * (crossing_ticks(REFERENCE_AGENTS) * REFERENCE_AGENTS) as f64 / ticks as f64
}
