//! The eframe application: a canvas showing one tick of a recording, a time panel (the whole
//! transport, the slider scrubbing the recorded ticks and the timeline), a small
//! scene-settings panel and file handling.
//!
//! Decisions (DESIGN.md "Data flow"):
//! - The GUI always draws a tick of a recording. A live run appends each stepped frame to a
//!   [`crate::record::MemoryRecording`]; "live view" is the newest tick, and pausing lets the
//!   user scrub back at once. An opened `.crowdrec` is replayed from its file alone (its header
//!   embeds the scene).
//! - Before the first tick is simulated the canvas shows the scene's start points.
//! - The frames ([`Frames`]: a live run or a file) are kept apart from the time cursor over them
//!   ([`TimeControl`], changed only by [`TimeCommand`]s); see [`time`]. The simulation steps on a
//!   worker thread that sends every recorded frame back over a channel; the cursor, paced by
//!   wall time, asks it for the ticks that are due at the chosen speed (real time by default),
//!   so the UI stays responsive at any crowd size.
//! - State lives in plain structs ([`CrowdlabApp`], [`Document`], [`Frames`], [`TimeControl`]);
//!   panels are functions taking `&mut Ui` that return what the user asked for as a [`Command`].
//! - Errors (a bad file, a failed save) appear in a dismissable notice panel; the current
//!   document is kept intact.
//! - Choosing a file never fails silently: the native dialog where a desktop portal can answer,
//!   otherwise crowdlab's own browser (`file_picker`, `file_browser`). Save run and the export
//!   dialog (`export_dialog`) run the same library code as the CLI, exports on a thread of their
//!   own with progress and cancel (`file_actions`).
//! - The window has two views of the document: the editor ([`editor`]: tools, selection,
//!   inspector, undo) and the simulator. Running from the editor switches to the simulator;
//!   going back to editing discards the run after asking. Every scene change is one
//!   [`Command::EditScene`], recorded for undo.

mod analysis;
mod analysis_panel;
mod autosave;
mod background_job;
mod canvas;
mod canvas_meshes;
mod canvas_picture;
mod colour_key;
mod command;
mod compare_job;
mod compare_panel;
mod confirm;
mod context_tessellator;
mod dialog;
mod document;
pub mod editor;
mod export_dialog;
mod file_actions;
mod file_browser;
mod file_picker;
mod files;
mod fill;
mod frame_layers;
mod gpu_canvas;
mod gpu_programs;
mod grid;
mod inspector_run;
mod metrics_panel;
mod notice;
mod overlays_panel;
mod paint;
mod panel_fill;
mod picture_framing;
mod plots;
mod recent;
mod recovery_panel;
mod scene_panel;
mod screenshot;
mod selection;
mod session;
mod state;
pub mod time;
mod timed_play;
mod toolbar;
mod validation_panel;

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use eframe::egui;

pub use analysis_panel::{AnalysisTab, AnalysisView};
pub use background_job::{Job, JobState};
pub use command::Command;
pub use compare_job::Comparison;
pub use confirm::Question;
pub use document::Document;
pub use metrics_panel::{Column, TableSort};
pub use notice::{Notice, Severity};
pub use plots::{AgentSeries, Plots, Series};
pub use selection::{Filter, Selection};
pub use state::CrowdlabApp;
pub use time::{Frames, Loop, PlayState, Speed, TickSource, TimeCommand, TimeControl, TimeWindow, Timeline};
pub use validation_panel::{SuiteChoice, Validation};

/// What the window does besides waiting for the user.
#[derive(Clone, Debug)]
pub enum WindowRun {
    /// Runs this many ticks, writes a screenshot of itself to the PNG and closes (the real-window
    /// check).
    Screenshot(u64, PathBuf),
    /// Plays at the speed for this many wall seconds, prints its frame times and closes.
    TimedPlay(f64, Speed),
}

/// Asks Linux to back the window's process with small pages only. With transparent huge pages,
/// each frame's newly allocated draw lists (megabytes for a large crowd) were faulted in 2 MB
/// pages, each zeroed whole: 4 % of the machine's time while 10,000 agents played. The headless
/// commands keep them: ORCA's ticks ran about 8 % faster with them. A refusal costs only that
/// time, so it is not reported.
fn without_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// Opens the crowdlab window on `initial` (a `.ron` scene or a `.crowdrec` recording) or, without
/// one, on the embedded default scene, and runs it until the window is closed, or until `run` is
/// done. A file that cannot be opened leaves the default scene showing with the error in the
/// window's notice panel.
pub fn run_native(initial: Option<PathBuf>, run: Option<WindowRun>) -> anyhow::Result<()> {
    without_huge_pages();
    let mut app = CrowdlabApp::new(crate::scene::default_scene()).with_state_dir(&crate::crash::state_dir());
    if let Some(path) = initial {
        app.open_path(&path);
    }
    let options = eframe::NativeOptions {
        viewport: eframe::egui::ViewportBuilder::default()
            .with_title(app.document().title())
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0]),
        // egui's dithering adds noise below half a level to every shaded pixel, which changes
        // nothing in crowdlab's flat colours but costs a software renderer a tenth of a frame.
        dithering: false,
        ..Default::default()
    };
    // A signal wakes the window, which closes itself (see `crate::interrupt`).
    let context = Arc::new(OnceLock::<egui::Context>::new());
    let woken = Arc::clone(&context);
    let _signals = crate::interrupt::hand_to_window(move || {
        if let Some(ctx) = woken.get() {
            ctx.request_repaint();
        }
    });
    let open = |app: Box<dyn eframe::App>| {
        let creator = |cc: &eframe::CreationContext<'_>| {
            let _ = context.set(cc.egui_ctx.clone());
            Ok(app)
        };
        eframe::run_native("crowdlab", options, Box::new(creator))
            .map_err(|e| anyhow::anyhow!("cannot open the crowdlab window: {e}"))
    };
    match run {
        None => open(Box::new(app)),
        Some(WindowRun::Screenshot(ticks, png)) => {
            let run = screenshot::ScreenshotRun::new(app, ticks, png.clone());
            let outcome = run.outcome.clone();
            open(Box::new(run))?;
            let result = outcome.lock().expect("outcome").take();
            match result {
                Some(Ok(())) => Ok(()),
                Some(Err(message)) => Err(anyhow::anyhow!(message)),
                None => Err(anyhow::anyhow!(
                    "{}: the window closed before the screenshot was taken",
                    png.display()
                )),
            }
        }
        Some(WindowRun::TimedPlay(seconds, speed)) => {
            let run = timed_play::TimedPlay::new(app, seconds, speed);
            let report = run.report.clone();
            open(Box::new(run))?;
            let report = report.lock().expect("report").take();
            let report = report.ok_or_else(|| anyhow::anyhow!("the window closed before the play was timed"))?;
            println!("{report}");
            Ok(())
        }
    }
}
