//! Scenario tests of the avoidance layer on the bundled scenes: RVO2's Circle and Blocks with
//! ORCA, Brandejský's IndAlgoTest experiments, and determinism across thread counts.

use std::sync::Arc;

use crowdlab::record::{ContactWith, Frame, Metrics, RecordingHeader};
use crowdlab::scene::{Scene, load_scene};
use crowdlab::sim::World;
use crowdlab::sim::run::{RunLimit, RunSink, run_scene};

/// A sink that keeps nothing (the metrics come from `run_scene`).
struct Discard;

impl RunSink for Discard {
    type Error = std::convert::Infallible;
    fn begin(&mut self, _: &RecordingHeader) -> Result<(), Self::Error> {
        Ok(())
    }
    fn frame(&mut self, _: &Frame) -> Result<(), Self::Error> {
        Ok(())
    }
}

fn bundled(name: &str) -> Scene {
    load_scene(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenes/{name}.ron")))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn run(scene: Scene) -> Metrics {
    run_scene(Arc::new(scene), RunLimit::default(), &mut Discard, |_, _| {}).unwrap()
}

fn assert_all_arrive_without_contact(name: &str) {
    let m = run(bundled(name));
    let s = &m.summary;
    assert_eq!(
        s.collisions, 0,
        "{name}: {} contacts, deepest {} m",
        s.collisions, s.max_penetration
    );
    assert_eq!(
        s.agents_reached, s.agents,
        "{name}: {} of {} arrived in {} ticks",
        s.agents_reached, s.agents, s.ticks
    );
}

/// Runs a bundled ORCA scene and returns (agents arrived, agents, agent–agent contact episodes,
/// agent–obstacle contacts, deepest agent–agent overlap).
fn orca_outcome(name: &str) -> (usize, usize, u32, usize, f32) {
    struct Contacts {
        with_obstacles: usize,
        deepest: f32,
    }
    impl RunSink for Contacts {
        type Error = std::convert::Infallible;
        fn begin(&mut self, _: &RecordingHeader) -> Result<(), Self::Error> {
            Ok(())
        }
        fn frame(&mut self, frame: &Frame) -> Result<(), Self::Error> {
            for c in &frame.contacts {
                match c.with {
                    ContactWith::Obstacle(_) => self.with_obstacles += 1,
                    ContactWith::Agent(_) => self.deepest = self.deepest.max(c.depth),
                }
            }
            Ok(())
        }
    }
    let mut sink = Contacts {
        with_obstacles: 0,
        deepest: 0.0,
    };
    let m = run_scene(Arc::new(bundled(name)), RunLimit::default(), &mut sink, |_, _| {}).unwrap();
    let s = &m.summary;
    (
        s.agents_reached,
        s.agents,
        s.collisions,
        sink.with_obstacles,
        sink.deepest,
    )
}

// RVO2's ORCA gives up its guarantee when a linear program is infeasible (the 3-D fallback
// minimises the largest violation), which happens in the dense centre of Circle and in the
// Blocks crossing: RVO2 ports overlap there too (dodgy_2d, an RVO2 port, reaches 0.75 m on
// Circle-250 with the same neighbour selection). So these tests assert what the method does
// guarantee — every agent arrives, obstacle lines are never violated — and bound the overlaps
// the crowd produces in the jam; zero agent–agent contacts is not reached (see docs/avoidance.md).
#[test]
fn orca_circle_250_every_agent_arrives_with_shallow_overlaps_only() {
    let (arrived, agents, _, _, deepest) = orca_outcome("orca_circle");
    assert_eq!((arrived, agents), (250, 250));
    assert!(deepest < 0.75, "deepest overlap {deepest} m is above dodgy_2d's 0.75 m");
}

#[test]
fn orca_blocks_every_agent_arrives_and_never_enters_a_block() {
    let (arrived, agents, _, with_obstacles, deepest) = orca_outcome("orca_blocks");
    assert_eq!((arrived, agents), (100, 100));
    assert_eq!(with_obstacles, 0, "agent–obstacle contacts");
    assert!(deepest < 1.0, "deepest agent–agent overlap {deepest} m (radius 2 m)");
}

#[test]
fn brandejsky_e1_e3_e4_pass_without_collision() {
    for name in [
        "indalgo_two_pedestrians1",
        "indalgo_two_pedestrians3",
        "indalgo_pedestrian_and_obstacle1",
    ] {
        assert_all_arrive_without_contact(name);
    }
}

#[test]
fn brandejsky_e1_passes_on_the_right_and_resumes_its_preferred_velocity() {
    let scene = Arc::new(bundled("indalgo_two_pedestrians1"));
    let mut frames: Vec<Frame> = Vec::new();
    run_scene(scene, RunLimit::default(), &mut frames, |_, _| {}).unwrap();
    // Pedestrian 0 walks +x; passing on the right means it deviates to −y while they pass.
    let lateral = frames.iter().filter_map(|f| f.agent(0)).map(|a| a.position.y);
    assert!(
        lateral.clone().fold(0.0f32, f32::min) < -0.1,
        "ped0 sidestepped to its right"
    );
    let last = frames.last().unwrap().agent(0).unwrap();
    assert!(last.arrived());
}

#[test]
fn results_are_identical_at_1_2_and_8_threads() {
    for name in ["orca_blocks", "indalgo_crowd_three_groups_crossing"] {
        let scene = Arc::new(bundled(name));
        let frames_with = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let mut world = World::new(scene.clone());
                (0..150).map(|_| world.step()).collect::<Vec<Frame>>()
            })
        };
        let one = frames_with(1);
        assert_eq!(one, frames_with(2), "{name}: 1 vs 2 threads");
        assert_eq!(one, frames_with(8), "{name}: 1 vs 8 threads");
    }
}

/// Specific flow through a hallway at capacity, persons per second per metre of width: the
/// 1.3 p/(m s) of the bundled scene's description (Weidmann's maximum specific flow is about
/// 1.2; bottleneck experiments measure 1.3–1.9 for narrow exits, so the bound is optimistic).
const SPECIFIC_FLOW: f32 = 1.3;

/// Width of the hallway: the gap between the two walls that run east from the room's east wall.
fn hallway_width(scene: &Scene) -> f32 {
    let sides: Vec<f32> = scene
        .obstacles
        .iter()
        .filter_map(|o| match *o {
            crowdlab::scene::Obstacle::Wall { a, b } if a.y == b.y && a.x.min(b.x) >= 20.0 => Some(a.y),
            _ => None,
        })
        .collect();
    assert_eq!(sides.len(), 2, "the hallway has two side walls");
    (sides[0] - sides[1]).abs()
}

// Issue 18 item 10: at capacity no crowd empties a room faster than its exit lets it through,
// N / (specific flow × width); with ORCA (pedestrian settings, as `--method orca`) and `Remove`
// on arrival, all 400 walkers must be through within 1.5 times that, overlapping by ≤ 0.1 m.
#[test]
fn dense_bottleneck_400_with_orca_empties_within_1_5_times_the_capacity_bound() {
    let mut scene = bundled("dense_bottleneck_400");
    crowdlab::validate::Method::parse("orca").unwrap().apply(&mut scene);
    let agents = scene.agents.len();
    let bound = agents as f32 / (SPECIFIC_FLOW * hallway_width(&scene));
    let m = run(scene);
    let last = m.crowd.arrival_times.iter().copied().fold(0.0f32, f32::max);
    println!(
        "{} of {agents} through, the last at {last:.1} s (capacity bound {bound:.1} s, ratio {:.2}); deepest overlap {:.3} m",
        m.summary.agents_reached,
        last / bound,
        m.summary.max_penetration
    );
    assert_eq!(m.summary.agents_reached, agents, "everyone gets through");
    assert!(
        last <= 1.5 * bound,
        "the last walker is through at {last} s, over 1.5 × {bound} s"
    );
    assert!(
        m.summary.max_penetration <= 0.1,
        "bodies overlap by {} m",
        m.summary.max_penetration
    );
}
