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
        self.ticks.unwrap_or_else(|| (scene.settings.duration / scene.settings.dt).round().max(1.0) as u64)
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

/// Runs `scene` under `limit`: `start(header)` is called once, then `sink(frame)` for tick 0
/// and every stepped tick, and `progress(tick, max_ticks)` after each step. A sink error stops
/// the run and is returned.
pub fn run_scene<E>(
    scene: Arc<Scene>,
    limit: RunLimit,
    mut start: impl FnMut(&RecordingHeader) -> Result<(), E>,
    mut sink: impl FnMut(&Frame) -> Result<(), E>,
    mut progress: impl FnMut(u64, u64),
) -> Result<Metrics, E> {
    let wall = Instant::now();
    let max_ticks = limit.max_ticks(&scene);
    let mut world = World::new(scene);
    start(&header_for(&world))?;
    let mut metrics = MetricsAccumulator::default();
    let first = world.snapshot_frame();
    metrics.observe(&first);
    sink(&first)?;
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
        sink(&frame)?;
        progress(world.tick(), max_ticks);
    }
    let ticks = world.tick();
    let ms_per_tick = if ticks > 0 { step_seconds * 1000.0 / ticks as f64 } else { 0.0 };
    Ok(metrics.finish(ticks, ms_per_tick, wall.elapsed().as_secs_f64()))
}
