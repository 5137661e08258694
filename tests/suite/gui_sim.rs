//! Simulator-mode GUI tests (egui_kittest): the time panel's transport (Play/Pause, Step, Step
//! back, Reset, Space) on the worker thread, scrubbing, overlays, the run inspector and replaying
//! a recording without its scene.

use crate::common;

use std::sync::Arc;

use crowdlab::app::{Comparison, CrowdlabApp, JobState, Loop, Question};
use crowdlab::draw::{Focus, Shape, build_frame_draw_list};
use crowdlab::record::RecordingWriter;
use crowdlab::scene::default_scene;
use crowdlab::sim::World;
use crowdlab::sim::run::header_for;
use eframe::egui::{Event, Key, Modifiers, PointerButton, Pos2, Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn harness() -> Harness<'static, CrowdlabApp> {
    harness_for(CrowdlabApp::new(default_scene()))
}

fn harness_for(app: CrowdlabApp) -> Harness<'static, CrowdlabApp> {
    Harness::builder()
        .with_size([1280.0, 800.0])
        .build_ui_state(|ui, app: &mut CrowdlabApp| app.show(ui), app)
}

/// Draws frames (the worker runs on its own thread) until the cursor reaches `tick`.
fn play_to(harness: &mut Harness<'_, CrowdlabApp>, tick: u64) {
    for _ in 0..2000 {
        harness.step();
        if harness.state().time().tick() >= tick {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the cursor stayed at {}", harness.state().time().tick());
}

/// The newest recorded tick.
fn newest(harness: &Harness<'_, CrowdlabApp>) -> u64 {
    harness.state().frames().tick_range().expect("recorded ticks").1
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
    harness.get_by_label("Play").click();
    for _ in 0..2000 {
        harness.step();
        if harness.state().time().tick() >= 3 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    harness.get_by_label("Pause").click();
    harness.run();
    let paused_at = harness.state().time().tick();
    assert!(paused_at >= 3);
    harness.get_by_label("Step").click();
    harness.run();
    assert_eq!(harness.state().time().tick(), paused_at + 1);
    assert!(!harness.state().time().is_playing());
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
    assert_eq!(harness.state().time().tick(), 0);
    for _ in 0..4 {
        harness.get_by_label("Step").click();
        harness.run();
    }
    let app = harness.state();
    assert_eq!(app.time().tick(), 4);
    let world = headless(4);
    let shown: Vec<_> = app.frame().unwrap().agents.iter().map(|a| a.position).collect();
    let expected: Vec<_> = world.bodies().iter().map(|b| b.position).collect();
    assert_eq!(shown, expected, "the canvas frame holds tick 4's recorded positions");
}

#[test]
fn toggling_an_overlay_changes_the_draw_list() {
    let mut harness = harness();
    harness.get_by_label("Step").click();
    harness.run();
    let arrows = |app: &CrowdlabApp| {
        let header = app.frames().header();
        let frame = app.frame().expect("a frame after stepping");
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
    let frame = harness.state().frame().unwrap();
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
    let id = harness.state().frame().unwrap().agents[0].id;
    harness.state_mut().select(Some(id));
    harness.run();
    let app = harness.state();
    let frame = app.frame().unwrap();
    let agent = frame.agent(id).unwrap();
    assert!(shows(&harness, &format!("agent {id}")));
    assert!(shows(&harness, "Forces by behaviour"));
    for f in frame.forces_of(agent) {
        let label = app.frames().header().label(f.label).to_string();
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
    common::record_default_scene(&path, 20);

    let mut harness = harness();
    harness.state_mut().open_path(&path);
    harness.run();
    assert!(!harness.state().frames().is_live());
    harness.get_by_label(">|").click();
    harness.run();
    assert_eq!(harness.state().time().tick(), 20);
    harness.get_by_label("Step back").click();
    harness.run();
    assert_eq!(harness.state().frame().unwrap().tick, 19);
    for _ in 0..2000 {
        harness.step();
        if harness.state().frames().summaries().len() == 21 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(
        harness.state().frames().summaries().len(),
        21,
        "every tick analysed in the background"
    );
}

#[test]
fn the_play_toggle_runs_and_stops_a_live_run() {
    let mut harness = harness();
    assert!(harness.query_by_label("Pause").is_none(), "one toggle, showing Play");
    harness.get_by_label("Play").click();
    play_to(&mut harness, 4);
    assert!(harness.state().time().is_following(), "simulating at the live edge");
    assert!(harness.query_by_label("Play").is_none(), "the toggle now shows Pause");
    harness.get_by_label("Pause").click();
    harness.run();
    assert!(!harness.state().time().is_playing());
    // Frames in flight when pausing are kept; then the simulation stays stopped.
    std::thread::sleep(std::time::Duration::from_millis(100));
    harness.run_steps(2);
    let stopped_at = newest(&harness);
    std::thread::sleep(std::time::Duration::from_millis(200));
    harness.run_steps(2);
    assert_eq!(newest(&harness), stopped_at, "no tick simulated after Pause");
    assert!(harness.query_by_label("Pause").is_none());
}

#[test]
fn step_and_step_back_move_exactly_one_recorded_frame() {
    let mut scene = default_scene();
    scene.settings.record_every = 2;
    let mut harness = harness_for(CrowdlabApp::new(scene));
    harness.get_by_label("Step").click();
    harness.run();
    assert_eq!(harness.state().time().tick(), 2, "one recorded frame is two ticks");
    harness.get_by_label("Step").click();
    harness.run();
    assert_eq!(harness.state().time().tick(), 4);
    assert_eq!(harness.state().frames().tick_range(), Some((0, 4)));
    harness.get_by_label("Step back").click();
    harness.run();
    assert_eq!(harness.state().time().tick(), 2);
    assert_eq!(harness.state().frame().unwrap().tick, 2);
    harness.get_by_label("Step").click();
    harness.run();
    assert_eq!(harness.state().time().tick(), 4);
    assert_eq!(
        harness.state().frames().tick_range(),
        Some((0, 4)),
        "stepping behind the newest tick replays it"
    );
    assert!(!harness.state().time().is_playing());
}

#[test]
fn reset_asks_before_dropping_a_run() {
    let mut harness = harness();
    for _ in 0..2 {
        harness.get_by_label("Step").click();
        harness.run();
    }
    harness.get_by_label("Reset").click();
    harness.run();
    assert_eq!(harness.state().question(), Some(&Question::ResetRun(2)));
    harness.get_by_label("Keep the run").click();
    harness.run();
    assert!(harness.state().question().is_none());
    assert_eq!(harness.state().frames().tick_range(), Some((0, 2)), "the run is kept");
    assert_eq!(harness.state().time().tick(), 2);

    harness.get_by_label("Reset").click();
    harness.run();
    harness.get_by_label("Discard run").click();
    harness.run();
    assert_eq!(harness.state().frames().tick_range(), None);
    assert_eq!(harness.state().time().tick(), 0);
    assert!(harness.state().frame().is_none(), "back to the start points");
}

#[test]
fn space_toggles_play() {
    let mut harness = harness();
    // Space belongs to the canvas in the editor; stepping switches to the simulator.
    harness.get_by_label("Step").click();
    harness.run();
    assert!(!harness.state().is_editing());
    harness.key_press(Key::Space);
    harness.step();
    assert!(harness.state().time().is_playing());
    play_to(&mut harness, 4);
    harness.key_press(Key::Space);
    harness.run();
    let paused_at = harness.state().time().tick();
    assert!(!harness.state().time().is_playing());
    harness.run_steps(5);
    assert_eq!(harness.state().time().tick(), paused_at);
}

#[test]
fn a_strided_recording_steps_and_scans_its_recorded_ticks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("strided.crowdrec");
    let mut scene = default_scene();
    scene.settings.record_every = 2;
    let mut world = World::new(Arc::new(scene));
    let mut writer = RecordingWriter::create(&path, &header_for(&world)).unwrap();
    writer.push(&world.snapshot_frame()).unwrap();
    for tick in 1..=20 {
        let frame = world.step();
        if tick % 2 == 0 {
            writer.push(&frame).unwrap();
        }
    }
    writer.finish().unwrap();

    let mut harness = harness();
    harness.state_mut().open_path(&path);
    harness.run();
    assert_eq!(harness.state().frames().tick_range(), Some((0, 20)));
    harness.get_by_label("Step").click();
    harness.run();
    assert_eq!(harness.state().frame().unwrap().tick, 2);
    harness.get_by_label(">|").click();
    harness.run();
    harness.get_by_label("Step back").click();
    harness.run();
    assert_eq!(harness.state().frame().unwrap().tick, 18);
    for _ in 0..2000 {
        harness.step();
        if harness.state().frames().summaries().len() == 11 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(
        harness.state().frames().summaries().len(),
        11,
        "every recorded frame analysed in the background"
    );
}

/// A primary click at `pos`.
fn click_at(harness: &mut Harness<'_, CrowdlabApp>, pos: Pos2) {
    harness.hover_at(pos);
    harness.run();
    for pressed in [true, false] {
        harness.event(Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        harness.run();
    }
}

#[test]
fn the_plots_show_the_selected_agents_recorded_values_and_a_click_moves_the_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.crowdrec");
    common::record_default_scene(&path, 40);
    let mut harness = harness();
    harness.state_mut().open_path(&path);
    harness.run();
    harness.get_by_label("Analysis").click();
    harness.run();
    assert!(
        shows(&harness, "Select an agent"),
        "the agent plot asks for a selection"
    );
    let id = default_scene().agents[2].id;
    harness.state_mut().select(Some(id));
    for _ in 0..200 {
        harness.step();
        if harness
            .state()
            .plots()
            .agent_series()
            .is_some_and(|s| s.speed.len() == 41)
        {
            break;
        }
    }
    harness.run();
    assert!(shows(&harness, &format!("Agent {id}")), "the agent's plot is titled");

    let reader = crowdlab::record::RecordingReader::open(&path).unwrap();
    let app = harness.state();
    let series = app.plots().agent_series().expect("the selected agent is plotted");
    assert_eq!(series.speed.len(), 41, "one speed point per recorded tick");
    for tick in [0u64, 13, 40] {
        let frame = reader.frame_at(tick).unwrap();
        let a = frame.agent(id).unwrap();
        let i = tick as usize;
        assert_eq!(series.speed[i], [f64::from(frame.time), f64::from(a.velocity.length())]);
        for f in frame.forces_of(a) {
            let (_, points) = series
                .forces
                .iter()
                .find(|(l, _)| *l == f.label)
                .expect("a line per force");
            assert_eq!(
                points[i][1],
                f64::from(f.force.length()),
                "force {} at tick {tick}",
                f.label
            );
        }
        for (_, points) in &series.forces {
            assert_eq!(
                points[i][0],
                f64::from(frame.time),
                "every force line has a point per tick"
            );
        }
    }
    let labels: Vec<_> = series
        .forces
        .iter()
        .map(|(l, _)| app.frames().header().label(*l).to_string())
        .collect();
    assert!(labels.len() >= 2, "{labels:?}");

    // Clicking a quarter and three quarters across the crowd plot moves the cursor there.
    let plot = harness
        .get_by(|n| n.role() == Role::Canvas && n.label().as_deref() == Some("Crowd"))
        .rect();
    let at = |f: f32| Pos2::new(plot.min.x + plot.width() * f, plot.center().y);
    click_at(&mut harness, at(0.25));
    let early = harness.state().time().tick();
    harness.run_steps(30); // not a double click
    click_at(&mut harness, at(0.75));
    let late = harness.state().time().tick();
    assert!(
        (4..=16).contains(&early),
        "a quarter across 4 s is near tick 10, got {early}"
    );
    assert!(
        (24..=36).contains(&late),
        "three quarters across is near tick 30, got {late}"
    );
}

#[test]
fn the_metrics_tab_summarises_the_run_and_its_sorted_table_selects_an_agent() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.crowdrec");
    common::record_default_scene(&path, 60);
    let mut harness = harness();
    harness.state_mut().open_path(&path);
    wait_for(&mut harness, |app| app.frames().summaries().len() == 61);
    harness.get_by_label("Analysis").click();
    harness.run();
    harness.get_by_label("Metrics").click();
    harness.run();
    let metrics = harness
        .state()
        .frames()
        .metrics()
        .expect("the scan measured the run")
        .clone();
    assert_eq!(metrics.summary.ticks, 60, "the metrics cover the whole recording");
    assert!(shows(&harness, "reached their goal"));
    assert!(shows(
        &harness,
        &format!("{} of {}", metrics.summary.agents_reached, metrics.summary.agents)
    ));

    // Sort by path length, longest first: the first row is the agent that walked furthest.
    harness.get_by_label("path (m)").click();
    harness.run();
    harness.get_by_label("path (m) ^").click();
    harness.run();
    let longest = metrics
        .agents
        .iter()
        .max_by(|a, b| a.path_length.total_cmp(&b.path_length).then(b.id.cmp(&a.id)))
        .unwrap();
    let cell = format!("{:.1}", longest.path_length);
    let first_row = harness
        .get_all_by_label(&cell)
        .min_by(|a, b| a.rect().min.y.total_cmp(&b.rect().min.y))
        .expect("the longest path is listed");
    let above = harness
        .query_all_by(|n| n.label().is_some_and(|l| l.parse::<f32>().is_ok()))
        .filter(|n| n.rect().min.y < first_row.rect().min.y - 1.0 && n.rect().min.y > first_row.rect().min.y - 400.0)
        .count();
    assert_eq!(above, 0, "the longest path is on the first row");
    first_row.click();
    harness.run();
    assert_eq!(
        harness.state().selection().selected,
        Some(longest.id),
        "clicking a row selects its agent"
    );
}

/// Draws frames until `done` holds (work on background threads: scans, comparisons), at most 60 s.
fn wait_for(harness: &mut Harness<'_, CrowdlabApp>, done: impl Fn(&CrowdlabApp) -> bool) {
    for _ in 0..6000 {
        harness.step();
        if done(harness.state()) {
            harness.run();
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the awaited state never came within 60 s");
}

/// A harness on `scene` showing the analysis panel's Compare tab.
fn compare_tab(scene: crowdlab::scene::Scene) -> Harness<'static, CrowdlabApp> {
    let mut harness = harness_for(CrowdlabApp::new(scene));
    harness.get_by_label("Step").click();
    harness.run();
    harness.get_by_label("Analysis").click();
    harness.run();
    harness.get_by_label("Compare").click();
    harness.run();
    harness
}

/// The bundled scene `name` (under `scenes/`).
fn bundled(name: &str) -> crowdlab::scene::Scene {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(name);
    crowdlab::scene::load_scene(&path).unwrap()
}

#[test]
fn compare_methods_runs_every_method_cancels_and_opens_a_row() {
    // A comparison of 3,000 fish is still running when Cancel is clicked: it stops and says so.
    let mut shoal = bundled("flock_10000.ron");
    shoal.spawns[0].count = 3000;
    let mut harness = compare_tab(shoal);
    harness.get_by_label("Compare methods").click();
    harness.step();
    harness.step();
    assert!(matches!(harness.state().comparison(), Comparison::Running(_)));
    assert!(shows(&harness, "Running the scene with every method"));
    harness.get_by_label("Cancel").click();
    wait_for(&mut harness, |app| !matches!(app.comparison(), Comparison::Running(_)));
    assert!(matches!(harness.state().comparison(), Comparison::Cancelled));
    assert!(shows(&harness, "Cancelled."));
    drop(harness);

    let mut harness = compare_tab(bundled("two_agents_crossing.ron"));
    // Run to the end: one row per method, the same numbers as the library's comparison.
    harness.get_by_label("Compare methods").click();
    wait_for(&mut harness, |app| matches!(app.comparison(), Comparison::Done(_)));
    let Comparison::Done(runs) = harness.state().comparison() else {
        unreachable!()
    };
    let names: Vec<String> = runs.iter().map(|r| r.method.name.clone()).collect();
    let expected: Vec<String> = crowdlab::validate::Method::available()
        .into_iter()
        .map(|m| m.name)
        .collect();
    assert_eq!(names, expected);
    let orca = runs.iter().find(|r| r.method.name == "orca").unwrap();
    let reached = format!(
        "{}/{}",
        orca.metrics.summary.agents_reached, orca.metrics.summary.agents
    );
    assert!(shows(&harness, &reached));
    assert!(shows(&harness, "Evacuation curves"));

    // A row opens that method's run in the simulator; the scene itself is unchanged.
    harness.get_by_label("Open orca").click();
    harness.run();
    let app = harness.state();
    let run_scene = &app.frames().header().scene;
    assert!(matches!(
        run_scene.profiles[0].avoidance,
        crowdlab::scene::avoidance::Avoidance::Orca(_)
    ));
    assert!(!matches!(
        app.document().scene.profiles[0].avoidance,
        crowdlab::scene::avoidance::Avoidance::Orca(_)
    ));
    assert!(!app.is_editing());
}

#[test]
fn the_validation_tab_runs_the_rimea_suite_cancels_and_opens_a_case() {
    let mut harness = harness();
    harness.get_by_label("Step").click();
    harness.run();
    harness.get_by_label("Analysis").click();
    harness.run();
    harness.get_by_label("Validation").click();
    harness.run();

    // The whole suite (RiMEA 9 has 2,000 agents) is still running when Cancel is clicked.
    harness.get_by_label("Run RiMEA suite").click();
    harness.step();
    harness.step();
    assert!(shows(&harness, "Running the RiMEA suite"));
    harness.get_by_label("Cancel").click();
    wait_for(&mut harness, |app| !matches!(app.validation(), JobState::Running(_)));
    assert!(matches!(harness.state().validation(), JobState::Cancelled));

    // The fast cases run to the end: a verdict and every check per case, as the library finds.
    harness.get_by_label("fast cases only").click();
    harness.run();
    harness.get_by_label("Run RiMEA suite").click();
    wait_for(&mut harness, |app| matches!(app.validation(), JobState::Done(_)));
    let JobState::Done(report) = harness.state().validation() else {
        unreachable!()
    };
    let cases = crowdlab::validate::bundled_cases().unwrap();
    let fast: Vec<&str> = cases
        .iter()
        .filter(|c| c.criteria.fast)
        .map(|c| c.name.as_str())
        .collect();
    let run: Vec<&str> = report.cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(run, fast);
    let first = &report.cases[0];
    let check = &first.checks[0];
    assert!(shows(
        &harness,
        &format!("{}: {} ({})", check.what, check.measured, check.band)
    ));
    assert!(shows(&harness, if first.passed() { "PASS" } else { "FAIL" }));
    for case in &report.cases {
        let figure = format!("figure of {}", case.name);
        harness.get_by(|n| n.role() == Role::Image && n.label().as_deref() == Some(figure.as_str()));
        assert!(
            shows(&harness, &format!("{}: agents arrived over time", case.name))
                || !case.metrics.crowd.arrival_times.is_empty(),
            "each case has its evacuation plot"
        );
    }

    // A case opens as the scene, in the editor.
    let name = first.name.clone();
    harness.get_by_label(&format!("Open {name}")).click();
    harness.run();
    let case = cases.iter().find(|c| c.name == name).unwrap();
    assert_eq!(*harness.state().document().scene, case.scene);
    assert!(harness.state().is_editing());
}

/// A primary drag from `from` to `to` in a few moves.
fn drag(harness: &mut Harness<'_, CrowdlabApp>, button: PointerButton, from: Pos2, to: Pos2) {
    harness.hover_at(from);
    harness.run();
    let press = |pos, pressed| Event::PointerButton {
        pos,
        button,
        pressed,
        modifiers: Modifiers::NONE,
    };
    harness.event(press(from, true));
    harness.run();
    for i in 1..=4 {
        harness.hover_at(from + (to - from) * (i as f32 / 4.0));
        harness.run();
    }
    harness.event(press(to, false));
    harness.run();
}

/// Where the timeline is on screen.
fn timeline_rect(harness: &Harness<'_, CrowdlabApp>) -> eframe::egui::Rect {
    harness
        .get_by(|n| n.role() == Role::Canvas && n.label().as_deref() == Some("timeline"))
        .rect()
}

#[test]
fn the_timeline_shares_the_sliders_track_zooms_pans_selects_a_loop_range_and_shows_the_agents_row() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.crowdrec");
    common::record_default_scene(&path, 100);
    let mut harness = harness();
    harness.state_mut().open_path(&path);
    wait_for(&mut harness, |app| app.frames().summaries().len() == 101);
    let slider = harness.get_by_role_and_label(Role::Slider, "tick").rect();
    let timeline = timeline_rect(&harness);

    // The slider's handle centre travels one handle radius (height / 2.5) in from each end of
    // its rail; the timeline puts each tick at the same x, so a click there seeks to that tick.
    let inset = slider.height() / 2.5;
    let x_of = |tick: f32| slider.min.x + inset + tick / 100.0 * (slider.width() - 2.0 * inset);
    let rows_y = timeline.min.y + 30.0;
    for tick in [30u64, 77] {
        click_at(&mut harness, Pos2::new(x_of(tick as f32), rows_y));
        harness.run_steps(30); // not a double click
        assert_eq!(
            harness.state().time().tick(),
            tick,
            "a click under the slider's tick {tick}"
        );
    }

    // Scrolling over the timeline zooms about the pointer; right-dragging pans; "whole run" fits.
    let about = Pos2::new(x_of(50.0), rows_y);
    harness.hover_at(about);
    harness.event(Event::MouseWheel {
        unit: eframe::egui::MouseWheelUnit::Point,
        delta: eframe::egui::vec2(0.0, 200.0),
        modifiers: Modifiers::NONE,
        phase: eframe::egui::TouchPhase::Move,
        source: eframe::egui::MouseWheelSource::Wheel,
    });
    harness.run_steps(40);
    let (start, end) = harness.state().timeline().window.visible(0, 100);
    assert!(harness.state().timeline().window.is_zoomed());
    assert!(end - start < 60.0, "zoomed in to {start:.1}..{end:.1}");
    assert!(
        start < 50.0 && 50.0 < end,
        "tick 50 stays in view: {start:.1}..{end:.1}"
    );
    drag(
        &mut harness,
        PointerButton::Secondary,
        about,
        about + eframe::egui::vec2(200.0, 0.0),
    );
    let (panned, _) = harness.state().timeline().window.visible(0, 100);
    assert!(
        panned < start - 5.0,
        "dragging right shows earlier ticks: {start:.1} -> {panned:.1}"
    );
    harness.get_by_label("whole run").click();
    harness.run();
    assert!(!harness.state().timeline().window.is_zoomed());
    harness.get_by_label("+").click();
    harness.run();
    let (start, end) = harness.state().timeline().window.visible(0, 100);
    assert!((end - start - 50.0).abs() < 1e-6, "+ halves the window: {start}..{end}");
    harness.get_by_label("whole run").click();
    harness.run();

    // Dragging on the ruler selects the loop (and export) range.
    let ruler_y = timeline.min.y + 8.0;
    drag(
        &mut harness,
        PointerButton::Primary,
        Pos2::new(x_of(20.0), ruler_y),
        Pos2::new(x_of(60.0), ruler_y),
    );
    assert_eq!(harness.state().time().looping(), Loop::Range { start: 20, end: 60 });
    assert_eq!(
        harness.state().time().loop_bounds(harness.state().frames()),
        Some((20, 60))
    );

    // Selecting an agent fills its row: its state over time, named on hover.
    harness.hover_at(Pos2::new(x_of(40.0), timeline.max.y - 6.0));
    harness.run();
    assert!(shows(&harness, "select an agent to see its row"));
    let id = default_scene().agents[1].id;
    harness.state_mut().select(Some(id));
    wait_for(&mut harness, |app| {
        app.plots().agent_series().is_some_and(|s| s.speed.len() == 101)
    });
    harness.run();
    assert_eq!(
        timeline_rect(&harness),
        timeline,
        "the agent's row was kept for it: nothing moves"
    );
    harness.hover_at(Pos2::new(x_of(40.0), timeline.max.y - 6.0));
    harness.run();
    let state = harness.state().frames().header().state(0).to_string();
    assert!(
        shows(&harness, &format!("agent {id} is {state}")),
        "the agent row names the agent's state at the pointer"
    );
    assert!(
        shows(&harness, &format!("agent {id}")),
        "the row is named after the agent"
    );
}

#[test]
fn the_plots_stack_the_crowds_mind_states_and_count_stuck_agents() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fire.crowdrec");
    let mut world = World::new(Arc::new(bundled("oblak_fire.ron")));
    let mut writer = RecordingWriter::create(&path, &header_for(&world)).unwrap();
    writer.push(&world.snapshot_frame()).unwrap();
    for _ in 0..200 {
        writer.push(&world.step()).unwrap();
    }
    writer.finish().unwrap();
    let mut harness = harness();
    harness.state_mut().open_path(&path);
    wait_for(&mut harness, |app| app.frames().summaries().len() == 201);
    harness.get_by_label("Analysis").click();
    harness.run();
    harness.get_by(|n| n.role() == Role::Canvas && n.label().as_deref() == Some("Mind states"));
    let app = harness.state();
    let reader = crowdlab::record::RecordingReader::open(&path).unwrap();
    assert!(
        app.frames().header().states.len() > 2,
        "the fire scene has several states"
    );
    for summary in app.frames().summaries() {
        assert_eq!(
            summary.states.iter().sum::<u32>(),
            summary.present,
            "the stack's top is every agent"
        );
        let frame = reader.frame_at(summary.tick).unwrap();
        for (state, &count) in summary.states.iter().enumerate() {
            let recorded = frame.agents.iter().filter(|a| usize::from(a.state) == state).count();
            assert_eq!(count as usize, recorded, "state {state} at tick {}", summary.tick);
        }
    }
    let states_seen = app
        .frames()
        .summaries()
        .iter()
        .map(|s| s.states.iter().filter(|&&c| c > 0).count())
        .max();
    assert!(states_seen >= Some(2), "people change state within 20 s");
}

#[test]
fn colouring_by_speed_or_density_shows_its_colour_scale() {
    let mut harness = harness();
    harness.get_by_label("Step").click();
    harness.run();
    let scale = |harness: &Harness<'_, CrowdlabApp>, title: &str| {
        harness
            .query_by(|n| n.label().is_some_and(|l| l == format!("colour scale: {title}")))
            .is_some()
    };
    assert!(!scale(&harness, "speed / the agent's top speed"));
    for (mode, title) in [
        ("speed", "speed / the agent's top speed"),
        ("density", "neighbours within 1 m"),
    ] {
        let colourings = ["status", "speed", "density", "state", "group"];
        harness
            .get_by(|n| n.role() == Role::ComboBox && n.value().is_some_and(|v| colourings.contains(&v.as_str())))
            .click();
        harness.run();
        harness
            .query_all_by(|n| n.label().as_deref() == Some(mode) && ![Role::ComboBox, Role::Label].contains(&n.role()))
            .next()
            .expect("the menu entry")
            .click();
        harness.run();
        assert!(scale(&harness, title), "colouring by {mode} shows its scale");
    }
    assert!(
        shows(&harness, "P/m² around the agent"),
        "the density scale says what it means"
    );
}
