//! `crowdlab validate` and `crowdlab compare`: thin wrappers around [`crate::validate`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::CliError;
use super::args::{CompareArgs, ValidateArgs};
use super::commands::{parse_method, scene_error};
use super::paths::refuse_overwriting;
use super::progress::bar;
use crate::atomic_file::write_atomic;
use crate::scene::load_scene;
use crate::sim::run::RunLimit;
use crate::validate::{
    Method, bundled_cases, compare_methods, comparison_markdown, folder_cases, run_suite, write_markdown_report,
};

/// Runs the validation suite and writes its report; fails (exit 1) if any test fails.
pub fn validate(args: ValidateArgs) -> Result<(), CliError> {
    let method = parse_method(args.method.as_deref())?;
    let mut cases = if args.no_bundled {
        Vec::new()
    } else {
        bundled_cases().map_err(CliError::other)?
    };
    for folder in &args.folders {
        cases.extend(folder_cases(folder).map_err(|e| CliError::input(format!("{e:#}")))?);
    }
    if args.fast {
        cases.retain(|c| c.criteria.fast);
    }
    if cases.is_empty() {
        return Err(CliError::input("no validation scenes to run"));
    }
    let ticks: Vec<AtomicU64> = cases.iter().map(|_| AtomicU64::new(0)).collect();
    let total: u64 = cases.iter().map(|c| RunLimit::default().max_ticks(&c.scene)).sum();
    let progress = bar(total, "validate");
    let cancel = AtomicBool::new(false);
    let report = run_suite(
        &cases,
        &method,
        &|p| {
            ticks[p.case].store(p.tick, Ordering::Relaxed);
            progress.set_position(ticks.iter().map(|t| t.load(Ordering::Relaxed)).sum());
        },
        &cancel,
    )
    .map_err(CliError::other)?;
    progress.finish_and_clear();
    let command: Vec<String> = std::env::args().collect();
    let path = write_markdown_report(&report, &args.out, &command.join(" ")).map_err(CliError::other)?;
    for case in &report.cases {
        let verdict = if case.passed() { "pass" } else { "FAIL" };
        println!("{verdict:4}  {:10} {}", case.test, case.name);
        for c in case.checks.iter().filter(|c| !c.passed) {
            println!("        {}: {} (band {})", c.what, c.measured, c.band);
        }
    }
    println!("wrote {}", path.display());
    if report.passed() {
        Ok(())
    } else {
        let failed = report.cases.iter().filter(|c| !c.passed()).count();
        Err(CliError::other(format!(
            "{failed} of {} validation tests failed",
            report.cases.len()
        )))
    }
}

/// Runs one scene with every available method and prints the metrics side by side.
pub fn compare(args: CompareArgs) -> Result<(), CliError> {
    refuse_overwriting(&[&args.scene], &[("--out", args.out.as_deref())])?;
    let scene = load_scene(&args.scene).map_err(scene_error)?;
    let methods = if args.method.is_empty() {
        Method::available()
    } else {
        args.method
            .iter()
            .map(|name| parse_method(Some(name)))
            .collect::<Result<Vec<_>, _>>()?
    };
    let max = RunLimit::default().max_ticks(&scene);
    let ticks: Vec<AtomicU64> = methods.iter().map(|_| AtomicU64::new(0)).collect();
    let progress = bar(max * methods.len() as u64, "compare");
    let cancel = AtomicBool::new(false);
    let runs = compare_methods(
        &scene,
        &methods,
        &|i, tick, _| {
            ticks[i].store(tick, Ordering::Relaxed);
            progress.set_position(ticks.iter().map(|t| t.load(Ordering::Relaxed)).sum());
        },
        &cancel,
    )
    .map_err(CliError::other)?;
    progress.finish_and_clear();
    let table = comparison_markdown(&scene, &runs);
    print!("{table}");
    if let Some(path) = &args.out {
        write_atomic(path, table.as_bytes()).map_err(|e| CliError::other(format!("{}: {e}", path.display())))?;
    }
    Ok(())
}
