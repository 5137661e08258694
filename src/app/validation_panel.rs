//! The Validation tab of the analysis panel: runs the bundled RiMEA suite (all cases, or the
//! `--fast` ones) with a chosen method on a background thread — a progress bar per case,
//! Cancel — then shows each test's verdict with every check's measured value and band, a figure
//! of its scene and its evacuation curve, all cases' curves together, and an Open button that
//! loads a case as the scene.

use eframe::egui::{Color32, ComboBox, Grid, Role, Sense, TextWrapMode, Ui, WidgetInfo, vec2};
use egui_plot::{Line, Plot, PlotPoints};
use glam::Vec2;

use super::background_job::{Job, JobState, show_running};
use super::command::Command;
use super::compare_panel::{curves, evacuation_curve};
use super::paint::{color32, paint_draw_list};
use crate::draw::{View, build_scene_draw_list, palette};
use crate::record::Metrics;
use crate::validate::{CaseReport, Method, SuiteReport, ValidationCase, run_suite};

/// Size of a case's figure (pixels).
const FIGURE_WIDTH: f32 = 150.0;
const FIGURE_HEIGHT: f32 = 90.0;

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

/// The case's scene as authored, small: walls, obstacles, targets, paths and start points.
fn figure(ui: &mut Ui, case: &CaseReport) {
    let size = vec2(FIGURE_WIDTH, FIGURE_HEIGHT);
    let (rect, response) = ui.allocate_exact_size(size, Sense::hover());
    response.widget_info(|| WidgetInfo::labeled(Role::Image, true, format!("figure of {}", case.name)));
    let mut view = View::fit(case.scene.bounds, Vec2::new(size.x, size.y));
    view.origin = Vec2::new(rect.min.x, rect.min.y);
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, color32(palette().background));
    paint_draw_list(&painter, &view, &build_scene_draw_list(&case.scene));
}

/// The case's agents arrived over time.
fn case_curve(ui: &mut Ui, case: &CaseReport) {
    let points = PlotPoints::from(evacuation_curve(&case.metrics));
    Plot::new(("validation case", case.name.as_str()))
        .width(FIGURE_WIDTH * 1.4)
        .height(FIGURE_HEIGHT)
        .include_y(0.0)
        .show_axes([true, true])
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |plot| plot.line(Line::new("arrived", points)))
        .response
        .on_hover_text(format!("{}: agents arrived over time (s)", case.name));
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
        for title in ["test and checks (measured, band)", "figure", "evacuation"] {
            ui.strong(title);
        }
        ui.end_row();
        for case in &report.cases {
            ui.vertical(|ui| {
                ui.style_mut().wrap_mode = Some(TextWrapMode::Extend);
                let (verdict, colour) = if case.passed() { ("PASS", pass) } else { ("FAIL", fail) };
                ui.horizontal(|ui| {
                    ui.strong(&case.test);
                    ui.colored_label(colour, verdict);
                });
                ui.label(&case.name);
                if ui
                    .button(format!("Open {}", case.name))
                    .on_hover_text("Open this case's scene in the editor")
                    .clicked()
                {
                    commands.push(Command::OpenValidationCase(case.name.clone()));
                }
                for check in &case.checks {
                    let colour = if check.passed { pass } else { fail };
                    ui.colored_label(colour, format!("{}: {} ({})", check.what, check.measured, check.band));
                }
            });
            figure(ui, case);
            case_curve(ui, case);
            ui.end_row();
        }
    });
    commands
}
