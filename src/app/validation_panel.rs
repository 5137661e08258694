//! The Validation tab of the analysis panel: runs the bundled RiMEA suite (all cases, or the
//! `--fast` ones) with a chosen method on a background thread — a progress bar per case,
//! Cancel — then shows each test's verdict with every check's measured value and band, the
//! cases' evacuation curves, and an Open button that loads a case as the scene.

use eframe::egui::{Color32, ComboBox, Grid, Ui};

use super::background_job::{Job, JobState, show_running};
use super::command::Command;
use super::compare_panel::{curves, evacuation_curve};
use crate::record::Metrics;
use crate::validate::{Method, SuiteReport, ValidationCase, run_suite};

/// Where the Validation tab's suite run stands.
pub type Validation = JobState<SuiteReport>;

/// What the suite runs: the method (index in [`Method::available`]) and the fast cases only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SuiteChoice {
    /// Index of the method in [`Method::available`].
    pub method: usize,
    /// Only the cases marked fast (`crowdlab validate --fast`).
    pub fast: bool,
}

/// Starts running `cases` with `method`.
pub fn start_suite(cases: Vec<ValidationCase>, method: Method) -> Job<SuiteReport> {
    let names = cases.iter().map(|c| c.name.clone()).collect();
    Job::start("crowdlab-validate", names, move |report, cancel| {
        run_suite(&cases, &method, &|p| report(p.case, p.tick, p.max_ticks), cancel)
    })
}

/// Draws the tab for `validation`, with `choice` editable while nothing runs.
pub fn show(ui: &mut Ui, validation: &Validation, choice: &mut SuiteChoice) -> Vec<Command> {
    let mut commands = Vec::new();
    if let JobState::Running(job) = validation {
        if show_running(ui, job, "Running the RiMEA suite…") {
            commands.push(Command::CancelValidation);
        }
        return commands;
    }
    let methods = Method::available();
    ui.horizontal(|ui| {
        ComboBox::from_label("method")
            .selected_text(methods.get(choice.method).map_or("?", |m| m.name.as_str()))
            .show_ui(ui, |ui| {
                for (i, m) in methods.iter().enumerate() {
                    ui.selectable_value(&mut choice.method, i, &m.name);
                }
            });
        ui.checkbox(&mut choice.fast, "fast cases only");
        if ui
            .button("Run RiMEA suite")
            .on_hover_text("Run the bundled RiMEA cases and check their criteria (as crowdlab validate)")
            .clicked()
        {
            commands.push(Command::StartValidation);
        }
        if matches!(validation, JobState::Cancelled) {
            ui.label("Cancelled.");
        }
    });
    if let JobState::Done(report) = validation {
        commands.extend(verdicts(ui, report));
        let named: Vec<(&str, &Metrics)> = report.cases.iter().map(|c| (c.test.as_str(), &c.metrics)).collect();
        curves(
            ui,
            "Evacuation curves of the cases",
            "arrived",
            &named,
            evacuation_curve,
        );
    }
    commands
}

fn verdicts(ui: &mut Ui, report: &SuiteReport) -> Vec<Command> {
    let mut commands = Vec::new();
    let pass = Color32::from_rgb(40, 150, 70);
    let fail = Color32::from_rgb(200, 50, 50);
    ui.label(format!(
        "method {}: {}",
        report.method.name,
        if report.passed() {
            "every test passes"
        } else {
            "some tests fail"
        }
    ));
    Grid::new("validation verdicts").striped(true).show(ui, |ui| {
        for title in ["test", "case", "verdict", "checks (measured, band)", ""] {
            ui.strong(title);
        }
        ui.end_row();
        for case in &report.cases {
            ui.label(&case.test);
            ui.label(&case.name);
            let (verdict, colour) = if case.passed() { ("PASS", pass) } else { ("FAIL", fail) };
            ui.colored_label(colour, verdict);
            ui.vertical(|ui| {
                for check in &case.checks {
                    let colour = if check.passed { pass } else { fail };
                    ui.colored_label(colour, format!("{}: {} ({})", check.what, check.measured, check.band));
                }
            });
            if ui
                .button(format!("Open {}", case.name))
                .on_hover_text("Open this case's scene in the editor")
                .clicked()
            {
                commands.push(Command::OpenValidationCase(case.name.clone()));
            }
            ui.end_row();
        }
    });
    commands
}
