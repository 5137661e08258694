//! The real-window check (`crowdlab SCENE --run-ticks N --screenshot out.png`): opens the window,
//! steps the simulation to tick N (Step commands, as fast as it can), takes a screenshot of the whole window
//! through the viewport (`ViewportCommand::Screenshot`), writes it as PNG and closes.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use eframe::egui;
use egui::{ColorImage, ScreenshotCallback, Ui, ViewportCommand};

use super::command::Command;
use super::state::CrowdlabApp;
use super::time::TimeCommand;

/// Steps taken per frame while running towards the wanted tick.
const STEPS_PER_FRAME: u32 = 10;
/// Frames drawn after the run stops before the screenshot, so the canvas shows the final tick
/// (and then as many more as its pictures drawn on the CPU take to catch up).
const SETTLE_FRAMES: u32 = 3;

/// What the screenshot run is waiting for.
enum Phase {
    Start,
    Running,
    Settling(u32),
    Shooting,
    Done,
}

/// Wraps the app: runs `ticks` ticks, then screenshots the window into `path` and closes it.
pub struct ScreenshotRun {
    app: CrowdlabApp,
    ticks: u64,
    path: PathBuf,
    phase: Phase,
    image: Arc<Mutex<Option<Arc<ColorImage>>>>,
    /// The outcome, shared with the caller of `eframe::run_native`.
    pub outcome: Arc<Mutex<Option<Result<(), String>>>>,
}

impl ScreenshotRun {
    /// A screenshot run of `app`.
    pub fn new(app: CrowdlabApp, ticks: u64, path: PathBuf) -> ScreenshotRun {
        ScreenshotRun {
            app,
            ticks,
            path,
            phase: Phase::Start,
            image: Arc::new(Mutex::new(None)),
            outcome: Arc::new(Mutex::new(None)),
        }
    }

    fn write_png(&self, image: &ColorImage) -> Result<(), String> {
        let [w, h] = image.size;
        let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
        let rgba = image::RgbaImage::from_raw(w as u32, h as u32, bytes)
            .ok_or_else(|| format!("screenshot of {w}x{h} pixels has the wrong size"))?;
        rgba.save(&self.path)
            .map_err(|e| format!("{}: cannot write the screenshot: {e}", self.path.display()))
    }
}

impl eframe::App for ScreenshotRun {
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        eframe::App::clear_color(&self.app, visuals)
    }

    fn ui(&mut self, ui: &mut Ui, frame: &mut eframe::Frame) {
        self.app.use_renderer(frame);
        self.app.show(ui);
        let ctx = ui.ctx().clone();
        let (time, frames) = (self.app.time(), self.app.frames());
        self.phase = match self.phase {
            Phase::Start | Phase::Running if time.tick() >= self.ticks || !time.can_step_forward(frames) => {
                Phase::Settling(SETTLE_FRAMES)
            }
            Phase::Start | Phase::Running => {
                for _ in 0..STEPS_PER_FRAME {
                    if self.app.time().tick() < self.ticks {
                        self.app.apply(Command::Time(TimeCommand::StepForward));
                    }
                }
                Phase::Running
            }
            Phase::Settling(0) if !self.app.canvas.picture_current() => Phase::Settling(0),
            Phase::Settling(0) => {
                let slot = self.image.clone();
                let waker = ctx.clone();
                ctx.send_viewport_cmd(ViewportCommand::Screenshot(ScreenshotCallback::new(move |image| {
                    *slot.lock().expect("screenshot slot") = Some(image);
                    waker.request_repaint();
                })));
                Phase::Shooting
            }
            Phase::Settling(n) => Phase::Settling(n - 1),
            Phase::Shooting => match self.image.lock().expect("screenshot slot").take() {
                Some(image) => {
                    *self.outcome.lock().expect("outcome") = Some(self.write_png(&image));
                    ctx.send_viewport_cmd(ViewportCommand::Close);
                    Phase::Done
                }
                None => Phase::Shooting,
            },
            Phase::Done => Phase::Done,
        };
        ctx.request_repaint();
    }
}
