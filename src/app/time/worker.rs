//! The simulation worker: a thread that owns the live [`Run`] (the same run loop as
//! `crowdlab run`) and steps it up to the tick the UI asks for, sending every recorded frame
//! (with its analysis and step time) back over a channel, and word when the run ends on a tick
//! that is not recorded. The UI never steps the world itself, so it stays responsive however
//! long a tick takes.
//!
//! The finest step is one tick: the avoidance layer does not expose its phases (neighbours/VOs →
//! velocities → positions) separately, so a phase step is not offered.

use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::app::analysis::{Analyzer, TickSummary, TimelineEvent};
use crate::record::{Frame, Metrics};
use crate::sim::run::{Run, RunStep};

/// One simulated (or initial) tick as delivered to the UI.
pub struct Ticked {
    /// The recorded frame.
    pub frame: Frame,
    /// Its whole-run numbers.
    pub summary: TickSummary,
    /// Events beginning at it.
    pub events: Vec<TimelineEvent>,
    /// Wall time of the step in milliseconds (`None` for the initial frame, which is not stepped).
    pub step_ms: Option<f64>,
    /// True when the run has ended with this frame (all agents done or the duration reached).
    pub last: bool,
    /// The run's metrics so far, sent every [`METRICS_PERIOD`] of wall time while running, a
    /// fifth of that after reaching the tick asked for (a step shows fresh numbers), and with
    /// the last frame.
    pub metrics: Option<Box<Metrics>>,
}

/// Wall time between two metrics the worker sends while it runs (they cost a pass over every
/// agent, kept off every tick of a large run).
pub const METRICS_PERIOD: Duration = Duration::from_millis(250);

/// What the worker sends to the UI.
pub enum Delivery {
    /// A recorded tick.
    Tick(Box<Ticked>),
    /// The run ended on a tick that is not recorded (the stride skips it), with its metrics.
    Ended(Box<Metrics>),
}

/// What the UI asks of the worker.
enum Request {
    /// Simulate until the world reaches this tick.
    RunTo(u64),
    /// Record the avoidance constraints of this agent from now on (`None` stops).
    Debug(Option<u32>),
}

/// Handle to the worker thread; dropping it stops the thread after its current tick.
pub struct SimWorker {
    requests: Option<Sender<Request>>,
    frames: Receiver<Delivery>,
    thread: Option<JoinHandle<()>>,
    /// The tick last asked for.
    target: u64,
}

impl SimWorker {
    /// Starts a worker on `run` (at tick 0); it waits for [`SimWorker::run_to`].
    pub fn spawn(run: Run) -> SimWorker {
        let (requests, inbox) = mpsc::channel::<Request>();
        let (outbox, frames) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("crowdlab-sim".into())
            .spawn(move || work(run, inbox, outbox))
            .expect("cannot start the simulation thread");
        SimWorker {
            requests: Some(requests),
            frames,
            thread: Some(thread),
            target: 0,
        }
    }

    /// Asks the worker to simulate until the world reaches `tick` (or the run ends); a lower tick
    /// than the world's stops it after the tick in progress.
    pub fn run_to(&mut self, tick: u64) {
        if tick != self.target {
            self.target = tick;
            self.send(Request::RunTo(tick));
        }
    }

    /// Asks the worker to record the avoidance constraints of agent `id` in the frames it
    /// simulates from now on (`None` stops).
    pub fn debug_agent(&mut self, id: Option<u32>) {
        self.send(Request::Debug(id));
    }

    fn send(&self, request: Request) {
        if let Some(requests) = &self.requests {
            // A send fails only when the thread has ended, which the frame channel reports.
            let _ = requests.send(request);
        }
    }

    /// The next delivery, without waiting.
    pub fn try_recv(&self) -> Option<Delivery> {
        self.frames.try_recv().ok()
    }

    /// The next delivery, waiting at most `timeout` for it.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Delivery> {
        self.frames.recv_timeout(timeout).ok()
    }
}

impl Drop for SimWorker {
    fn drop(&mut self) {
        self.requests = None;
        if let Some(thread) = self.thread.take() {
            // The thread notices the closed channel after its current tick.
            let _ = thread.join();
        }
    }
}

/// The worker loop: waits for a target, steps towards it, checks for a new target between ticks.
fn work(mut run: Run, inbox: Receiver<Request>, outbox: Sender<Delivery>) {
    let mut analyzer = Analyzer::default();
    let mut target = 0u64;
    let mut started = false;
    let mut metrics_sent: Option<Instant> = None;
    // Tick 0 is delivered with the first request for a later tick, then one frame per step.
    let wants_more = |run: &Run, started: bool, target: u64| {
        !run.finished()
            && if started {
                run.world().tick() < target
            } else {
                target > 0
            }
    };
    loop {
        let idle = !wants_more(&run, started, target);
        let request = if idle {
            inbox.recv().map_err(|_| TryRecvError::Disconnected)
        } else {
            inbox.try_recv()
        };
        match request {
            Ok(Request::RunTo(t)) => target = t,
            Ok(Request::Debug(id)) => run.world_mut().set_debug_agent(id),
            Err(TryRecvError::Disconnected) => return,
            Err(TryRecvError::Empty) => {}
        }
        if !wants_more(&run, started, target) {
            continue;
        }
        started = true;
        let Some(step) = run.advance() else {
            continue;
        };
        let sent = if step.recorded {
            let caught_up = run.world().tick() >= target;
            let since = metrics_sent.map_or(Duration::MAX, |t: Instant| t.elapsed());
            let due = step.last || since >= METRICS_PERIOD || (caught_up && since >= METRICS_PERIOD / 5);
            let metrics = due.then(|| {
                metrics_sent = Some(Instant::now());
                Box::new(run.metrics())
            });
            send(&outbox, &mut analyzer, step, run.stuck_now(), metrics)
        } else if step.last {
            outbox.send(Delivery::Ended(Box::new(run.metrics())))
        } else {
            Ok(())
        };
        if sent.is_err() {
            return;
        }
    }
}

/// Sends a recorded step with its analysis (and the run's metrics, when given).
fn send(
    outbox: &Sender<Delivery>,
    analyzer: &mut Analyzer,
    step: RunStep,
    stuck: u32,
    metrics: Option<Box<Metrics>>,
) -> Result<(), mpsc::SendError<Delivery>> {
    let (summary, events) = analyzer.observe(&step.frame, stuck);
    outbox.send(Delivery::Tick(Box::new(Ticked {
        frame: step.frame,
        summary,
        events,
        step_ms: step.step_seconds.map(|s| s * 1000.0),
        last: step.last,
        metrics,
    })))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::scene::default_scene;

    /// The next delivery, which must be a recorded tick.
    fn next_tick(worker: &SimWorker) -> Ticked {
        match worker.recv_timeout(Duration::from_secs(30)) {
            Some(Delivery::Tick(t)) => *t,
            Some(Delivery::Ended(_)) => panic!("the run ended"),
            None => panic!("no frame"),
        }
    }

    #[test]
    fn worker_delivers_tick_zero_then_exactly_the_ticks_asked_for() {
        let run = Run::new(Arc::new(default_scene()), Default::default());
        let mut worker = SimWorker::spawn(run);
        worker.run_to(3);
        let ticks: Vec<u64> = (0..4).map(|_| next_tick(&worker).frame.tick).collect();
        assert_eq!(ticks, vec![0, 1, 2, 3]);
        assert!(
            worker.recv_timeout(Duration::from_millis(50)).is_none(),
            "it stops at the target"
        );
        worker.run_to(4);
        let t = next_tick(&worker);
        assert_eq!(t.frame.tick, 4);
        assert!(t.step_ms.is_some());
    }

    #[test]
    fn a_run_ending_between_recorded_ticks_says_so() {
        let mut scene = default_scene();
        scene.settings.duration = 0.5;
        scene.settings.record_every = 2;
        let mut worker = SimWorker::spawn(Run::new(Arc::new(scene), Default::default()));
        worker.run_to(u64::MAX);
        let ticks: Vec<u64> = (0..3).map(|_| next_tick(&worker).frame.tick).collect();
        assert_eq!(ticks, vec![0, 2, 4]);
        assert!(matches!(
            worker.recv_timeout(Duration::from_secs(30)),
            Some(Delivery::Ended(_))
        ));
    }
}
