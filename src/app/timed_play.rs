//! The real-window frame-time check (`crowdlab SCENE --play-seconds S [--speed NAME]`): opens the
//! window, presses Play at the chosen speed and, from the first tick drawn, plays for `S` wall
//! seconds, then pauses and goes on drawing frames for [`PAUSED_SECONDS`] (as when the pointer
//! moves over a paused run). For each part it prints the ticks simulated per wall second, the
//! frames per second and each frame's CPU time as eframe measures it (the app's update,
//! tessellation and the renderer's calls, waiting for the display's refresh excluded): median,
//! 95th percentile and slowest.
//! The figure the canvas's speed work is judged by in a real window; `cargo bench --bench live`
//! measures the same frames without a window or renderer. With a software renderer compare the
//! frames per second: egui's own drawing is rasterised during the buffer swap, outside the CPU
//! time, while a canvas picture is finished within the frame.

use std::sync::{Arc, Mutex};

use eframe::egui::{self, Ui, ViewportCommand};

use super::command::Command;
use super::state::CrowdlabApp;
use super::time::{Speed, TimeCommand};

/// Wall seconds of frames timed after pausing.
const PAUSED_SECONDS: f64 = 3.0;

/// Where the timed play is.
#[derive(Clone, Copy)]
enum Phase {
    /// Waiting for the first tick to be drawn.
    Starting,
    /// Playing since this time of the UI's clock, from this tick.
    Playing(f64, u64),
    /// Paused since this time of the UI's clock; false in the first paused frame, which reports
    /// the last playing one's time.
    Paused(f64, bool),
    /// Reported; the window is closing.
    Done,
}

/// Plays the app for a while in a real window and measures its frames.
pub struct TimedPlay {
    app: CrowdlabApp,
    seconds: f64,
    phase: Phase,
    /// The CPU time of each frame of the current part, in milliseconds.
    frame_ms: Vec<f64>,
    /// The playing part's report line, once it is done.
    played: Option<String>,
    /// The report, shared with the caller of `eframe::run_native`.
    pub report: Arc<Mutex<Option<String>>>,
}

impl TimedPlay {
    /// A timed play of `app` at `speed` for `seconds` of wall time.
    pub fn new(mut app: CrowdlabApp, seconds: f64, speed: Speed) -> TimedPlay {
        app.apply(Command::Time(TimeCommand::SetSpeed(speed)));
        app.apply(Command::Time(TimeCommand::Play));
        TimedPlay {
            app,
            seconds,
            phase: Phase::Starting,
            frame_ms: Vec::new(),
            played: None,
            report: Arc::new(Mutex::new(None)),
        }
    }
}

impl eframe::App for TimedPlay {
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        eframe::App::clear_color(&self.app, visuals)
    }

    fn ui(&mut self, ui: &mut Ui, frame: &mut eframe::Frame) {
        self.app.use_renderer(frame);
        self.app.show(ui);
        let now = ui.input(|i| i.time);
        let tick = self.app.time().tick();
        // The previous frame's time: the first one measured is the frame that drew the first
        // tick.
        let previous_ms = frame.info().cpu_usage.map(|s| f64::from(s) * 1e3);
        match self.phase {
            Phase::Starting if tick > 0 => self.phase = Phase::Playing(now, tick),
            Phase::Starting | Phase::Done => {}
            Phase::Playing(began, first_tick) => {
                self.frame_ms.extend(previous_ms);
                let elapsed = now - began;
                if elapsed >= self.seconds || !self.app.time().is_playing() {
                    let ticks = (tick - first_tick) as f64 / elapsed;
                    let frames = std::mem::take(&mut self.frame_ms);
                    self.played = Some(format!("playing: {}", frame_report(ticks, frames, elapsed)));
                    self.app.apply(Command::Time(TimeCommand::Pause));
                    self.phase = Phase::Paused(now, false);
                }
            }
            Phase::Paused(began, measuring) => {
                self.frame_ms.extend(previous_ms.filter(|_| measuring));
                self.phase = Phase::Paused(began, true);
                let elapsed = now - began;
                if elapsed >= PAUSED_SECONDS {
                    let frames = std::mem::take(&mut self.frame_ms);
                    let paused = format!("paused: {}", frame_report(0.0, frames, elapsed));
                    let played = self.played.take().unwrap_or_default();
                    *self.report.lock().expect("report") = Some(format!("{played}\n{paused}"));
                    ui.ctx().send_viewport_cmd(ViewportCommand::Close);
                    self.phase = Phase::Done;
                }
            }
        }
        ui.ctx().request_repaint();
    }
}

/// One line: ticks per second, frames per second and the frames' CPU milliseconds.
fn frame_report(ticks_per_second: f64, mut frame_ms: Vec<f64>, seconds: f64) -> String {
    frame_ms.sort_by(f64::total_cmp);
    let at = |q: f64| {
        frame_ms
            .get(((frame_ms.len() as f64 - 1.0) * q).round() as usize)
            .copied()
    };
    let ms = |q| at(q).map_or("-".to_owned(), |v| format!("{v:.1}"));
    format!(
        "{ticks_per_second:.1} ticks/s, {:.1} frames/s; frame CPU time (ms): median {}, p95 {}, slowest {} ({} frames)",
        frame_ms.len() as f64 / seconds,
        ms(0.5),
        ms(0.95),
        ms(1.0),
        frame_ms.len(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_gives_the_median_the_95th_percentile_and_the_slowest_frame() {
        let frames: Vec<f64> = (1..=101).rev().map(f64::from).collect();
        assert_eq!(
            frame_report(9.96, frames, 10.0),
            "10.0 ticks/s, 10.1 frames/s; frame CPU time (ms): median 51.0, p95 96.0, slowest 101.0 (101 frames)"
        );
        assert!(frame_report(0.0, Vec::new(), 1.0).contains("median -"));
    }
}
