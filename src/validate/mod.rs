//! Validation: the RiMEA verification tests as bundled scenes with encoded pass criteria, run
//! headless in parallel, and the comparison of steering methods on one scene.
//!
//! The library API is what the CLI (`crowdlab validate`, `crowdlab compare`) and the GUI call:
//! [`bundled_cases`] / [`folder_cases`] → [`run_suite`] (progress callback, cancel flag) →
//! [`SuiteReport`] → [`write_markdown_report`] (tables and PNG plots).

mod case;
mod compare;
mod criteria;
mod method;
mod plot;
mod report;
mod suite;
mod weidmann;

pub use case::{ValidationCase, bundled_cases, folder_cases};
pub use compare::{MethodRun, compare_methods, comparison_markdown};
pub use criteria::{CaseCriteria, CheckResult, Criterion, DiagramPoint, evacuation_by_profile, fundamental_diagram};
pub use method::Method;
pub use report::write_markdown_report;
pub use suite::{Cancelled, CaseProgress, CaseReport, SuiteReport, run_case, run_suite, run_with_method};
pub use weidmann::{JAM_DENSITY, weidmann_speed};
