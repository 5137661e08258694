//! GUI tests through egui_kittest: the real window contents, driven by clicking the widgets
//! found by their accessible labels, checked on screen (labels) and in the app state.

use crate::common;

use crowdlab::app::{CrowdlabApp, Question, Severity};
use crowdlab::scene::{default_scene, load_scene};
use eframe::egui::{Color32, Rect, Role, Shape, pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

fn harness() -> Harness<'static, CrowdlabApp> {
    Harness::builder().with_size([1280.0, 800.0]).build_ui_state(
        |ui, app: &mut CrowdlabApp| app.show(ui),
        CrowdlabApp::new(default_scene()),
    )
}

/// The tick number shown in the time panel's `tick N` read-out.
fn shown_tick(harness: &Harness<'_, CrowdlabApp>) -> u64 {
    let tick_of = |text: &str| text.strip_prefix("tick ").and_then(|n| n.parse::<u64>().ok());
    let node = harness.get_by(move |n| n.role() == Role::Label && n.value().as_deref().and_then(tick_of).is_some());
    node.accesskit_node().value().as_deref().and_then(tick_of).unwrap()
}

/// True when some text on screen contains `text`.
fn shows(harness: &Harness<'_, CrowdlabApp>, text: &str) -> bool {
    let text = text.to_string();
    harness
        .query_all_by(move |n| n.value().is_some_and(|v| v.contains(&text)))
        .next()
        .is_some()
}

#[test]
fn run_button_simulates_until_paused() {
    let mut harness = harness();
    assert_eq!(shown_tick(&harness), 0);
    assert!(shows(&harness, "not started"));
    assert_eq!(harness.state().frames().tick_range(), None);

    harness.get_by_label("Play").click();
    // The simulation runs on its worker thread: keep drawing frames until it has delivered some.
    for _ in 0..2000 {
        harness.step();
        if harness.state().time().tick() >= 5 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    harness.step();
    let app = harness.state();
    assert!(app.time().is_playing());
    let tick = app.time().tick();
    assert!(
        tick >= 5,
        "real-time play at dt 0.1 should simulate several ticks, got {tick}"
    );
    let (first, newest) = app.frames().tick_range().unwrap();
    assert_eq!(first, 0);
    assert!(newest >= tick, "the cursor never passes the newest frame");
    assert!(app.frames().step_ms().is_some());
    assert_eq!(shown_tick(&harness), tick);
    assert!(shows(&harness, "running"));
    assert!(shows(&harness, "ms/tick"));

    harness.get_by_label("Pause").click();
    harness.run();
    let paused_at = harness.state().time().tick();
    harness.run_steps(5);
    assert!(!harness.state().time().is_playing());
    assert_eq!(harness.state().time().tick(), paused_at, "a paused run stays put");
    assert!(shows(&harness, "paused"));
}

#[test]
fn step_advances_exactly_one_tick() {
    let mut harness = harness();
    for expected in 1..=3 {
        harness.get_by_label("Step").click();
        harness.run();
        assert_eq!(harness.state().time().tick(), expected);
        assert_eq!(harness.state().frames().tick_range(), Some((0, expected)));
        assert_eq!(shown_tick(&harness), expected);
    }
    assert!(!harness.state().time().is_playing());
}

#[test]
fn slider_scrubs_back_and_reset_discards_the_run() {
    let mut harness = harness();
    for _ in 0..6 {
        harness.get_by_label("Step").click();
        harness.run();
    }
    let first_position = |app: &CrowdlabApp| app.frame().unwrap().agents[0].position;
    let at_six = first_position(harness.state());

    harness
        .get_by_role_and_label(Role::Slider, "tick")
        .set_value_accesskit(2.0);
    harness.run();
    let app = harness.state();
    assert_eq!(app.time().tick(), 2);
    assert_eq!(
        app.frames().tick_range(),
        Some((0, 6)),
        "scrubbing keeps the recorded ticks"
    );
    assert_eq!(app.frame().unwrap().tick, 2);
    assert_ne!(first_position(app), at_six, "the canvas frame is the scrubbed tick's");
    assert_eq!(shown_tick(&harness), 2);

    // Stepping from a scrubbed cursor replays the next recorded tick instead of simulating one.
    harness.get_by_label("Step").click();
    harness.run();
    assert_eq!(harness.state().time().tick(), 3);
    assert_eq!(harness.state().frames().tick_range(), Some((0, 6)));

    // Reset asks before it drops the run.
    harness.get_by_label("Reset").click();
    harness.run();
    assert_eq!(harness.state().question(), Some(&Question::ResetRun(6)));
    harness.get_by_label("Discard run").click();
    harness.run();
    let app = harness.state();
    assert_eq!((app.time().tick(), app.frames().tick_range()), (0, None));
    assert!(app.frame().is_none(), "back to the start points");
    assert_eq!(shown_tick(&harness), 0);
    assert!(shows(&harness, "not started"));
}

#[test]
fn overlay_checkboxes_toggle_the_force_arrows() {
    let mut harness = harness();
    assert!(harness.state().overlays().forces);
    // The overlay panel belongs to the simulator view.
    harness.get_by_label("Step").click();
    harness.run();
    harness.get_by_label("Forces").click();
    harness.get_by_label("Velocity").click();
    harness.run();
    assert!(!harness.state().overlays().forces);
    assert!(harness.state().overlays().velocity);
    // The legend names every force label of the run.
    for label in ["arrive", "separation", "steering"] {
        assert!(shows(&harness, label), "legend entry {label}");
    }
}

#[test]
fn a_bad_file_shows_an_error_and_keeps_the_document() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("broken.ron");
    std::fs::write(&bad, "(version: 1, name: \"oops\",").unwrap();
    let mut harness = harness();
    harness.get_by_label("Step").click();
    harness.run();
    let title = harness.state().document().title();

    harness.state_mut().open_path(&bad);
    harness.run();
    let app = harness.state();
    let notice = app.notice().expect("an error notice");
    assert_eq!(notice.severity, Severity::Error);
    assert!(notice.text.contains("broken.ron"), "{}", notice.text);
    assert!(shows(&harness, "broken.ron"), "the error is on screen");
    assert_eq!(app.document().title(), title);
    assert_eq!(app.time().tick(), 1, "the run is intact");

    harness.get_by_label("Dismiss").click();
    harness.run();
    assert!(harness.state().notice().is_none());
    assert!(!shows(&harness, "broken.ron"));
}

#[test]
fn a_recording_replays_without_its_scene_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plaza.crowdrec");
    common::record_default_scene(&path, 8);

    let mut harness = harness();
    harness.state_mut().open_path(&path);
    harness.run();
    let app = harness.state();
    assert!(app.notice().is_none());
    assert!(!app.frames().is_live());
    assert_eq!(app.document().title(), "crowdlab — plaza.crowdrec");
    assert_eq!(app.frames().tick_range(), Some((0, 8)));
    assert_eq!(app.frame().unwrap().tick, 0);

    harness.get_by_label("Play").click();
    harness.run_steps(10);
    let app = harness.state();
    assert_eq!(app.time().tick(), 8, "replayed to the last recorded tick");
    assert!(!app.time().is_playing(), "and stopped there");
    assert!(shows(&harness, "end of recording"));
}

#[test]
fn editing_a_setting_marks_the_document_and_save_clears_the_mark() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.ron");
    let mut harness = harness();
    harness.get_by_label("Step").click();
    harness.run();
    assert!(!harness.state().document().modified);

    harness.get_by_label("seed").set_value_accesskit(42.0);
    harness.run();
    let app = harness.state();
    assert_eq!(app.document().scene.settings.seed, 42);
    assert!(app.document().title().ends_with(" *"), "{}", app.document().title());
    assert_eq!(
        app.frames().tick_range(),
        None,
        "the old run no longer matches the scene"
    );

    harness.state_mut().save_to(&path);
    harness.run();
    let app = harness.state();
    assert_eq!(app.document().title(), "crowdlab — edited.ron");
    assert_eq!(load_scene(&path).unwrap(), *app.document().scene);
}

#[test]
fn saving_an_opened_scene_keeps_its_comments_and_layout_and_changes_only_the_edited_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("evacuation.ron");
    let original = include_str!("../../scenes/oblak_evacuation.ron");
    std::fs::write(&path, original).unwrap();
    let mut harness = harness();
    harness.state_mut().open_path(&path);
    harness.run();
    harness.get_by_label("seed").set_value_accesskit(12.0);
    harness.run();
    harness.get_by_label("Save").click();
    harness.run();
    assert!(shows(&harness, "Saved"), "a notice says it was saved");
    let saved = std::fs::read_to_string(&path).unwrap();
    let before: Vec<&str> = original.lines().collect();
    let after: Vec<&str> = saved.lines().collect();
    assert_eq!(before.len(), after.len(), "{saved}");
    let changed: Vec<(&str, &str)> = before.into_iter().zip(after).filter(|(a, b)| a != b).collect();
    assert_eq!(changed.len(), 1, "{changed:#?}");
    assert!(changed[0].1.contains("seed: 12,"), "{changed:#?}");
    assert_eq!(load_scene(&path).unwrap(), *harness.state().document().scene);
}

/// The app with crowdlab's own file browser instead of native dialogs.
fn browsing_harness() -> Harness<'static, CrowdlabApp> {
    Harness::builder().with_size([1280.0, 800.0]).build_ui_state(
        |ui, app: &mut CrowdlabApp| app.show(ui),
        CrowdlabApp::new(default_scene()).with_builtin_file_dialogs(),
    )
}

/// Replaces the text of the field labelled `label` with `text` (and presses Enter when asked).
fn fill(harness: &mut Harness<'_, CrowdlabApp>, label: &str, text: &str, enter: bool) {
    harness.get_by_label(label).focus();
    harness.run();
    harness.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::A);
    harness.get_by_label(label).type_text(text);
    harness.run();
    if enter {
        harness.key_press(eframe::egui::Key::Enter);
    }
    harness.run_steps(3);
}

/// Steps the live run `n` ticks with the time panel's Step button.
fn step(harness: &mut Harness<'_, CrowdlabApp>, n: usize) {
    for _ in 0..n {
        harness.get_by_label("Step").click();
        harness.run();
    }
}

#[test]
fn the_in_app_browser_saves_a_scene_and_opens_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = browsing_harness();
    harness.get_by_label("Save As").click();
    harness.run();
    assert!(shows(&harness, "Save scene"), "the browser opened");
    fill(&mut harness, "Path", &dir.path().display().to_string(), true);
    fill(&mut harness, "File name", "round trip", false);
    harness.get_by_label("Save file").click();
    harness.run_steps(3);
    let saved = dir.path().join("round trip.ron");
    assert_eq!(load_scene(&saved).unwrap(), default_scene(), "the file holds the scene");
    assert!(shows(&harness, "Saved"), "a notice says it was saved");
    assert_eq!(harness.state().document().source.as_deref(), Some(saved.as_path()));

    harness.get_by_label("Open").click();
    harness.run();
    assert!(shows(&harness, "Open a scene or recording"));
    fill(&mut harness, "Path", &saved.display().to_string(), true);
    assert!(!harness.state().document().modified);
    assert_eq!(
        harness.state().recent_files().first().map(|p| p.as_path()),
        Some(saved.as_path())
    );

    // A path that does not exist is reported in the browser, not ignored.
    harness.get_by_label("Open").click();
    harness.run();
    fill(
        &mut harness,
        "Path",
        &dir.path().join("missing.ron").display().to_string(),
        true,
    );
    assert!(shows(&harness, "does not exist"));
    harness.get_by_label("Cancel").click();
    harness.run();
    assert!(
        !shows(&harness, "Open a scene or recording"),
        "Cancel closes the browser"
    );
}

#[test]
fn a_run_saved_from_the_app_reopens_with_the_same_frames() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = browsing_harness();
    step(&mut harness, 6);
    let recorded = harness.state().frames().tick_range().unwrap();
    harness.get_by_label("Save run").click();
    harness.run();
    fill(&mut harness, "Path", &dir.path().display().to_string(), true);
    fill(&mut harness, "File name", "run", false);
    harness.get_by_label("Save file").click();
    harness.run_steps(3);
    let file = dir.path().join("run.crowdrec");
    assert!(
        shows(&harness, "Saved the run (7 frames)"),
        "the notice counts the frames"
    );
    let reader = crowdlab::record::RecordingReader::open(&file).unwrap();
    assert_eq!((reader.first_tick(), reader.last_tick()), recorded);
    let live = harness.state().frames().source().frame(recorded.1).unwrap();
    assert_eq!(reader.frame_at(recorded.1).unwrap(), crowdlab::record::quantise(&live));

    harness.state_mut().open_path(&file);
    harness.run();
    assert!(!harness.state().frames().is_live());
    assert_eq!(harness.state().frames().tick_range(), Some(recorded));
}

#[test]
fn the_export_dialog_writes_what_crowdlab_export_writes() {
    let dir = tempfile::tempdir().unwrap();
    let recording = dir.path().join("run.crowdrec");
    common::record_default_scene(&recording, 4);
    let mut harness = browsing_harness();
    harness.state_mut().open_path(&recording);
    harness.run();
    harness.get_by_label("Export").click();
    harness.run();
    assert!(harness.state().notice().is_none(), "{:?}", harness.state().notice());
    assert!(shows(&harness, "From tick"), "the export dialog is open");
    let (gui, cli) = (dir.path().join("gui"), dir.path().join("cli"));
    fill(
        &mut harness,
        "PNG folder",
        &gui.join("frames").display().to_string(),
        false,
    );
    harness
        .get_by_label("Skeleton XML (Animation Renderer for Crowd)")
        .click();
    harness.get_by_label("CSV trajectories").click();
    harness.run();
    fill(
        &mut harness,
        "Skeleton file",
        &gui.join("run.xml").display().to_string(),
        false,
    );
    fill(
        &mut harness,
        "CSV file",
        &gui.join("run.csv").display().to_string(),
        false,
    );
    harness.get_by_label("Start export").click();
    for _ in 0..200 {
        harness.step();
        if shows(&harness, "Exported") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        shows(&harness, "Exported 5 PNG frames"),
        "the final notice names what was written"
    );
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_crowdlab"))
        .args(["export", recording.to_str().unwrap(), "--png"])
        .arg(cli.join("frames"))
        .arg("--skeleton-xml")
        .arg(cli.join("run.xml"))
        .arg("--csv")
        .arg(cli.join("run.csv"))
        .status()
        .unwrap();
    assert!(status.success());
    for name in ["run.xml", "run.csv"] {
        assert_eq!(
            std::fs::read(gui.join(name)).unwrap(),
            std::fs::read(cli.join(name)).unwrap(),
            "{name}"
        );
    }
    for tick in 0..=4 {
        let name = format!("frames/frame_{tick:06}.png");
        assert_eq!(
            std::fs::read(gui.join(&name)).unwrap(),
            std::fs::read(cli.join(&name)).unwrap(),
            "{name}"
        );
    }
}

/// The rectangles of at least `min_side` points a side filled with `fill` in the last frame.
fn large_fills(harness: &Harness<'_, CrowdlabApp>, fill: Color32, min_side: f32) -> Vec<Rect> {
    fn visit(shape: &Shape, fill: Color32, min_side: f32, out: &mut Vec<Rect>) {
        match shape {
            Shape::Vec(shapes) => shapes.iter().for_each(|s| visit(s, fill, min_side, out)),
            Shape::Rect(r) if r.fill == fill && r.rect.width().min(r.rect.height()) >= min_side => out.push(r.rect),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in &harness.output().shapes {
        visit(&clipped.shape, fill, min_side, &mut out);
    }
    out
}

#[test]
fn the_panels_paint_no_fill_of_their_own_over_the_windows_clear_colour_which_is_theirs() {
    let mut harness = harness();
    let visuals = harness.ctx.global_style().visuals.clone();
    // The harness shows the app inside a frame of the panels' colour, 8 points in from the
    // window's edges, which the window does not have.
    let harness_frame = Rect::from_min_max(pos2(8.0, 8.0), pos2(1272.0, 792.0));
    let panel_fills = |harness: &Harness<'_, CrowdlabApp>| {
        let mut fills = large_fills(harness, visuals.panel_fill, 20.0);
        fills.retain(|r| *r != harness_frame);
        fills
    };
    let clear = eframe::App::clear_color(harness.state(), &visuals);
    assert_eq!(clear, visuals.panel_fill.to_normalized_gamma_f32());
    assert_eq!(clear[3], 1.0, "an opaque clear colour");
    // The editor, then the simulator with the analysis panel open: every panel shows.
    assert!(
        harness.query_by_label("Snap to grid").is_some(),
        "the editor's tools show"
    );
    assert_eq!(panel_fills(&harness), Vec::<Rect>::new());
    harness.get_by_label("Step").click();
    harness.run();
    harness.get_by_label("Analysis").click();
    harness.run();
    assert!(
        harness.query_by_label("Validation").is_some(),
        "the analysis panel's tabs show"
    );
    assert!(harness.query_by_label("Follow selected").is_some(), "the overlays show");
    assert_eq!(panel_fills(&harness), Vec::<Rect>::new());
}
