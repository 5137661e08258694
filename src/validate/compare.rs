//! Method comparison: one scene run with every available method, the SteerBench summary side by
//! side (lower composite scores are better; comparable only on the same scene).

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use super::method::Method;
use super::suite::{Cancelled, run_with_method};
use crate::record::Metrics;
use crate::scene::Scene;

/// One method's run of the compared scene.
#[derive(Clone, Debug)]
pub struct MethodRun {
    /// The method.
    pub method: Method,
    /// The run's metrics.
    pub metrics: Metrics,
}

/// Runs `scene` once per method, in parallel; `progress(method index, tick, max ticks)`.
pub fn compare_methods(
    scene: &Scene,
    methods: &[Method],
    progress: &(dyn Fn(usize, u64, u64) + Sync),
    cancel: &AtomicBool,
) -> Result<Vec<MethodRun>, Cancelled> {
    methods
        .par_iter()
        .enumerate()
        .map(|(i, method)| {
            let (_, metrics) = run_with_method(scene, method, &mut |t, max| progress(i, t, max), cancel)?;
            Ok(MethodRun {
                method: method.clone(),
                metrics,
            })
        })
        .collect()
}

/// The comparison as a Markdown table, one row per method.
pub fn comparison_markdown(scene: &Scene, runs: &[MethodRun]) -> String {
    let mut md = format!("# Method comparison: {}\n\n", scene.name);
    md.push_str(
        "| method | reached | collisions | deepest (m) | time enabled (s) | Σ KE | Σ accel | PLE (J) | \
         composite01 | composite02 | ms/tick |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for run in runs {
        let s = &run.metrics.summary;
        let n = run.metrics.agents.len().max(1) as f32;
        let ple = run.metrics.agents.iter().map(|a| a.steerbench.ple_energy).sum::<f32>() / n;
        let _ = writeln!(
            md,
            "| {} | {}/{} | {} | {:.3} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.3} |",
            run.method.name,
            s.agents_reached,
            s.agents,
            s.collisions,
            s.max_penetration,
            s.scores.mean_time_enabled,
            s.scores.mean_kinetic_energy_sum,
            s.scores.mean_acceleration_sum,
            ple,
            s.scores.composite01,
            s.scores.composite02,
            s.ms_per_tick
        );
    }
    md.push_str("\nPer-agent means; lower composite scores are better (SteerBench composite01/02).\n");
    md
}
