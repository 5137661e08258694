//! A live run as a frame source: the [`SimWorker`] simulating the scene and the frames it has
//! delivered, kept in a [`MemoryRecording`] (one every `record_every` ticks).

use std::sync::Arc;
use std::time::Duration;

use super::source::Analysis;
use super::worker::{Delivery, SimWorker, Ticked};
use crate::record::{Frame, FrameSource, MemoryRecording};
use crate::scene::Scene;
use crate::sim::run::{Run, RunLimit};

/// Longest wait for the worker to deliver a single step before giving up on it.
const STEP_TIMEOUT: Duration = Duration::from_secs(60);

/// A simulation in progress on its worker and the frames received (none before the first tick).
pub struct LiveRun {
    scene: Arc<Scene>,
    worker: SimWorker,
    recording: MemoryRecording,
    finished: bool,
    /// Smoothed wall time of one simulated tick, in milliseconds.
    step_ms: Option<f64>,
}

impl LiveRun {
    /// A run of `scene` at tick 0, nothing simulated or recorded yet.
    pub fn new(scene: Arc<Scene>) -> LiveRun {
        let run = Run::new(scene.clone(), RunLimit::default());
        LiveRun {
            recording: MemoryRecording::new(run.header()),
            worker: SimWorker::spawn(run),
            scene,
            finished: false,
            step_ms: None,
        }
    }

    /// The scene being simulated.
    pub fn scene(&self) -> &Arc<Scene> {
        &self.scene
    }

    /// The frames received so far.
    pub fn recording(&self) -> &MemoryRecording {
        &self.recording
    }

    /// The received ticks `(first, newest)`, `None` before the first one.
    pub fn tick_range(&self) -> Option<(u64, u64)> {
        (!self.recording.is_empty()).then(|| self.recording.tick_range())
    }

    /// True once the run has ended (every agent done or the scene's duration reached).
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Smoothed wall time of one simulated tick in milliseconds, once a tick has been simulated.
    pub fn step_ms(&self) -> Option<f64> {
        self.step_ms
    }

    /// The received frame of `tick` without copying it, if recorded.
    pub fn frame(&self, tick: u64) -> Option<&Frame> {
        let first = self.recording.frames().first()?.tick;
        let offset = tick.checked_sub(first)?;
        let stride = self.recording.stride();
        if offset % stride != 0 {
            return None;
        }
        self.recording.frames().get(usize::try_from(offset / stride).ok()?)
    }

    /// Takes in what the worker has delivered, adding its analysis to `analysis`.
    pub fn poll(&mut self, analysis: &mut Analysis) {
        while let Some(delivery) = self.worker.try_recv() {
            self.take(delivery, analysis);
        }
    }

    /// Asks the worker to simulate until `tick` is reached (or the run ends); `None` stops it
    /// after its tick in progress.
    pub fn run_until(&mut self, tick: Option<u64>) {
        if !self.finished {
            self.worker.run_to(tick.unwrap_or(0));
        }
    }

    /// Simulates the next recorded frame after the newest (tick 0 and the first step when nothing
    /// is recorded yet) and waits for it, then stops the worker.
    pub fn produce_next(&mut self, analysis: &mut Analysis) {
        self.poll(analysis);
        if self.finished {
            return;
        }
        let stride = self.recording.stride();
        let wanted = self.tick_range().map_or(stride, |(_, newest)| newest + stride);
        self.worker.run_to(wanted);
        while !self.finished && self.tick_range().is_none_or(|(_, newest)| newest < wanted) {
            let Some(delivery) = self.worker.recv_timeout(STEP_TIMEOUT) else {
                break;
            };
            self.take(delivery, analysis);
        }
        self.worker.run_to(0);
    }

    /// Records the avoidance constraints of agent `id` in the ticks simulated from now on
    /// (`None` stops).
    pub fn set_debug_agent(&mut self, id: Option<u32>) {
        self.worker.debug_agent(id);
    }

    /// Files a delivery of the worker.
    fn take(&mut self, delivery: Delivery, analysis: &mut Analysis) {
        match delivery {
            Delivery::Tick(ticked) => {
                let Ticked {
                    frame,
                    summary,
                    events,
                    step_ms,
                    last,
                    metrics,
                } = *ticked;
                if let Some(ms) = step_ms {
                    self.step_ms = Some(self.step_ms.map_or(ms, |avg| avg * 0.9 + ms * 0.1));
                }
                self.finished |= last;
                analysis.add(summary, events);
                if let Some(metrics) = metrics {
                    analysis.set_metrics(metrics);
                }
                self.recording.push(frame);
            }
            Delivery::Ended(metrics) => {
                self.finished = true;
                analysis.set_metrics(metrics);
            }
        }
    }
}
