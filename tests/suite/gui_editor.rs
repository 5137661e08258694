//! Scene editor tests through egui_kittest: tools, selection, inspector, undo/redo, validation,
//! the questions before dropping work, and autosave recovery, driven by clicking the real
//! widgets and the canvas.

use std::sync::Arc;

use crowdlab::app::{CrowdlabApp, Question};
use crowdlab::scene::{Goal, Obstacle, Scene, default_scene, load_scene};
use eframe::egui::{Event, Key, Modifiers, PointerButton, Pos2, ViewportCommand, ViewportId};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Vec2;

fn harness_for(app: CrowdlabApp) -> Harness<'static, CrowdlabApp> {
    let mut h = Harness::builder()
        .with_size([1400.0, 900.0])
        .build_ui_state(|ui, app: &mut CrowdlabApp| app.show(ui), app);
    h.run();
    h
}

fn harness() -> Harness<'static, CrowdlabApp> {
    harness_for(CrowdlabApp::new(default_scene()))
}

fn screen(h: &Harness<'_, CrowdlabApp>, p: Vec2) -> Pos2 {
    h.state().canvas_to_screen(p).expect("the canvas has been drawn")
}

fn button(h: &Harness<'_, CrowdlabApp>, pos: Pos2, pressed: bool) {
    h.event(Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers: Modifiers::NONE,
    });
}

/// Runs frames until the new panels have settled (grids take a few frames to size).
fn settle(h: &mut Harness<'_, CrowdlabApp>) {
    h.run_steps(8);
}

/// A primary click on the canvas at world point `p`.
fn click_world(h: &mut Harness<'_, CrowdlabApp>, p: Vec2) {
    let s = screen(h, p);
    h.hover_at(s);
    button(h, s, true);
    button(h, s, false);
    settle(h);
}

/// A primary drag on the canvas from world point `a` to `b`.
fn drag_world(h: &mut Harness<'_, CrowdlabApp>, a: Vec2, b: Vec2) {
    let (sa, sb) = (screen(h, a), screen(h, b));
    h.hover_at(sa);
    button(h, sa, true);
    for k in 1..=4 {
        h.hover_at(sa + (sb - sa) * (k as f32 / 4.0));
    }
    button(h, sb, false);
    settle(h);
}

fn tool(h: &mut Harness<'_, CrowdlabApp>, name: &str) {
    h.get_by_label(name).click();
    settle(h);
}

fn key(h: &mut Harness<'_, CrowdlabApp>, key: Key) {
    h.key_press(key);
    settle(h);
}

fn scene(h: &Harness<'_, CrowdlabApp>) -> Arc<Scene> {
    h.state().document().scene.clone()
}

fn shows(h: &Harness<'_, CrowdlabApp>, text: &str) -> bool {
    let text = text.to_string();
    h.query_all_by(move |n| {
        n.value().is_some_and(|v| v.contains(&text)) || n.label().is_some_and(|v| v.contains(&text))
    })
    .next()
    .is_some()
}

fn close(a: Vec2, b: Vec2) -> bool {
    a.distance(b) < 0.05
}

#[test]
fn build_a_scene_from_nothing_save_and_reload_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("built.ron");
    let mut h = harness();
    tool(&mut h, "New");
    assert!(scene(&h).agents.is_empty() && scene(&h).obstacles.is_empty());
    assert!(h.state().is_editing());

    tool(&mut h, "Add agent");
    drag_world(&mut h, Vec2::new(-4.0, 0.0), Vec2::new(-4.0, 2.0));
    tool(&mut h, "Add target");
    click_world(&mut h, Vec2::new(6.0, 0.0));
    tool(&mut h, "Add path");
    for p in [(-6.0, -6.0), (0.0, -6.0), (6.0, -4.0)] {
        click_world(&mut h, Vec2::from(p));
    }
    key(&mut h, Key::Enter);
    tool(&mut h, "Polygon");
    for p in [(-2.0, 3.0), (1.0, 3.0), (0.0, 6.0)] {
        click_world(&mut h, Vec2::from(p));
    }
    key(&mut h, Key::Enter);

    let s = scene(&h);
    assert_eq!(s.agents.len(), 1);
    assert!(
        close(s.agents[0].position, Vec2::new(-4.0, 0.0)),
        "{:?}",
        s.agents[0].position
    );
    assert!(
        (s.agents[0].heading_deg - 90.0).abs() < 2.0,
        "drag sets the heading: {}",
        s.agents[0].heading_deg
    );
    assert_eq!(s.targets.len(), 1);
    assert!(close(s.targets[0].position, Vec2::new(6.0, 0.0)));
    assert_eq!(s.paths.len(), 1);
    assert_eq!(s.paths[0].points.len(), 3);
    assert!(close(s.paths[0].points[2], Vec2::new(6.0, -4.0)));
    let Obstacle::Polygon { vertices } = &s.obstacles[0] else {
        panic!("a polygon: {:?}", s.obstacles);
    };
    assert_eq!(vertices.len(), 3);

    // Select the agent and send it to the target through the inspector's goal menu.
    tool(&mut h, "Select");
    click_world(&mut h, Vec2::new(-4.0, 0.0));
    assert_eq!(h.state().editor().selection.0.len(), 1);
    h.get_by_label("goal").click();
    h.run();
    h.get_by_label("target target-1").click();
    h.run();
    assert_eq!(scene(&h).agents[0].goal, Goal::Target("target-1".into()));
    assert!(h.state().document().title().ends_with(" *"));
    assert!(shows(&h, "No problems"), "the built scene is valid");

    let built = scene(&h);
    h.state_mut().save_to(&file);
    h.run();
    assert!(!h.state().document().modified);
    tool(&mut h, "New");
    assert!(scene(&h).agents.is_empty());
    h.state_mut().open_path(&file);
    h.run();
    assert_eq!(*scene(&h), *built, "reloaded scene equals the built one");
    assert_eq!(load_scene(&file).unwrap(), *built);
    assert_eq!(h.state().recent_files()[0], file);
}

#[test]
fn undo_and_redo_restore_every_state_exactly() {
    let mut h = harness();
    let mut states = vec![scene(&h)];
    tool(&mut h, "Add agent");
    click_world(&mut h, Vec2::new(2.0, -3.0));
    states.push(scene(&h));
    tool(&mut h, "Circle");
    drag_world(&mut h, Vec2::new(-8.0, -4.0), Vec2::new(-7.0, -4.0));
    states.push(scene(&h));
    tool(&mut h, "Select");
    click_world(&mut h, Vec2::new(2.0, -3.0));
    drag_world(&mut h, Vec2::new(2.0, -3.0), Vec2::new(4.0, -2.0));
    states.push(scene(&h));
    key(&mut h, Key::Delete);
    states.push(scene(&h));
    h.get_by_label("seed").set_value_accesskit(77.0);
    h.run();
    states.push(scene(&h));
    for pair in states.windows(2) {
        assert_ne!(pair[0], pair[1], "every step changed the scene");
    }
    let last = scene(&h).agents.len();
    assert_eq!(last, states[0].agents.len(), "the moved agent was deleted");

    for expected in states.iter().rev().skip(1) {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
        assert_eq!(*scene(&h), **expected);
    }
    for expected in states.iter().skip(1) {
        h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        h.run();
        assert_eq!(*scene(&h), **expected);
    }
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(*scene(&h), *states[states.len() - 2], "the Undo button too");
}

#[test]
fn deleting_a_referenced_target_shows_a_validation_error_that_selects_the_agent() {
    let mut h = harness();
    assert!(shows(&h, "No problems"));
    tool(&mut h, "Select");
    click_world(&mut h, Vec2::new(9.7, 0.7));
    assert_eq!(h.state().editor().selection.0.len(), 1);
    key(&mut h, Key::Delete);
    assert!(scene(&h).target("east").is_none());
    let message = "agents[0].goal: unknown target id \"east\"";
    assert!(shows(&h, message), "the problem is listed");
    assert!(shows(&h, "Problems (1)"));

    h.get_by_label(message).click();
    h.run();
    assert_eq!(
        format!("{:?}", h.state().editor().selection.0),
        "[Agent(0)]",
        "clicking the problem selects the agent"
    );
}

#[test]
fn recovery_file_is_written_and_offered_on_the_next_start() {
    let state = tempfile::tempdir().unwrap();
    let mut app = CrowdlabApp::new(default_scene()).with_state_dir(state.path());
    app.set_autosave_interval(0.5);
    let recovery = app.recovery_file().unwrap().to_path_buf();
    let mut h = harness_for(app);
    tool(&mut h, "Add target");
    click_world(&mut h, Vec2::new(-2.0, -2.0));
    h.run_steps(4);
    assert!(recovery.exists(), "autosaved to {}", recovery.display());
    let edited = scene(&h);
    drop(h);

    let mut h = harness_for(CrowdlabApp::new(default_scene()).with_state_dir(state.path()));
    assert_eq!(h.state().recovery(), Some(&*edited));
    assert!(shows(&h, "unsaved changes"));
    assert!(
        shows(&h, &format!("The copy is in {}", recovery.display())),
        "the banner says where the copy is"
    );
    h.get_by_label("Restore").click();
    h.run();
    assert_eq!(*scene(&h), *edited);
    assert!(h.state().document().modified, "restored work is still unsaved");
    assert!(h.state().recovery().is_none());
}

/// Whether the window's last frame asked for it to close.
fn asks_to_close(h: &Harness<'_, CrowdlabApp>) -> bool {
    h.output().viewport_output[&ViewportId::ROOT]
        .commands
        .contains(&ViewportCommand::Close)
}

/// A window on the default scene with a state folder of its own, and the recovery file it
/// autosaves to there.
fn harness_with_state() -> (tempfile::TempDir, std::path::PathBuf, Harness<'static, CrowdlabApp>) {
    let state = tempfile::tempdir().unwrap();
    let app = CrowdlabApp::new(default_scene()).with_state_dir(state.path());
    let recovery = app.recovery_file().unwrap().to_path_buf();
    (state, recovery, harness_for(app))
}

#[test]
fn a_signal_closes_the_window_without_asking_and_keeps_the_unsaved_scene_for_the_next_start() {
    let (state, recovery, mut h) = harness_with_state();
    tool(&mut h, "Add target");
    click_world(&mut h, Vec2::new(-2.0, -2.0));
    h.run();
    assert!(!recovery.exists(), "the 30 s autosave is not due yet");
    assert!(!asks_to_close(&h));
    let edited = scene(&h);

    h.state_mut().close_for_signal();
    h.step();
    assert!(asks_to_close(&h), "the window closes at its next frame");
    assert_eq!(h.state().question(), None, "nothing is asked");
    assert!(
        recovery.exists(),
        "the unsaved scene is written to {}",
        recovery.display()
    );
    drop(h);

    let h = harness_for(CrowdlabApp::new(default_scene()).with_state_dir(state.path()));
    assert_eq!(h.state().recovery(), Some(&*edited), "the next start offers it");
}

#[test]
fn a_signal_closes_a_window_with_nothing_unsaved_and_writes_nothing() {
    let (_state, recovery, mut h) = harness_with_state();
    h.state_mut().close_for_signal();
    h.step();
    assert!(asks_to_close(&h));
    assert!(!recovery.exists());
}

#[test]
fn a_recovered_scene_edited_from_a_file_saves_back_to_that_file_in_its_layout() {
    let state = tempfile::tempdir().unwrap();
    let path = state.path().join("plaza.ron");
    let original = include_str!("../../assets/default_scene.ron");
    std::fs::write(&path, original).unwrap();
    let mut app = CrowdlabApp::new(default_scene()).with_state_dir(state.path());
    app.set_autosave_interval(0.5);
    let mut h = harness_for(app);
    h.state_mut().open_path(&path);
    h.run();
    tool(&mut h, "Add target");
    click_world(&mut h, Vec2::new(-2.0, -2.0));
    h.run_steps(4);
    let edited = scene(&h);
    drop(h);

    let mut h = harness_for(CrowdlabApp::new(default_scene()).with_state_dir(state.path()));
    assert!(
        shows(&h, &format!("edited from {}", path.display())),
        "the banner names the file"
    );
    h.get_by_label("Restore").click();
    h.run();
    assert_eq!(h.state().document().scene_path(), Some(path.as_path()));
    assert!(h.state().document().modified);
    h.get_by_label("Save").click();
    h.run();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_eq!(load_scene(&path).unwrap(), *edited);
    let added = saved.lines().filter(|l| !original.contains(*l)).count();
    assert_eq!(added, 1, "only the new target's line is new:\n{saved}");
}

#[test]
fn discarding_changes_or_a_run_asks_first() {
    let mut h = harness();
    tool(&mut h, "Add target");
    click_world(&mut h, Vec2::new(-2.0, -2.0));
    let edited = scene(&h);
    tool(&mut h, "New");
    assert!(matches!(h.state().question(), Some(Question::DiscardChanges(_))));
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(*scene(&h), *edited, "cancel keeps the work");

    // Running switches to the simulator; going back to editing asks before dropping the run.
    h.get_by_label("Step").click();
    h.run();
    h.get_by_label("Step").click();
    h.run();
    assert!(!h.state().is_editing());
    assert_eq!(h.state().frame().unwrap().agents.len(), edited.agents.len());
    h.get_by_label("Editor").click();
    h.run();
    assert_eq!(h.state().question(), Some(&Question::DiscardRun(2)));
    h.get_by_label("Keep the run").click();
    h.run();
    assert!(!h.state().is_editing());
    h.get_by_label("Editor").click();
    h.run();
    h.get_by_label("Discard run and edit").click();
    h.run();
    assert!(h.state().is_editing());
    assert_eq!(h.state().frames().tick_range(), None);

    tool(&mut h, "New");
    h.get_by_label("Discard changes").click();
    h.run();
    assert!(scene(&h).agents.is_empty() && !h.state().document().modified);
}

#[test]
fn regions_gates_portals_and_spawn_groups_are_dragged_out() {
    let mut h = harness();
    tool(&mut h, "New");
    tool(&mut h, "Region");
    drag_world(&mut h, Vec2::new(-8.0, -4.0), Vec2::new(0.0, 4.0));
    drag_world(&mut h, Vec2::new(0.0, -4.0), Vec2::new(8.0, 4.0));
    tool(&mut h, "Portal");
    drag_world(&mut h, Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0));
    tool(&mut h, "Gate");
    drag_world(&mut h, Vec2::new(8.0, -1.0), Vec2::new(8.0, 1.0));
    tool(&mut h, "Spawn group");
    drag_world(&mut h, Vec2::new(-7.0, -3.0), Vec2::new(-5.0, 3.0));
    let s = scene(&h);
    assert_eq!(s.regions.len(), 2);
    assert!(close(s.regions[0].min, Vec2::new(-8.0, -4.0)) && close(s.regions[0].max, Vec2::new(0.0, 4.0)));
    let mut joined = [s.portals[0].regions.0.clone(), s.portals[0].regions.1.clone()];
    joined.sort();
    assert_eq!(
        joined,
        ["region-1", "region-2"],
        "the portal joins the regions it lies between"
    );
    assert_eq!(s.gates[0].id, "gate-1");
    assert_eq!(s.spawns[0].count, 10);
    assert!(shows(&h, "Spawn"), "the inspector shows the new spawn group");

    // Select the gate, move it along the edge, then delete it.
    tool(&mut h, "Select");
    click_world(&mut h, Vec2::new(8.0, 0.5));
    drag_world(&mut h, Vec2::new(8.0, 0.5), Vec2::new(8.0, 2.5));
    assert!(
        close(scene(&h).gates[0].from, Vec2::new(8.0, 1.0)),
        "{:?}",
        scene(&h).gates[0]
    );
    key(&mut h, Key::Delete);
    assert!(scene(&h).gates.is_empty());
}

#[test]
fn a_new_scene_walker_steers_round_an_obstacle_in_its_way() {
    use crowdlab::scene::{Agent, Target};
    use crowdlab::sim::run::{RunLimit, run_scene};

    let mut h = harness();
    tool(&mut h, "New");
    let mut s = (*scene(&h)).clone();
    assert!(s.agents.is_empty() && s.obstacles.is_empty());
    let profile = s.profiles[0].name.clone();
    s.agents.push(Agent {
        id: 0,
        profile,
        position: Vec2::new(-8.0, 0.0),
        heading_deg: 0.0,
        goal: Goal::Target("east".into()),
        start_time: 0.0,
        end_time: None,
        agent_type: None,
    });
    s.targets.push(Target {
        id: "east".into(),
        position: Vec2::new(8.0, 0.0),
        radius: 0.3,
    });
    s.obstacles.push(Obstacle::Circle {
        center: Vec2::new(0.0, 0.2),
        radius: 1.5,
    });
    s.settings.duration = 40.0;
    assert!(crowdlab::scene::validate(&s).is_empty());
    let mut frames = Vec::new();
    let metrics = run_scene(Arc::new(s), RunLimit::default(), &mut frames, |_, _| {}).unwrap();
    assert_eq!(metrics.summary.agents_reached, 1, "{metrics:#?}");
    assert!(
        metrics.agents[0].max_obstacle_penetration < 0.05,
        "penetrates the obstacle by {} m",
        metrics.agents[0].max_obstacle_penetration
    );
}

#[test]
fn the_canvas_keeps_its_place_at_1024_by_640_whatever_is_selected_and_in_either_mode() {
    let mut h = Harness::builder().with_size([1024.0, 640.0]).build_ui_state(
        |ui, app: &mut CrowdlabApp| app.show(ui),
        CrowdlabApp::new(default_scene()),
    );
    settle(&mut h);
    let canvas = |h: &Harness<'_, CrowdlabApp>| h.get_by_label("Scene canvas").rect();
    let first = canvas(&h);
    assert!(
        first.width() >= 450.0 && first.height() >= 300.0,
        "room to work: {first:?}"
    );

    // Editor: select an agent (its inspector fills the right panel), then a polygon obstacle.
    tool(&mut h, "Select");
    let agent = scene(&h).agents[0].position;
    click_world(&mut h, agent);
    assert!(shows(&h, "heading"), "the agent inspector is shown");
    assert_eq!(canvas(&h), first, "selecting an agent moved the canvas");
    key(&mut h, Key::Escape);
    assert_eq!(canvas(&h), first);

    // Simulator: the same panels, the run inspector on the right where the editor's was.
    h.get_by_label("Step").click();
    settle(&mut h);
    assert!(!h.state().is_editing());
    assert_eq!(canvas(&h), first, "switching to the simulator moved the canvas");
    let id = h.state().frame().unwrap().agents[0].id;
    h.state_mut().select(Some(id));
    settle(&mut h);
    assert!(shows(&h, "Forces by behaviour"), "the run inspector is shown");
    assert_eq!(canvas(&h), first, "selecting an agent in the run moved the canvas");
}

#[test]
fn a_drawn_measurement_area_gets_its_density_plot_and_a_line_its_crossings() {
    let mut h = harness();
    tool(&mut h, "Measurement area");
    drag_world(&mut h, Vec2::new(-9.5, -2.0), Vec2::new(-4.0, 2.0));
    tool(&mut h, "Measurement line");
    drag_world(&mut h, Vec2::new(-2.0, -3.0), Vec2::new(-2.0, 3.0));
    let drawn = scene(&h);
    assert_eq!(drawn.measurement_areas.len(), 1);
    assert_eq!(drawn.measurement_lines.len(), 1);
    let area = drawn.measurement_areas[0].clone();
    assert_eq!((area.min, area.max), (Vec2::new(-9.5, -2.0), Vec2::new(-4.0, 2.0)));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(scene(&h).measurement_lines.is_empty(), "undo removes the line");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(*scene(&h), *drawn, "redo brings it back");

    // Run 40 ticks: the walker starting at (-9, 0) is inside the area at first.
    for _ in 0..40 {
        h.get_by_label("Step").click();
        h.run();
    }
    h.get_by_label("Analysis").click();
    settle(&mut h);
    assert!(shows(&h, "Measurement areas"), "the density plot is shown");
    assert!(shows(&h, "Fundamental diagram"));
    let metrics = h.state().frames().metrics().expect("metrics of the live run").clone();
    let series = &metrics.crowd.areas[0];
    assert_eq!(series.id, area.id);
    let first = series.samples[0];
    let inside = scene(&h).agents.iter().filter(|a| area.contains(a.position)).count() as u32;
    assert_eq!(first.count, inside, "tick 0 counts the agents placed inside");
    assert!((first.density - inside as f32 / area.area()).abs() < 1e-6);
    assert_eq!(metrics.crowd.lines[0].id, drawn.measurement_lines[0].id);
}

#[test]
fn the_scene_bounds_are_drawn_and_edited_in_the_panel_and_a_paths_corridor_is_drawn() {
    let mut h = harness();
    let before = scene(&h).bounds;
    let set = |h: &mut Harness<'_, CrowdlabApp>, corner: &str, nth: usize, value: f32| {
        let corner = corner.to_string();
        h.query_all_by(move |n| {
            n.role() == eframe::egui::Role::SpinButton && n.label().as_deref() == Some(corner.as_str())
        })
        .nth(nth)
        .expect("a bounds field")
        .set_value_accesskit(f64::from(value));
        settle(h);
    };
    set(&mut h, "bounds max", 0, before.max.x + 12.0);
    set(&mut h, "bounds min", 1, before.min.y - 3.0);
    let bounds = scene(&h).bounds;
    assert_eq!(bounds.max, Vec2::new(before.max.x + 12.0, before.max.y));
    assert_eq!(bounds.min, Vec2::new(before.min.x, before.min.y - 3.0));
    // The editor draws the bounds as a closed rectangle through their corners.
    let list = crowdlab::draw::build_scene_draw_list(&scene(&h));
    let rectangle = list.shapes.iter().any(|s| {
        matches!(s, crowdlab::draw::Shape::Polyline { points, closed: true, .. }
            if points.len() == 4 && points.contains(&bounds.min) && points.contains(&bounds.max))
    });
    assert!(rectangle, "the bounds rectangle is drawn");
    tool(&mut h, "Undo");
    assert_eq!(scene(&h).bounds.min, before.min, "each edit undoes on its own");
    tool(&mut h, "Undo");
    assert_eq!(scene(&h).bounds, before);

    // A path's corridor: two edges half its width either side of it.
    let mut with_path = default_scene();
    with_path.paths.push(crowdlab::scene::Path {
        id: "lane".into(),
        points: vec![Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0)],
        width: 3.0,
        closed: false,
    });
    let list = crowdlab::draw::build_scene_draw_list(&with_path);
    let edges: Vec<Vec<Vec2>> = list
        .shapes
        .iter()
        .filter_map(|s| match s {
            crowdlab::draw::Shape::Polyline {
                points, closed: false, ..
            } if points.len() == 2 => Some(points.clone()),
            _ => None,
        })
        .filter(|p| p[0].y.abs() == 1.5)
        .collect();
    assert_eq!(edges.len(), 2, "both corridor edges, 1.5 m either side");
}
