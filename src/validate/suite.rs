//! Running validation cases headless, in parallel (one rayon task per case), with progress and
//! cancellation, and collecting the checks of each into a report the CLI and the GUI show.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::case::ValidationCase;
use super::criteria::{CheckResult, Criterion};
use super::method::Method;
use crate::record::{Frame, Metrics, RecordingHeader};
use crate::scene::Scene;
use crate::sim::run::{RunLimit, RunSink, run_scene};

/// The run was cancelled through the cancel flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("validation cancelled")]
pub struct Cancelled;

/// Progress of one case: `tick` of at most `max_ticks` done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaseProgress {
    /// Index of the case in the list given to [`run_suite`].
    pub case: usize,
    /// Ticks simulated so far.
    pub tick: u64,
    /// Upper bound of the case's ticks.
    pub max_ticks: u64,
}

/// The outcome of one validation case.
#[derive(Clone, Debug)]
pub struct CaseReport {
    /// The case's scene file stem.
    pub name: String,
    /// Its test name ("RiMEA 4").
    pub test: String,
    /// The scene as run (method applied).
    pub scene: Arc<Scene>,
    /// The criteria checked.
    pub criteria: Vec<Criterion>,
    /// Every criterion's result, in criteria order.
    pub checks: Vec<CheckResult>,
    /// The run's metrics.
    pub metrics: Metrics,
}

impl CaseReport {
    /// True when every check passed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.passed)
    }
}

/// The outcome of a validation suite.
#[derive(Clone, Debug)]
pub struct SuiteReport {
    /// The method every case ran with.
    pub method: Method,
    /// One report per case, in the order given.
    pub cases: Vec<CaseReport>,
}

impl SuiteReport {
    /// True when every case passed.
    pub fn passed(&self) -> bool {
        self.cases.iter().all(CaseReport::passed)
    }
}

/// A run sink that keeps nothing and stops the run once the flag it holds is set.
struct CancelSink<'a>(&'a AtomicBool);

impl RunSink for CancelSink<'_> {
    type Error = Cancelled;

    fn begin(&mut self, _header: &RecordingHeader) -> Result<(), Cancelled> {
        Ok(())
    }

    fn frame(&mut self, _frame: &Frame) -> Result<(), Cancelled> {
        if self.0.load(Ordering::Relaxed) {
            Err(Cancelled)
        } else {
            Ok(())
        }
    }
}

/// Runs `scene` with `method` applied until it ends; returns the scene as run and its metrics.
pub fn run_with_method(
    scene: &Scene,
    method: &Method,
    progress: &mut dyn FnMut(u64, u64),
    cancel: &AtomicBool,
) -> Result<(Arc<Scene>, Metrics), Cancelled> {
    let mut scene = scene.clone();
    method.apply(&mut scene);
    let scene = Arc::new(scene);
    let metrics = run_scene(scene.clone(), RunLimit::default(), &mut CancelSink(cancel), progress)?;
    Ok((scene, metrics))
}

/// Runs one case with `method` and checks its criteria.
pub fn run_case(
    case: &ValidationCase,
    method: &Method,
    progress: &mut dyn FnMut(u64, u64),
    cancel: &AtomicBool,
) -> Result<CaseReport, Cancelled> {
    let (scene, metrics) = run_with_method(&case.scene, method, progress, cancel)?;
    let checks = case
        .criteria
        .criteria
        .iter()
        .map(|c| c.evaluate(&scene, &metrics))
        .collect();
    Ok(CaseReport {
        name: case.name.clone(),
        test: case.criteria.test.clone(),
        scene,
        criteria: case.criteria.criteria.clone(),
        checks,
        metrics,
    })
}

/// Runs every case in parallel with `method`, reporting progress per case; stops early (with
/// [`Cancelled`]) once `cancel` is set.
pub fn run_suite(
    cases: &[ValidationCase],
    method: &Method,
    progress: &(dyn Fn(CaseProgress) + Sync),
    cancel: &AtomicBool,
) -> Result<SuiteReport, Cancelled> {
    let reports = cases
        .par_iter()
        .enumerate()
        .map(|(i, case)| {
            run_case(
                case,
                method,
                &mut |tick, max_ticks| {
                    progress(CaseProgress {
                        case: i,
                        tick,
                        max_ticks,
                    })
                },
                cancel,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SuiteReport {
        method: method.clone(),
        cases: reports,
    })
}
