//! An export running on its own thread: the same library calls as `crowdlab export` (PNG
//! sequence, skeleton XML, CSV), with a shared progress count and a cancel flag, so the window
//! stays responsive and the user can stop it.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;

use anyhow::Result;

use crate::export::{PngOptions, SkeletonOptions, TickSelection, export_csv, export_png_sequence, export_skeleton_xml};
use crate::record::FrameSource;

/// What to export and where, with the options `crowdlab export` takes.
#[derive(Clone, Debug, Default)]
pub struct ExportRequest {
    /// A PNG sequence into this folder.
    pub png: Option<(PathBuf, PngOptions)>,
    /// Skeleton XML into this file.
    pub skeleton: Option<(PathBuf, SkeletonOptions)>,
    /// CSV trajectories into this file.
    pub csv: Option<(PathBuf, TickSelection)>,
}

impl ExportRequest {
    /// True when nothing is chosen.
    pub fn is_empty(&self) -> bool {
        self.png.is_none() && self.skeleton.is_none() && self.csv.is_none()
    }
}

/// Progress shared between the export thread and the window.
#[derive(Debug, Default)]
pub struct ExportProgress {
    /// Which part is running (0 PNG, 1 skeleton XML, 2 CSV).
    pub part: AtomicU64,
    /// Items done in the running part.
    pub done: AtomicU64,
    /// Items of the running part.
    pub total: AtomicU64,
    /// Set by Cancel; the export stops at the next frame.
    pub cancel: AtomicBool,
}

impl ExportProgress {
    fn report(&self, part: u64) -> impl Fn(u64, u64) + Sync + '_ {
        move |done, total| {
            self.part.store(part, Ordering::Relaxed);
            self.done.store(done, Ordering::Relaxed);
            self.total.store(total, Ordering::Relaxed);
        }
    }

    /// The running part's name and its fraction done.
    pub fn status(&self) -> (&'static str, f32) {
        let part = ["PNG frames", "skeleton XML", "CSV"][self.part.load(Ordering::Relaxed).min(2) as usize];
        let total = self.total.load(Ordering::Relaxed).max(1);
        (part, self.done.load(Ordering::Relaxed) as f32 / total as f32)
    }
}

/// An export in progress.
pub struct RunningExport {
    /// Shared progress and the cancel flag.
    pub progress: Arc<ExportProgress>,
    thread: Option<JoinHandle<Result<String, String>>>,
}

impl RunningExport {
    /// Starts `request` on `source` in a thread of its own.
    pub fn start(source: Arc<dyn FrameSource>, request: ExportRequest) -> RunningExport {
        let progress = Arc::new(ExportProgress::default());
        let shared = progress.clone();
        let thread = std::thread::Builder::new()
            .name("crowdlab-export".into())
            .spawn(move || run(&*source, &request, &shared).map_err(|e| format!("{e:#}")))
            .expect("cannot start the export thread");
        RunningExport {
            progress,
            thread: Some(thread),
        }
    }

    /// Asks the export to stop after the frame in progress.
    pub fn cancel(&self) {
        self.progress.cancel.store(true, Ordering::Relaxed);
    }

    /// The outcome once the thread has ended: a summary, or the error.
    pub fn finished(&mut self) -> Option<Result<String, String>> {
        if !self.thread.as_ref()?.is_finished() {
            return None;
        }
        let thread = self.thread.take()?;
        Some(
            thread
                .join()
                .unwrap_or_else(|_| Err("the export stopped unexpectedly".into())),
        )
    }
}

/// Runs every part of `request` in turn (PNG, skeleton XML, CSV); a summary of what was written.
pub fn run(source: &dyn FrameSource, request: &ExportRequest, progress: &ExportProgress) -> Result<String> {
    let mut written = Vec::new();
    if let Some((dir, options)) = &request.png {
        let files = export_png_sequence(source, dir, options, &progress.report(0), &progress.cancel)?;
        written.push(format!("{} PNG frames in {}", files.len(), dir.display()));
    }
    let cancelled = || progress.cancel.load(Ordering::Relaxed);
    if let Some((file, options)) = &request.skeleton
        && !cancelled()
    {
        export_skeleton_xml(source, file, options, &mut progress.report(1))?;
        written.push(format!("skeleton XML {}", file.display()));
    }
    if let Some((file, ticks)) = &request.csv
        && !cancelled()
    {
        export_csv(source, file, *ticks, &mut progress.report(2))?;
        written.push(format!("CSV {}", file.display()));
    }
    let mut summary = format!("Exported {}", written.join(", "));
    if cancelled() {
        summary.push_str(" (cancelled: the rest was not written)");
    }
    Ok(summary)
}
