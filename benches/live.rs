//! Live play at 1x: the GUI's time control driving a live run of the default scene at a steady
//! 60 UI frames per second, as the window does, for ten wall seconds; prints simulated seconds
//! per wall second (issue target: within 5 % of 1.0) and the same at the fastest speed.
//!
//! Run: `cargo bench --bench live`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crowdlab::app::{Frames, Speed, TimeCommand, TimeControl};
use crowdlab::scene::default_scene;

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

fn main() {
    let realtime = play(Speed::RealTime, 10.0);
    println!("live play at 1x, default scene: {realtime:.3} simulated s per wall s");
    let fastest = play(Speed::Fastest, 5.0);
    println!("live play at fastest, default scene: {fastest:.1} simulated s per wall s");
}
