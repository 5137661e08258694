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

/// The recording header for a world (scene, labels, states, dt).
pub fn header_for(world: &World) -> RecordingHeader {
    RecordingHeader {
        scene: (**world.scene()).clone(),
        labels: world.labels().to_vec(),
        states: STATE_NAMES.iter().map(|s| s.to_string()).collect(),
        dt: world.scene().settings.dt,
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

/// Runs `scene` under `limit`, feeding `sink` and calling `progress(tick, max_ticks)` after
/// each step; returns the run's metrics. A sink error stops the run and is returned.
pub fn run_scene<S: RunSink>(
    scene: Arc<Scene>,
    limit: RunLimit,
    sink: &mut S,
    mut progress: impl FnMut(u64, u64),
) -> Result<Metrics, S::Error> {
    let wall = Instant::now();
    let max_ticks = limit.max_ticks(&scene);
    let mut metrics = MetricsAccumulator::new(&scene);
    let mut world = World::new(scene);
    sink.begin(&header_for(&world))?;
    let first = world.snapshot_frame();
    metrics.observe(&first);
    sink.frame(&first)?;
    let mut step_seconds = 0.0;
    loop {
        let finished = match limit.ticks {
            Some(n) => world.tick() >= n,
            None => world.all_done() || world.duration_reached(),
        };
        if finished {
            break;
        }
        let t = Instant::now();
        let frame = world.step();
        step_seconds += t.elapsed().as_secs_f64();
        metrics.observe(&frame);
        sink.frame(&frame)?;
        progress(world.tick(), max_ticks);
    }
    let ticks = world.tick();
    let ms_per_tick = if ticks > 0 {
        step_seconds * 1000.0 / ticks as f64
    } else {
        0.0
    };
    Ok(metrics.finish(ticks, ms_per_tick, wall.elapsed().as_secs_f64()))
}
