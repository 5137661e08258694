//! The analysis panel under the simulator's canvas, opened from the toolbar: a tab of plots over
//! run time and a tab of run metrics.

use eframe::egui::{Panel, ScrollArea, Ui};

use super::command::Command;
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
                    for (tab, name) in [(AnalysisTab::Plots, "Plots"), (AnalysisTab::Metrics, "Metrics")] {
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
                }
            });
        commands
    }
}
