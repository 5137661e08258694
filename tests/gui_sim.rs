//! Simulator-mode GUI tests (egui_kittest): stepping on the worker thread, scrubbing, overlays,
//! the run inspector and replaying a recording without its scene.

use std::sync::Arc;

use crowdlab::app::CrowdlabApp;
use crowdlab::draw::{Focus, Shape, build_frame_draw_list};
use crowdlab::record::RecordingWriter;
use crowdlab::scene::default_scene;
use crowdlab::sim::World;
use crowdlab::sim::run::header_for;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn harness() -> Harness<'static, CrowdlabApp> {
    Harness::builder().with_size([1280.0, 800.0]).build_ui_state(
        |ui, app: &mut CrowdlabApp| app.show(ui),
        CrowdlabApp::new(default_scene()),
    )
}

/// True when some text on screen contains `text`.
fn shows(harness: &Harness<'_, CrowdlabApp>, text: &str) -> bool {
    let text = text.to_string();
    harness
        .query_all_by(move |n| {
            n.value().is_some_and(|v| v.contains(&text)) || n.label().is_some_and(|v| v.contains(&text))
        })
        .next()
        .is_some()
}

/// Steps the headless world `ticks` times from the default scene.
fn headless(ticks: u64) -> World {
    let mut world = World::new(Arc::new(default_scene()));
    for _ in 0..ticks {
        world.step();
    }
    world
}

#[test]
fn run_pause_then_step_advances_exactly_one_tick() {
    let mut harness = harness();
    harness.get_by_label("Run").click();
    for _ in 0..2000 {
        harness.step();
        if harness.state().playback().cursor() >= 3 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    harness.get_by_label("Pause").click();
    harness.run();
    let paused_at = harness.state().playback().cursor();
    assert!(paused_at >= 3);
    harness.get_by_label("Step").click();
    harness.run();
    assert_eq!(harness.state().playback().cursor(), paused_at + 1);
    assert!(!harness.state().playback().is_playing());
}

#[test]
fn scrubbing_shows_the_recorded_positions_of_that_tick() {
    let mut harness = harness();
    for _ in 0..8 {
        harness.get_by_label("Step").click();
        harness.run();
    }
    harness.get_by_label("|<").click();
    harness.run();
    assert_eq!(harness.state().playback().cursor(), 0);
    for _ in 0..4 {
        harness.get_by_label(">").click();
        harness.run();
    }
    let app = harness.state();
    assert_eq!(app.playback().cursor(), 4);
    let world = headless(4);
    let shown: Vec<_> = app
        .playback()
        .frame()
        .unwrap()
        .agents
        .iter()
        .map(|a| a.position)
        .collect();
    let expected: Vec<_> = world.bodies().iter().map(|b| b.position).collect();
    assert_eq!(shown, expected, "the canvas frame holds tick 4's recorded positions");
}

#[test]
fn toggling_an_overlay_changes_the_draw_list() {
    let mut harness = harness();
    harness.get_by_label("Step").click();
    harness.run();
    let arrows = |app: &CrowdlabApp| {
        let header = app.playback().header();
        let frame = app.playback().frame().expect("a frame after stepping");
        build_frame_draw_list(header, frame, app.overlays(), &Focus::default())
            .shapes
            .iter()
            .filter(|s| matches!(s, Shape::Arrow { .. }))
            .count()
    };
    let before = arrows(harness.state());
    harness.get_by_label("Velocity").click();
    harness.run();
    assert!(harness.state().overlays().velocity);
    let frame = harness.state().playback().frame().unwrap();
    let moving = frame.agents.iter().filter(|a| a.velocity != glam::Vec2::ZERO).count();
    assert!(moving > 0);
    assert_eq!(
        arrows(harness.state()),
        before + moving,
        "one velocity arrow per moving agent"
    );
}

#[test]
fn selecting_an_agent_fills_the_inspector_with_its_forces() {
    let mut harness = harness();
    for _ in 0..3 {
        harness.get_by_label("Step").click();
        harness.run();
    }
    assert!(shows(&harness, "Click an agent"));
    let id = harness.state().playback().frame().unwrap().agents[0].id;
    harness.state_mut().select(Some(id));
    harness.run();
    let app = harness.state();
    let frame = app.playback().frame().unwrap();
    let agent = frame.agent(id).unwrap();
    assert!(shows(&harness, &format!("agent {id}")));
    assert!(shows(&harness, "Forces by behaviour"));
    for f in frame.forces_of(agent) {
        let label = app.playback().header().label(f.label).to_string();
        assert!(shows(&harness, &label), "force {label} listed");
        assert!(
            shows(&harness, &format!("{:.3}", f.force.length())),
            "magnitude of {label}"
        );
    }
}

#[test]
fn a_loaded_recording_replays_and_its_events_are_scanned() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.crowdrec");
    let mut world = World::new(Arc::new(default_scene()));
    let mut writer = RecordingWriter::create(&path, &header_for(&world)).unwrap();
    writer.push(&world.snapshot_frame()).unwrap();
    for _ in 0..20 {
        writer.push(&world.step()).unwrap();
    }
    writer.finish().unwrap();

    let mut harness = harness();
    harness.state_mut().open_path(&path);
    harness.run();
    assert!(!harness.state().playback().is_live());
    harness.get_by_label(">|").click();
    harness.run();
    assert_eq!(harness.state().playback().cursor(), 20);
    harness.get_by_label("<").click();
    harness.run();
    assert_eq!(harness.state().playback().frame().unwrap().tick, 19);
    for _ in 0..2000 {
        harness.step();
        if harness.state().playback().summaries().len() == 21 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(
        harness.state().playback().summaries().len(),
        21,
        "every tick analysed in the background"
    );
}
