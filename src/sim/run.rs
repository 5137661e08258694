//! Running a scene headless from tick 0 to its end, feeding every frame to a sink
//! (a recording writer, the GUI store) and measuring the step time.

use std::sync::Arc;
use std::time::Instant;

use crate::record::{Frame, Metrics, MetricsAccumulator, RecordingHeader};
use crate::scene::Scene;
use crate::sim::{STATE_NAMES, World};

/// When a run stops.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunLimit {
    /// Exactly this many ticks; `None` = until every agent is done or the duration ends.
    pub ticks: Option<u64>,
}

impl RunLimit {
    /// Upper bound on the ticks this limit allows for `scene` (for progress bars).
    pub fn max_ticks(&self, scene: &Scene) -> u64 {
        self.ticks
            .unwrap_or_else(|| (scene.settings.duration / scene.settings.dt).round().max(1.0) as u64)
    }
}

/// The recording header for a world (scene, agent table, labels, states, dt, stride).
pub fn header_for(world: &World) -> RecordingHeader {
    let settings = &world.scene().settings;
    RecordingHeader {
        scene: (**world.scene()).clone(),
        agents: world.agent_table().clone(),
        labels: world.labels().to_vec(),
        states: STATE_NAMES.iter().map(|s| s.to_string()).collect(),
        dt: settings.dt,
        record_every: settings.record_every,
    }
}

/// Receives a run's header once, then every frame in tick order.
pub trait RunSink {
    /// The error a sink can fail with (stops the run).
    type Error;
    /// Called once before the first frame.
    fn begin(&mut self, header: &RecordingHeader) -> Result<(), Self::Error>;
    /// Called for tick 0 and every stepped tick.
    fn frame(&mut self, frame: &Frame) -> Result<(), Self::Error>;
}

/// Collecting frames in memory (tests, small runs).
impl RunSink for Vec<Frame> {
    type Error = std::convert::Infallible;

    fn begin(&mut self, _header: &RecordingHeader) -> Result<(), Self::Error> {
        Ok(())
    }

    fn frame(&mut self, frame: &Frame) -> Result<(), Self::Error> {
        self.push(frame.clone());
        Ok(())
    }
}

/// One step of a run as its driver sees it.
pub struct RunStep {
    /// The frame of the state after the step (tick 0 first, which is not a step).
    pub frame: Frame,
    /// Wall time of the step in seconds (`None` for tick 0).
    pub step_seconds: Option<f64>,
    /// True when the frame belongs in the recording (its tick is a multiple of the stride).
    pub recorded: bool,
    /// True when the run has ended with this frame.
    pub last: bool,
}

/// A run in progress, shared by `crowdlab run` and the GUI's simulation worker: the world, the
/// rule that stops it, the recording stride, and metrics observed over every tick.
pub struct Run {
    world: World,
    limit: RunLimit,
    stride: u64,
    metrics: MetricsAccumulator,
    step_seconds: f64,
    wall: Instant,
    started: bool,
}

impl Run {
    /// A run of `scene` under `limit`, at tick 0 with nothing produced yet.
    pub fn new(scene: Arc<Scene>, limit: RunLimit) -> Run {
        Run {
            metrics: MetricsAccumulator::new(&scene),
            stride: u64::from(scene.settings.record_every.max(1)),
            world: World::new(scene),
            limit,
            step_seconds: 0.0,
            wall: Instant::now(),
            started: false,
        }
    }

    /// The recording header of this run.
    pub fn header(&self) -> RecordingHeader {
        header_for(&self.world)
    }

    /// The world (read-only).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, to change what it records (e.g. the debugged agent).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// True once the limit is reached: the tick count, or every agent done / the duration.
    pub fn finished(&self) -> bool {
        self.started
            && match self.limit.ticks {
                Some(n) => self.world.tick() >= n,
                None => self.world.all_done() || self.world.duration_reached(),
            }
    }

    /// The next frame: tick 0 on the first call, then one step per call; `None` once finished.
    pub fn advance(&mut self) -> Option<RunStep> {
        if self.finished() {
            return None;
        }
        let (frame, step_seconds) = if self.started {
            let t = Instant::now();
            let frame = self.world.step();
            let seconds = t.elapsed().as_secs_f64();
            self.step_seconds += seconds;
            (frame, Some(seconds))
        } else {
            self.started = true;
            (self.world.snapshot_frame(), None)
        };
        self.metrics.observe(&frame);
        Some(RunStep {
            recorded: frame.tick % self.stride == 0,
            last: self.finished(),
            frame,
            step_seconds,
        })
    }

    /// The run's metrics (SteerBench, crowd measures, timing) up to the current tick.
    pub fn finish(self) -> Metrics {
        self.metrics()
    }

    /// Agents stuck at the newest tick (the metrics' count), for the GUI's per-tick plots.
    pub fn stuck_now(&self) -> u32 {
        self.metrics.stuck_now()
    }

    /// The metrics so far, without ending the run (the GUI shows them while it runs).
    pub fn metrics(&self) -> Metrics {
        let ticks = self.world.tick();
        let ms_per_tick = if ticks > 0 {
            self.step_seconds * 1000.0 / ticks as f64
        } else {
            0.0
        };
        self.metrics
            .finish(ticks, ms_per_tick, self.wall.elapsed().as_secs_f64())
    }
}

/// Runs `scene` under `limit`, feeding `sink` every `record_every`-th frame (the scene setting)
/// and calling `progress(tick, max_ticks)` after each step; returns the run's metrics, which
/// observe every tick whatever the stride. A sink error stops the run and is returned.
pub fn run_scene<S: RunSink>(
    scene: Arc<Scene>,
    limit: RunLimit,
    sink: &mut S,
    mut progress: impl FnMut(u64, u64),
) -> Result<Metrics, S::Error> {
    let max_ticks = limit.max_ticks(&scene);
    let mut run = Run::new(scene, limit);
    sink.begin(&run.header())?;
    while let Some(step) = run.advance() {
        if step.recorded {
            sink.frame(&step.frame)?;
        }
        if step.step_seconds.is_some() {
            progress(step.frame.tick, max_ticks);
        }
        run.world_mut().recycle(step.frame);
    }
    Ok(run.finish())
}
