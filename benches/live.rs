//! Live play: the GUI's time control driving a live run at a steady 60 UI frames per second, as
//! the window does.
//!
//! - The default scene, time control alone, ten wall seconds: simulated seconds per wall second
//!   at 1x (issue target: within 5 % of 1.0) and at the fastest speed.
//! - 5,000 walkers in the whole app (every panel, the canvas with its overlays, tessellated as
//!   the window does; no GPU), started with Play: simulated ticks per wall second at 1x (target:
//!   real time, 10 ticks/s at dt 0.1) and at the fastest speed (target ≥ 30), with the UI frame's
//!   median and 95th percentile.
//!
//! Without a GL context the canvas hands its meshes to egui, which copies them into its own at
//! each frame's end, and that is what this bench times. In a window under eframe's glow renderer
//! the canvas draws its layers from buffers on the GPU instead; `crowdlab SCENE --play-seconds S`
//! times those frames in a real window.
//!
//! Run: `cargo bench --bench live`; `cargo bench --bench live -- 10000` plays 10,000 walkers
//! in the app instead of 5,000.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crowdlab::app::{Command, CrowdlabApp, Frames, Speed, TimeCommand, TimeControl};
use crowdlab::scene::default_scene;
use egui_kittest::Harness;

#[path = "support/crowd.rs"]
mod crowd;

/// One UI frame at 60 Hz.
const FRAME: Duration = Duration::from_micros(16_667);

/// Plays the default scene at `speed` for `wall` seconds of 60 Hz UI frames; simulated seconds
/// per wall second.
fn play(speed: Speed, wall: f64) -> f64 {
    let scene = Arc::new(default_scene());
    let dt = f64::from(scene.settings.dt);
    let mut frames = Frames::live(scene);
    let mut time = TimeControl::new(&frames);
    time.apply(TimeCommand::SetSpeed(speed), &mut frames);
    time.apply(TimeCommand::Play, &mut frames);
    let start = Instant::now();
    let mut last = start;
    let first_tick = time.tick();
    while start.elapsed().as_secs_f64() < wall && time.is_playing() {
        std::thread::sleep(Duration::from_millis(16));
        let now = Instant::now();
        frames.poll();
        time.advance((now - last).as_secs_f64(), &mut frames);
        frames.load(time.tick()).expect("the live run has the tick");
        last = now;
    }
    (time.tick() - first_tick) as f64 * dt / start.elapsed().as_secs_f64()
}

/// Plays `agents` walkers in the whole app at `speed` for `wall` seconds, a UI frame (the app and
/// tessellating its shapes) every 1/60 s or as soon as the last one ends; simulated ticks per
/// wall second and the frames' times in milliseconds, sorted.
fn play_in_app(agents: usize, speed: Speed, wall: f64) -> (f64, Vec<f64>) {
    let mut harness = Harness::builder().with_size([1600.0, 1000.0]).build_ui_state(
        |ui, app: &mut CrowdlabApp| app.show(ui),
        CrowdlabApp::new(crowd::lattice_crowd(agents)),
    );
    // The window's clock: egui takes each frame's time step from it, as under eframe.
    let clock = Instant::now();
    let frame = |harness: &mut Harness<'_, CrowdlabApp>| {
        harness.input_mut().time = Some(clock.elapsed().as_secs_f64());
        harness.step();
    };
    harness.state_mut().apply(Command::Time(TimeCommand::SetSpeed(speed)));
    harness.state_mut().apply(Command::Time(TimeCommand::Play));
    frame(&mut harness);
    assert!(!harness.state().is_editing(), "Play started the run");
    let ppp = harness.ctx.pixels_per_point();
    // The first ticks fill the worker's pipeline; measure from the first drawn one.
    while harness.state().time().tick() == 0 {
        frame(&mut harness);
        std::thread::sleep(Duration::from_millis(1));
    }
    let first_tick = harness.state().time().tick();
    let start = Instant::now();
    let mut times = Vec::new();
    while start.elapsed().as_secs_f64() < wall && harness.state().time().is_playing() {
        let began = Instant::now();
        frame(&mut harness);
        let meshes = harness.ctx.tessellate(harness.output().shapes.clone(), ppp);
        std::hint::black_box(meshes);
        let took = began.elapsed();
        times.push(took.as_secs_f64() * 1e3);
        std::thread::sleep(FRAME.saturating_sub(took));
    }
    let ticks = harness.state().time().tick() - first_tick;
    times.sort_by(f64::total_cmp);
    (ticks as f64 / start.elapsed().as_secs_f64(), times)
}

/// The `q` quantile of sorted `times`.
fn quantile(times: &[f64], q: f64) -> f64 {
    times[((times.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let walkers = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(5_000);
    let realtime = play(Speed::RealTime, 10.0);
    println!("live play at 1x, default scene: {realtime:.3} simulated s per wall s");
    let fastest = play(Speed::Fastest, 5.0);
    println!("live play at fastest, default scene: {fastest:.1} simulated s per wall s");
    for (speed, name, target, wall) in [
        (Speed::RealTime, "1x", "10", 10.0),
        (Speed::Fastest, "fastest", ">= 30", 5.0),
    ] {
        let (rate, times) = play_in_app(walkers, speed, wall);
        println!(
            "live run in the app, {walkers} walkers, overlays on, at {name}: {rate:.1} ticks per wall s (target {target}); \
             UI frame median {:.1} ms, p95 {:.1} ms",
            quantile(&times, 0.5),
            quantile(&times, 0.95)
        );
    }
}
