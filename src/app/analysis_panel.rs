//! The analysis panel under the simulator's canvas, opened from the toolbar: a tab of plots over
//! run time and a tab of run metrics.

use eframe::egui::{Panel, ScrollArea, Ui};

use super::command::Command;
use super::compare_job::{CompareJob, Comparison};
use super::compare_panel;
use super::metrics_panel::{self, TableSort};
use super::state::CrowdlabApp;

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
}

impl CrowdlabApp {
    /// Carries out the Compare tab's requests: start, cancel, or open one method's run live.
    pub(super) fn apply_comparison(&mut self, command: Command) {
        match command {
            Command::StartComparison => {
                self.comparison = Comparison::Running(CompareJob::start((*self.document.scene).clone()));
            }
            Command::CancelComparison => {
                if let Comparison::Running(job) = &self.comparison {
                    job.cancel();
                }
            }
            Command::OpenMethodRun(name) => match crate::validate::Method::parse(&name) {
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

    /// Takes in a finished comparison.
    pub(super) fn poll_comparison(&mut self) {
        if let Comparison::Running(job) = &self.comparison
            && let Some(outcome) = job.poll()
        {
            self.comparison = outcome;
        }
    }

    /// Draws the analysis panel when it is open, reading more of the selected agent's series.
    pub(super) fn show_analysis_panel(&mut self, ui: &mut Ui) -> Vec<Command> {
        let mut commands = Vec::new();
        let plotting = self.analysis.open && self.analysis.tab == AnalysisTab::Plots;
        if self
            .plots
            .update(&self.frames, self.selection.selected.filter(|_| plotting))
        {
            ui.ctx().request_repaint();
        }
        if !self.analysis.open {
            return commands;
        }
        Panel::bottom("analysis")
            .resizable(true)
            .default_size(PANEL_HEIGHT)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    let tabs = [
                        (AnalysisTab::Plots, "Plots"),
                        (AnalysisTab::Metrics, "Metrics"),
                        (AnalysisTab::Compare, "Compare"),
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
                }
            });
        commands
    }
}
