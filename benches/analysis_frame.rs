//! Frame time of the window with the analysis panel's plots open on a large recording: 1,000
//! agents over 6,000 ticks with a measurement area and line, an agent selected (its plots and its
//! timeline row), replaying at 1x. A frame is what the window does each time it draws: the whole
//! UI (`CrowdlabApp::show`, through egui_kittest without a window) plus tessellating its shapes;
//! the GPU upload is left out. Prints the median, 95th percentile and worst frame (issue target:
//! ≤ 16 ms).
//!
//! The recording is written once to `target/bench-data/` and reused.
//!
//! Run: `cargo bench --bench analysis_frame`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crowdlab::app::CrowdlabApp;
use crowdlab::record::RecordingWriter;
use crowdlab::scene::{ArrivalPolicy, MeasurementArea, MeasurementLine};
use crowdlab::sim::World;
use crowdlab::sim::run::header_for;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Vec2;

#[path = "support/crowd.rs"]
mod crowd;

const AGENTS: usize = 1_000;
const TICKS: u64 = 6_000;
/// Frames measured.
const FRAMES: usize = 300;

/// Writes the benchmark recording to `path` unless it is already there.
fn ensure_recording(path: &Path) {
    if path.exists() {
        return;
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut scene = crowd::lattice_crowd(AGENTS);
    scene.settings.on_arrival = ArrivalPolicy::Stop;
    scene.settings.duration = TICKS as f32 * scene.settings.dt;
    scene.measurement_areas.push(MeasurementArea {
        id: "centre".into(),
        min: Vec2::splat(-4.0),
        max: Vec2::splat(4.0),
    });
    scene.measurement_lines.push(MeasurementLine {
        id: "axis".into(),
        a: Vec2::new(0.0, -20.0),
        b: Vec2::new(0.0, 20.0),
    });
    let mut world = World::new(Arc::new(scene));
    let partial = path.with_extension("partial");
    let mut writer = RecordingWriter::create(&partial, &header_for(&world)).unwrap();
    writer.push(&world.snapshot_frame()).unwrap();
    let started = Instant::now();
    for tick in 1..=TICKS {
        writer.push(&world.step()).unwrap();
        if tick % 1000 == 0 {
            eprintln!(
                "recorded {tick} of {TICKS} ticks ({:.0} s)",
                started.elapsed().as_secs_f64()
            );
        }
    }
    writer.finish().unwrap();
    std::fs::rename(&partial, path).unwrap();
}

/// Steps `harness` until `done`, at most `limit` wall time.
fn wait(harness: &mut Harness<'_, CrowdlabApp>, limit: Duration, done: impl Fn(&CrowdlabApp) -> bool) {
    let started = Instant::now();
    while !done(harness.state()) {
        assert!(started.elapsed() < limit, "gave up waiting after {limit:?}");
        harness.step();
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn main() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/analysis_1000x6000.crowdrec");
    ensure_recording(&path);
    let mut harness = Harness::builder().with_size([1400.0, 900.0]).build_ui_state(
        |ui, app: &mut CrowdlabApp| app.show(ui),
        CrowdlabApp::new(crowdlab::scene::default_scene()),
    );
    harness.state_mut().open_path(&path);
    let started = Instant::now();
    wait(&mut harness, Duration::from_secs(600), |app| {
        app.frames().summaries().len() as u64 == TICKS + 1 && app.frames().metrics().is_some()
    });
    println!("recording scanned in {:.1} s", started.elapsed().as_secs_f64());
    harness.get_by_label("Analysis").click();
    harness.step();
    harness.state_mut().select(Some(0));
    wait(&mut harness, Duration::from_secs(600), |app| {
        app.plots()
            .agent_series()
            .is_some_and(|s| s.speed.len() as u64 == TICKS + 1)
    });
    harness.get_by_label("Play").click();
    harness.step();

    let open = measure(&mut harness);
    assert!(harness.state().time().is_playing(), "the replay played throughout");
    println!(
        "analysis panel, plots tab, {AGENTS} agents x {TICKS} ticks, agent selected, replaying at 1x: {open} \
         (target <= 16 ms)"
    );
    harness.get_by_label("Analysis").click();
    harness.step();
    println!(
        "the same with the analysis panel closed (canvas, timeline, panels): {}",
        measure(&mut harness)
    );
}

/// Times [`FRAMES`] frames (the UI and tessellating its shapes); their median, 95th percentile
/// and worst, in words.
fn measure(harness: &mut Harness<'_, CrowdlabApp>) -> String {
    let ppp = harness.ctx.pixels_per_point();
    let mut times = Vec::with_capacity(FRAMES);
    for _ in 0..FRAMES {
        let started = Instant::now();
        harness.step();
        let shapes = harness.output().shapes.clone();
        let meshes = harness.ctx.tessellate(shapes, ppp);
        std::hint::black_box(meshes);
        times.push(started.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    format!(
        "frame median {:.2} ms, p95 {:.2} ms, worst {:.2} ms",
        at(0.5),
        at(0.95),
        at(1.0)
    )
}
