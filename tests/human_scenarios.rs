//! Scenario tests of Popelová's human steerings and Stria's forces: bundled scenes of the thesis's
//! chapter 6 run headless, asserting the outcomes the thesis reports as successful.

use std::path::Path;
use std::sync::Arc;

use crowdlab::record::{ContactWith, Frame};
use crowdlab::scene::{Scene, load_scene};
use crowdlab::sim::run::{RunLimit, run_scene};

fn scene(name: &str) -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)).unwrap()
}

fn run(scene: Scene) -> Vec<Frame> {
    let mut frames = Vec::new();
    run_scene(Arc::new(scene), RunLimit::default(), &mut frames, |_, _| {}).unwrap();
    frames
}

/// Prints every agent's track (for `--nocapture` when tuning a scene).
fn trace(frames: &[Frame]) {
    for f in frames.iter().step_by(1) {
        let agents: Vec<String> = f
            .agents
            .iter()
            .map(|a| {
                let forces: Vec<String> = f
                    .forces_of(a)
                    .iter()
                    .map(|s| format!("[{:.2},{:.2}]", s.force.x, s.force.y))
                    .collect();
                format!(
                    "{}:({:.2},{:.2}) v({:.2},{:.2}) {}",
                    a.id,
                    a.position.x,
                    a.position.y,
                    a.velocity.x,
                    a.velocity.y,
                    forces.join("")
                )
            })
            .collect();
        println!("t={:.2} {}", f.time, agents.join("  "));
    }
}

fn arrived(frames: &[Frame], id: u32) -> bool {
    frames.last().and_then(|f| f.agent(id)).is_some_and(|a| a.arrived())
}

fn obstacle_contacts(frames: &[Frame]) -> usize {
    frames
        .iter()
        .flat_map(|f| &f.contacts)
        .filter(|c| matches!(c.with, ContactWith::Obstacle(_)))
        .count()
}

fn agent_contacts(frames: &[Frame]) -> usize {
    frames
        .iter()
        .flat_map(|f| &f.contacts)
        .filter(|c| matches!(c.with, ContactWith::Agent(_)))
        .count()
}

#[test]
fn small_obstacle_is_passed_without_touching_and_the_target_reached() {
    let frames = run(scene("popelova_6_1_1_small_obstacle.ron"));
    trace(&frames);
    assert!(arrived(&frames, 0), "reaches the target behind the obstacle");
    assert_eq!(obstacle_contacts(&frames), 0, "never touches the obstacle");
}
