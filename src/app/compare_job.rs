//! "Compare methods" as a background job: the open scene run once per method of
//! `crowdlab compare` (the same library call), one progress bar per method.

use crate::scene::Scene;
use crate::validate::{Method, MethodRun, compare_methods};

use super::background_job::{Job, JobState};

/// Where the Compare tab's comparison stands.
pub type Comparison = JobState<Vec<MethodRun>>;

/// Starts running `scene` with every method `crowdlab compare` uses.
pub fn start_comparison(scene: Scene) -> Job<Vec<MethodRun>> {
    let methods = Method::available();
    let names = methods.iter().map(|m| m.name.clone()).collect();
    Job::start("crowdlab-compare", names, move |report, cancel| {
        compare_methods(&scene, &methods, report, cancel)
    })
}
