//! "Compare methods" on a background thread: the open scene run once per method of
//! `crowdlab compare` (the same library call), with per-method progress and a cancel switch.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};

use crate::scene::Scene;
use crate::validate::{Cancelled, Method, MethodRun, compare_methods};

/// Ticks done and the tick bound of one method's run.
type Progress = (AtomicU64, AtomicU64);

/// A comparison in progress.
pub struct CompareJob {
    /// The methods, in row order.
    pub methods: Vec<Method>,
    progress: Arc<Vec<Progress>>,
    cancel: Arc<AtomicBool>,
    result: Receiver<Result<Vec<MethodRun>, Cancelled>>,
}

/// Where a comparison stands.
pub enum Comparison {
    /// Not started.
    Idle,
    /// Running on its thread.
    Running(CompareJob),
    /// Finished: one run per method.
    Done(Vec<MethodRun>),
    /// Stopped by the user.
    Cancelled,
}

impl CompareJob {
    /// Starts running `scene` with every method `crowdlab compare` uses.
    pub fn start(scene: Scene) -> CompareJob {
        let methods = Method::available();
        let progress: Arc<Vec<Progress>> =
            Arc::new(methods.iter().map(|_| (AtomicU64::new(0), AtomicU64::new(1))).collect());
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, result) = mpsc::channel();
        let (shared, stop, list) = (progress.clone(), cancel.clone(), methods.clone());
        std::thread::Builder::new()
            .name("crowdlab-compare".into())
            .spawn(move || {
                let report = |i: usize, tick: u64, max: u64| {
                    shared[i].0.store(tick, Ordering::Relaxed);
                    shared[i].1.store(max.max(1), Ordering::Relaxed);
                };
                let _ = tx.send(compare_methods(&scene, &list, &report, &stop));
            })
            .expect("cannot start the comparison thread");
        CompareJob {
            methods,
            progress,
            cancel,
            result,
        }
    }

    /// The share (0–1) of each method's run done so far.
    pub fn progress(&self) -> Vec<f32> {
        self.progress
            .iter()
            .map(|(tick, max)| tick.load(Ordering::Relaxed) as f32 / max.load(Ordering::Relaxed) as f32)
            .collect()
    }

    /// Asks every run to stop at its next tick.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The outcome once the thread has finished (`None` while it runs).
    pub fn poll(&self) -> Option<Comparison> {
        match self.result.try_recv() {
            Ok(Ok(runs)) => Some(Comparison::Done(runs)),
            Ok(Err(Cancelled)) | Err(TryRecvError::Disconnected) => Some(Comparison::Cancelled),
            Err(TryRecvError::Empty) => None,
        }
    }
}
