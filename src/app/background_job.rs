//! Long runs started from the analysis panel (method comparison, the RiMEA suite) on a
//! background thread, with progress per part and a cancel switch; the panel polls for the end
//! and shows a running job the same way for both.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};

use eframe::egui::{ProgressBar, Ui};

use crate::validate::Cancelled;

/// Ticks done and the tick bound of one part of a job.
type Progress = (AtomicU64, AtomicU64);

/// Reports that part `i` has done `tick` of at most `max` ticks.
pub type Report<'a> = &'a (dyn Fn(usize, u64, u64) + Sync);

/// A job in progress, producing a `T`.
pub struct Job<T> {
    /// The parts' names, in order (methods, cases).
    pub parts: Vec<String>,
    progress: Arc<Vec<Progress>>,
    cancel: Arc<AtomicBool>,
    result: Receiver<Result<T, Cancelled>>,
}

/// Where a job stands.
pub enum JobState<T> {
    /// Not started.
    Idle,
    /// Running on its thread.
    Running(Job<T>),
    /// Finished.
    Done(T),
    /// Stopped by the user.
    Cancelled,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a thread named `name`; it reports each part's progress and stops early
    /// (with [`Cancelled`]) once the cancel switch is set.
    pub fn start(
        name: &str,
        parts: Vec<String>,
        work: impl FnOnce(Report, &AtomicBool) -> Result<T, Cancelled> + Send + 'static,
    ) -> Job<T> {
        let progress: Arc<Vec<Progress>> =
            Arc::new(parts.iter().map(|_| (AtomicU64::new(0), AtomicU64::new(1))).collect());
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, result) = mpsc::channel();
        let (shared, stop) = (progress.clone(), cancel.clone());
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let report = |i: usize, tick: u64, max: u64| {
                    if let Some((done, bound)) = shared.get(i) {
                        done.store(tick, Ordering::Relaxed);
                        bound.store(max.max(1), Ordering::Relaxed);
                    }
                };
                let _ = tx.send(work(&report, &stop));
            })
            .expect("cannot start a background job");
        Job {
            parts,
            progress,
            cancel,
            result,
        }
    }

    /// The share (0–1) of each part done so far.
    pub fn progress(&self) -> Vec<f32> {
        self.progress
            .iter()
            .map(|(tick, max)| tick.load(Ordering::Relaxed) as f32 / max.load(Ordering::Relaxed) as f32)
            .collect()
    }

    /// Asks the work to stop at its next tick.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The outcome once the thread has finished (`None` while it runs).
    pub fn poll(&self) -> Option<JobState<T>> {
        match self.result.try_recv() {
            Ok(Ok(value)) => Some(JobState::Done(value)),
            Ok(Err(Cancelled)) | Err(TryRecvError::Disconnected) => Some(JobState::Cancelled),
            Err(TryRecvError::Empty) => None,
        }
    }
}

impl<T: Send + 'static> JobState<T> {
    /// Moves a running job to its outcome once it has one.
    pub fn poll(&mut self) {
        if let JobState::Running(job) = self
            && let Some(outcome) = job.poll()
        {
            *self = outcome;
        }
    }

    /// Cancels the job if it is running.
    pub fn cancel(&self) {
        if let JobState::Running(job) = self {
            job.cancel();
        }
    }
}

/// Draws a running `job`: `what` it is doing with a Cancel button, then a progress bar per part.
/// Returns true when Cancel was clicked.
pub fn show_running<T: Send + 'static>(ui: &mut Ui, job: &Job<T>, what: &str) -> bool {
    let cancel = ui
        .horizontal(|ui| {
            ui.label(what);
            ui.button("Cancel").on_hover_text("Stop it at the next tick").clicked()
        })
        .inner;
    for (part, done) in job.parts.iter().zip(job.progress()) {
        ui.horizontal(|ui| {
            ui.label(part);
            ui.add(ProgressBar::new(done).desired_width(240.0).show_percentage());
        });
    }
    ui.ctx().request_repaint();
    cancel
}
