//! The analysis panel under the simulator's canvas, opened from the toolbar: a tab of plots over
//! run time and a tab of run metrics.

use eframe::egui::{Panel, ScrollArea, Ui};

use super::background_job::JobState;
use super::command::Command;
use super::compare_job::start_comparison;
use super::compare_panel;
use super::metrics_panel::{self, TableSort};
use super::panel_fill::unfilled;
use super::state::CrowdlabApp;
use super::validation_panel::{self, SuiteChoice, start_suite};
use crate::validate::{Method, bundled_cases};

/// Default height of the analysis panel.
const PANEL_HEIGHT: f32 = 240.0;

/// The tab shown in the analysis panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnalysisTab {
    /// The selected agent's and the crowd's quantities over time.
    #[default]
    Plots,
    /// The run summary and the per-agent table.
    Metrics,
    /// The open scene run with every method, side by side.
    Compare,
    /// The RiMEA suite with a chosen method.
    Validation,
}

/// Whether the analysis panel is open, on which tab, and how its table is sorted.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnalysisView {
    /// True while the panel is shown (simulator only).
    pub open: bool,
    /// The tab shown.
    pub tab: AnalysisTab,
    /// The per-agent table's order.
    pub sort: TableSort,
    /// The Validation tab's method and case set.
    pub suite: SuiteChoice,
}

impl CrowdlabApp {
    /// Carries out the Compare and Validation tabs' requests: start, cancel, open one method's
    /// run live, open a validation case as the scene.
    pub(super) fn apply_comparison(&mut self, command: Command) {
        match command {
            Command::StartComparison => {
                self.comparison = JobState::Running(start_comparison((*self.document.scene).clone()));
            }
            Command::CancelComparison => self.comparison.cancel(),
            Command::StartValidation => match bundled_cases() {
                Ok(mut cases) => {
                    cases.retain(|c| c.criteria.fast || !self.analysis.suite.fast);
                    let method = Method::available().swap_remove(self.analysis.suite.method);
                    self.validation = JobState::Running(start_suite(cases, method));
                }
                Err(e) => {
                    self.notice = Some(super::notice::Notice::error(format!(
                        "Cannot load the RiMEA cases: {e}"
                    )))
                }
            },
            Command::CancelValidation => self.validation.cancel(),
            Command::OpenValidationCase(name) => {
                let case = bundled_cases()
                    .ok()
                    .and_then(|cases| cases.into_iter().find(|c| c.name == name));
                if let Some(case) = case {
                    self.document = super::document::Document::untitled(case.scene);
                    self.restart_live_run();
                    self.editor.reset();
                    self.editing = true;
                    self.canvas.fit();
                }
            }
            Command::OpenMethodRun(name) => match Method::parse(&name) {
                Ok(method) => {
                    let mut scene = (*self.document.scene).clone();
                    method.apply(&mut scene);
                    self.replace_frames(super::time::Frames::live(std::sync::Arc::new(scene)));
                    self.editing = false;
                    self.notice = Some(super::notice::Notice::info(format!(
                        "Running {} with method {name} (press Play); the scene itself is unchanged.",
                        self.document.scene.name
                    )));
                }
                Err(message) => self.notice = Some(super::notice::Notice::error(message)),
            },
            _ => {}
        }
    }

    /// Draws the analysis panel when it is open, reading more of the selected agent's series
    /// (for its plots and its timeline row).
    pub(super) fn show_analysis_panel(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut commands = Vec::new();
        if self.plots.update(&self.frames, self.selection.selected) {
            ui.ctx().request_repaint();
        }
        if !self.analysis.open {
            return commands;
        }
        unfilled(Panel::bottom("analysis"), ui)
            .resizable(true)
            .default_size(PANEL_HEIGHT)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    let tabs = [
                        (AnalysisTab::Plots, "Plots"),
                        (AnalysisTab::Metrics, "Metrics"),
                        (AnalysisTab::Compare, "Compare"),
                        (AnalysisTab::Validation, "Validation"),
                    ];
                    for (tab, name) in tabs {
                        ui.selectable_value(&mut self.analysis.tab, tab, name);
                    }
                });
                ui.separator();
                match self.analysis.tab {
                    AnalysisTab::Plots => {
                        ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                            commands.extend(self.plots.show(ui, &self.frames, self.time.tick()))
                        });
                    }
                    AnalysisTab::Metrics => commands.extend(metrics_panel::show(
                        ui,
                        self.frames.metrics(),
                        &mut self.analysis.sort,
                        self.selection.selected,
                    )),
                    AnalysisTab::Compare => {
                        let dt = self.document.scene.settings.dt;
                        ScrollArea::vertical()
                            .auto_shrink([false, false])
                            .show(ui, |ui| commands.extend(compare_panel::show(ui, &self.comparison, dt)));
                    }
                    AnalysisTab::Validation => {
                        let (validation, suite) = (&self.validation, &mut self.analysis.suite);
                        ScrollArea::both()
                            .auto_shrink([false, false])
                            .show(ui, |ui| commands.extend(validation_panel::show(ui, validation, suite)));
                    }
                }
            });
        commands
    }
}
