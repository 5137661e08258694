//! crowdlab's own SteerSuite-format test cases (`tests/data/steersuite/cases/`, written here):
//! each imports without error into a valid scene, and — the final check of issue 18 — runs to
//! the end with every agent arriving and no body entering an obstacle by more than 5 cm, with
//! the imported ORCA and with RVO. ORCA gets through the concentric circles only thanks to the
//! stuck-agent remedy (`Unstick`): without it the ring of agents meeting in the middle locks.

use crate::common;

use std::sync::Arc;

use common::data;
use crowdlab::record::{Frame, Metrics, RecordingHeader};
use crowdlab::scene::import::import_file;
use crowdlab::scene::{Scene, validate};
use crowdlab::sim::run::{RunLimit, RunSink, run_scene};
use crowdlab::validate::Method;

/// Deepest tolerated obstacle penetration (metres).
const MAX_OBSTACLE_PENETRATION: f32 = 0.05;

/// The cases, by file stem.
const CASES: [&str; 12] = [
    "squeeze",
    "doorway",
    "hallway_one_way",
    "hallway_two_way",
    "bottleneck",
    "crossing_groups",
    "concentric_circle",
    "concentric_circles_20",
    "oriented_walls",
    "random_goal_forest",
    "emitter",
    "box_goals",
];

fn import(name: &str) -> Scene {
    let path = data(&format!("steersuite/cases/{name}.xml"));
    import_file(&path).unwrap_or_else(|e| panic!("{name}: {e}")).0
}

/// Keeps no frame: the metrics are all these tests read.
struct Discard;

impl RunSink for Discard {
    type Error = std::convert::Infallible;

    fn begin(&mut self, _header: &RecordingHeader) -> Result<(), Self::Error> {
        Ok(())
    }

    fn frame(&mut self, _frame: &Frame) -> Result<(), Self::Error> {
        Ok(())
    }
}

fn run(scene: Scene) -> Metrics {
    run_scene(Arc::new(scene), RunLimit::default(), &mut Discard, |_, _| {}).unwrap()
}

/// `name` imported and run with `method`: (agents that arrived, agents, deepest obstacle
/// penetration in metres).
fn outcome(name: &str, method: &str) -> (usize, usize, f32) {
    let mut scene = import(name);
    Method::parse(method).unwrap().apply(&mut scene);
    outcome_of(name, method, scene)
}

/// `scene` (case `name`, run with `method`) run to the end, as [`outcome`].
fn outcome_of(name: &str, method: &str, scene: Scene) -> (usize, usize, f32) {
    let metrics = run(scene);
    let deepest = metrics
        .agents
        .iter()
        .map(|a| a.max_obstacle_penetration)
        .fold(0.0, f32::max);
    let s = &metrics.summary;
    eprintln!(
        "{name} ({method}): {}/{} arrived in {} ticks, deepest obstacle penetration {deepest:.3} m",
        s.agents_reached, s.agents, s.ticks
    );
    (s.agents_reached, s.agents, deepest)
}

/// Every case run with `method`: the cases where not every agent arrived or a body entered an
/// obstacle too deep.
fn failures(method: &str) -> Vec<String> {
    let mut failures = Vec::new();
    for name in CASES {
        let (arrived, agents, deepest) = outcome(name, method);
        if arrived != agents || deepest > MAX_OBSTACLE_PENETRATION {
            failures.push(format!(
                "{name}: {arrived}/{agents} arrived, obstacle penetration {deepest:.3} m"
            ));
        }
    }
    failures
}

#[test]
fn with_orca_every_agent_arrives_without_entering_an_obstacle() {
    let failures = failures("as-authored");
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn with_rvo_every_agent_arrives_without_entering_an_obstacle() {
    let failures = failures("rvo");
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn without_the_stuck_agent_remedy_orca_locks_up_in_the_concentric_circle() {
    // The eight agents meet in a ring of touching bodies where each one's only velocity that
    // approaches no touching neighbour is standing still; RVO2's 1e-4 m/s perturbation of the
    // preferred velocity does not free them, the remedy's sidestep does (test above).
    let mut scene = import("concentric_circle");
    for profile in &mut scene.profiles {
        profile.unstick.after = 0.0;
    }
    let (arrived, _, _) = outcome_of("concentric_circle", "ORCA without unstick", scene);
    assert_eq!(arrived, 0);
}

#[test]
fn every_case_imports_into_a_valid_scene_that_avoids_and_plans() {
    for name in CASES {
        let scene = import(name);
        assert_eq!(validate(&scene), vec![], "{name}");
        assert!(!scene.agents.is_empty(), "{name}");
        for p in &scene.profiles {
            assert!(
                matches!(p.avoidance, crowdlab::scene::avoidance::Avoidance::Orca(_)),
                "{name}: {p:?}"
            );
        }
        assert_eq!(
            scene.navigation.planner == crowdlab::scene::PlannerKind::Straight,
            scene.obstacles.is_empty(),
            "{name}: a planner exactly when there are obstacles"
        );
    }
}
