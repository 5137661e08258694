//! Scenario tests of Buckland's demos bundled under `scenes/buckland_*.ron`: each runs headless
//! and asserts what the demo shows (a cohesive shoal, an untouched obstacle course, a wall kept at
//! a steady distance, a hider out of sight, a V formation holding its slots).

use std::path::Path;
use std::sync::Arc;

use glam::Vec2;

use crowdlab::geom::distance_to_segment;
use crowdlab::record::Frame;
use crowdlab::scene::{Obstacle, Scene, load_scene};
use crowdlab::sim::penetration_depth;
use crowdlab::sim::run::{RunLimit, run_scene};

fn scene(name: &str) -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)).unwrap()
}

fn run(scene: &Scene) -> Vec<Frame> {
    let mut frames = Vec::new();
    run_scene(Arc::new(scene.clone()), RunLimit::default(), &mut frames, |_, _| {}).unwrap();
    frames
}

/// The smallest gap (m) between any agent's body and any obstacle over the run (< 0 = contact).
fn obstacle_clearance(scene: &Scene, frames: &[Frame]) -> f32 {
    let mut min = f32::INFINITY;
    for f in frames {
        for a in &f.agents {
            let r = scene.profiles[a.profile as usize].radius;
            for o in &scene.obstacles {
                min = min.min(-penetration_depth(o, a.position, r, f.time));
            }
        }
    }
    min
}

/// Sizes of the groups of `points` linked by distances below `link`, largest first.
fn schools(points: &[Vec2], link: f32) -> Vec<usize> {
    let mut root: Vec<usize> = (0..points.len()).collect();
    fn find(root: &mut [usize], mut i: usize) -> usize {
        while root[i] != i {
            root[i] = root[root[i]];
            i = root[i];
        }
        i
    }
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            if points[i].distance(points[j]) < link {
                let (a, b) = (find(&mut root, i), find(&mut root, j));
                root[a] = b;
            }
        }
    }
    let mut sizes = vec![0; points.len()];
    for i in 0..points.len() {
        sizes[find(&mut root, i)] += 1;
    }
    sizes.retain(|&s| s > 0);
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

#[test]
fn big_shoal_swims_in_schools_without_loners_or_overlaps() {
    let scene = scene("buckland_big_shoal.ron");
    let frames = run(&scene);
    assert_eq!(frames[0].agents.len(), 301, "300 fish and the shark");
    let (mut scattered, mut deepest) = (0.0f32, 0.0f32);
    for f in frames.iter().filter(|f| f.time >= 5.0).step_by(10) {
        let fish: Vec<Vec2> = f.agents.iter().filter(|a| a.id != 0).map(|a| a.position).collect();
        let sizes = schools(&fish, 2.0);
        let in_schools: usize = sizes.iter().filter(|&&s| s >= 5).sum();
        scattered = scattered.max(1.0 - in_schools as f32 / fish.len() as f32);
        for (i, p) in fish.iter().enumerate() {
            for q in &fish[i + 1..] {
                deepest = deepest.max(0.3 - p.distance(*q));
            }
        }
    }
    let last: Vec<Vec2> = frames
        .last()
        .unwrap()
        .agents
        .iter()
        .filter(|a| a.id != 0)
        .map(|a| a.position)
        .collect();
    println!(
        "at worst {:.1} % of the fish outside a school of 5+, deepest overlap {deepest:.3} m, schools at the end {:?}",
        scattered * 100.0,
        schools(&last, 2.0)
    );
    assert!(
        scattered <= 0.1,
        "{} % of the fish swim alone or in twos to fours",
        scattered * 100.0
    );
    assert!(deepest <= 0.01, "two fish (0.15 m radius) overlap by {deepest} m");
    // Every body stays in the tank (see `big_shoal_never_loses_a_fish_through_a_corner`).
    let clearance = obstacle_clearance(&scene, &frames);
    let beyond = farthest_beyond_the_tank(&frames);
    println!("tank clearance {clearance:.2} m, centres at most {beyond:.3} m beyond the wall");
    assert!(beyond < 0.0, "a body's centre is {beyond} m outside the tank");
}

/// How far (m) the centre farthest outside Big Shoal's 40 m tank got over the run (< 0: inside).
fn farthest_beyond_the_tank(frames: &[Frame]) -> f32 {
    frames
        .iter()
        .flat_map(|f| &f.agents)
        .map(|a| a.position.x.abs().max(a.position.y.abs()) - 20.0)
        .fold(f32::MIN, f32::max)
}

#[test]
fn big_shoal_never_loses_a_fish_through_a_corner() {
    // The walls are felt only by the feelers ahead (Buckland's wall avoidance steers), so a fish
    // pressed into a corner by its school may touch a wall, and before walls were solid a fish or
    // the shark slipped out through a corner in 14 of seeds 1–36 with the non-penetration
    // constraint and 7 without (seeds 2 and 4 both ways, 13 with it). Those runs keep every
    // centre inside now, as do all 36 seeds both ways.
    for (seed, non_penetration) in [(2, true), (13, true), (4, false)] {
        let mut scene = scene("buckland_big_shoal.ron");
        scene.settings.seed = seed;
        scene.settings.non_penetration = non_penetration;
        let beyond = farthest_beyond_the_tank(&run(&scene));
        assert!(
            beyond < 0.0,
            "seed {seed}, non-penetration {non_penetration}: a centre got {beyond} m beyond the wall"
        );
    }
}

#[test]
fn obstacle_course_vehicles_never_touch_an_obstacle_or_a_wall() {
    let scene = scene("buckland_obstacle_course.ron");
    let frames = run(&scene);
    let clearance = obstacle_clearance(&scene, &frames);
    let travelled: f32 = (0..8)
        .map(|id| {
            frames
                .windows(2)
                .map(|w| {
                    w[1].agent(id)
                        .unwrap()
                        .position
                        .distance(w[0].agent(id).unwrap().position)
                })
                .sum::<f32>()
        })
        .fold(f32::INFINITY, f32::min);
    println!("clearance {clearance:.2} m; the least travelled vehicle covered {travelled:.1} m");
    assert!(travelled > 40.0, "every vehicle roams the course ({travelled} m)");
    assert!(
        clearance > 0.0,
        "a vehicle touches an obstacle or a wall: clearance {clearance} m"
    );
}

#[test]
fn wall_follower_laps_the_block_within_a_band_of_its_walls() {
    let scene = scene("buckland_wall_following.ron");
    let frames = run(&scene);
    let block = &scene.obstacles[0];
    let centre = Vec2::new(14.0, 9.0);
    let mut swept = 0.0f32;
    let (mut near, mut far) = (f32::INFINITY, 0.0f32);
    for w in frames.windows(2) {
        let (a, b) = (w[0].agent(0).unwrap().position, w[1].agent(0).unwrap().position);
        swept += (a - centre).angle_to(b - centre);
        let gap = -penetration_depth(block, b, 0.0, w[1].time);
        near = near.min(gap);
        far = far.max(gap);
    }
    let laps = swept.abs() / std::f32::consts::TAU;
    println!("{laps:.2} laps, the wall {near:.2}–{far:.2} m from the centre");
    assert!(laps >= 2.0, "only {laps} laps round the block");
    assert!(
        near >= 0.4 && far <= 2.0,
        "the wall came {near}–{far} m from the walker's centre"
    );
}

/// True when the segment `a`–`b` passes through an obstacle circle.
fn blocked(obstacles: &[Obstacle], a: Vec2, b: Vec2) -> bool {
    obstacles.iter().any(|o| match o {
        Obstacle::Circle { center, radius } => distance_to_segment(*center, a, b) < *radius,
        _ => false,
    })
}

#[test]
fn hider_keeps_an_obstacle_between_itself_and_the_hunter() {
    let scene = scene("buckland_hide.ron");
    let frames = run(&scene);
    let settled: Vec<&Frame> = frames.iter().filter(|f| f.time >= 5.0).collect();
    let hidden = settled
        .iter()
        .filter(|f| {
            blocked(
                &scene.obstacles,
                f.agent(0).unwrap().position,
                f.agent(1).unwrap().position,
            )
        })
        .count() as f32
        / settled.len() as f32;
    let clearance = obstacle_clearance(&scene, &frames);
    println!("hidden {:.0} % of the time, clearance {clearance:.2} m", hidden * 100.0);
    assert!(hidden >= 0.75, "hidden only {} % of the time", hidden * 100.0);
    assert!(clearance > 0.0, "the hider or the hunter touches an obstacle");
}

#[test]
fn v_formation_followers_hold_their_slots_after_settling() {
    let scene = scene("buckland_offset_pursuit_v.ron");
    let frames = run(&scene);
    let slots = [
        (1, Vec2::new(-1.5, 1.5)),
        (2, Vec2::new(-1.5, -1.5)),
        (3, Vec2::new(-3.0, 3.0)),
        (4, Vec2::new(-3.0, -3.0)),
    ];
    let mut errors: Vec<f32> = Vec::new();
    let mut worst = 0.0f32;
    for f in frames.iter().filter(|f| f.time >= 15.0) {
        let leader = f.agent(0).unwrap();
        let facing = leader.heading;
        for (id, offset) in slots {
            let slot = leader.position + facing * offset.x + facing.perp() * offset.y;
            let e = f.agent(id).unwrap().position.distance(slot);
            errors.push(e);
            worst = worst.max(e);
        }
    }
    errors.sort_by(f32::total_cmp);
    let p90 = errors[errors.len() * 9 / 10];
    let median = errors[errors.len() / 2];
    println!("slot error: median {median:.2} m, 90th percentile {p90:.2} m, worst {worst:.2} m");
    assert!(median <= 0.3, "median slot error {median} m");
    assert!(
        p90 <= 1.5,
        "90th percentile slot error {p90} m (the corners of the loop)"
    );
    assert!(worst <= 3.0, "a follower loses the formation: {worst} m from its slot");
}
