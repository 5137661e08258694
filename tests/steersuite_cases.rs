//! crowdlab's own SteerSuite-format test cases (`tests/data/steersuite/cases/`, written here):
//! each imports without error into a valid scene, and — the final check of issue 18 — runs to
//! the end with every agent arriving and no body entering an obstacle by more than 5 cm.

mod common;

use std::sync::Arc;

use common::data;
use crowdlab::record::{Frame, Metrics, RecordingHeader};
use crowdlab::scene::import::import_file;
use crowdlab::scene::{Scene, validate};
use crowdlab::sim::run::{RunLimit, RunSink, run_scene};

/// Deepest tolerated obstacle penetration (metres).
const MAX_OBSTACLE_PENETRATION: f32 = 0.05;

/// The cases, by file stem.
const CASES: [&str; 11] = [
    "squeeze",
    "doorway",
    "hallway_one_way",
    "hallway_two_way",
    "bottleneck",
    "crossing_groups",
    "concentric_circle",
    "oriented_walls",
    "random_goal_forest",
    "emitter",
    "box_goals",
];

fn import(name: &str) -> Scene {
    let path = data(&format!("steersuite/cases/{name}.xml"));
    import_file(&path)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .0
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

#[test]
fn every_case_imports_into_a_valid_scene_that_avoids_and_plans() {
    for name in CASES {
        let scene = import(name);
        assert_eq!(validate(&scene), vec![], "{name}");
        assert!(!scene.agents.is_empty() || !scene.spawns.is_empty(), "{name}");
        for p in &scene.profiles {
            assert!(
                matches!(p.avoidance, crowdlab::scene::avoidance::Avoidance::Orca(_)),
                "{name}: {p:?}"
            );
        }
        let planner = scene.navigation.planner;
        assert_eq!(
            planner == crowdlab::scene::PlannerKind::Straight,
            scene.obstacles.is_empty(),
            "{name}: a planner exactly when there are obstacles"
        );
    }
}

#[test]
fn every_agent_arrives_without_entering_an_obstacle() {
    let mut failures = Vec::new();
    for name in CASES {
        let metrics = run(import(name));
        let s = &metrics.summary;
        let deepest = metrics
            .agents
            .iter()
            .map(|a| a.max_obstacle_penetration)
            .fold(0.0, f32::max);
        eprintln!(
            "{name}: {}/{} arrived in {} ticks, deepest obstacle penetration {deepest:.3} m",
            s.agents_reached, s.agents, s.ticks
        );
        if s.agents_reached != s.agents || deepest > MAX_OBSTACLE_PENETRATION {
            failures.push(format!(
                "{name}: {}/{} arrived, obstacle penetration {deepest:.3} m",
                s.agents_reached, s.agents
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
