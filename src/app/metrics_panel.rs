//! The metrics tab of the analysis panel: the run summary of `crowdlab run --metrics` (agents,
//! arrivals, collisions, penetration, evacuation time, stuck agents, flows, SteerBench
//! composites) and a per-agent table sortable by any column; clicking a row selects the agent
//! and centres the canvas on it.

use std::cmp::Ordering;

use eframe::egui::{Button, Grid, ScrollArea, Ui, Vec2};

use super::command::Command;
use crate::record::{AgentMetrics, Metrics};

/// A column of the per-agent table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Column {
    /// Agent id.
    #[default]
    Id,
    /// Whether it reached its goal.
    Reached,
    /// Arrival time (s).
    Arrival,
    /// Distance walked (m).
    PathLength,
    /// Contact episodes.
    Collisions,
    /// Deepest penetration (m).
    Penetration,
}

impl Column {
    /// Every column, in table order.
    pub const ALL: [Column; 6] = [
        Column::Id,
        Column::Reached,
        Column::Arrival,
        Column::PathLength,
        Column::Collisions,
        Column::Penetration,
    ];

    /// The column's header.
    pub fn title(self) -> &'static str {
        match self {
            Column::Id => "agent",
            Column::Reached => "reached",
            Column::Arrival => "arrival (s)",
            Column::PathLength => "path (m)",
            Column::Collisions => "collisions",
            Column::Penetration => "max pen. (m)",
        }
    }

    /// The column's text for agent `a`.
    fn cell(self, a: &AgentMetrics) -> String {
        match self {
            Column::Id => a.id.to_string(),
            Column::Reached => if a.reached_goal { "yes" } else { "no" }.into(),
            Column::Arrival => a.arrival_time.map_or_else(|| "-".into(), |t| format!("{t:.1}")),
            Column::PathLength => format!("{:.1}", a.path_length),
            Column::Collisions => a.collisions.to_string(),
            Column::Penetration => format!("{:.3}", a.max_penetration),
        }
    }

    /// Orders two agents by this column (ties by id); a missing arrival sorts last.
    fn compare(self, a: &AgentMetrics, b: &AgentMetrics) -> Ordering {
        let by = match self {
            Column::Id => Ordering::Equal,
            Column::Reached => a.reached_goal.cmp(&b.reached_goal),
            Column::Arrival => match (a.arrival_time, b.arrival_time) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                (x, y) => y.is_some().cmp(&x.is_some()),
            },
            Column::PathLength => a.path_length.total_cmp(&b.path_length),
            Column::Collisions => a.collisions.cmp(&b.collisions),
            Column::Penetration => a.max_penetration.total_cmp(&b.max_penetration),
        };
        by.then(a.id.cmp(&b.id))
    }
}

/// How the per-agent table is sorted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableSort {
    /// The column sorted by.
    pub column: Column,
    /// Largest first.
    pub descending: bool,
}

impl TableSort {
    /// The agents' ids in this order.
    pub fn order(&self, agents: &[AgentMetrics]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..agents.len()).collect();
        order.sort_by(|&i, &j| {
            let o = self.column.compare(&agents[i], &agents[j]);
            if self.descending { o.reverse() } else { o }
        });
        order
    }

    /// Sorts by `column`, or flips the direction when it is already the one sorted by.
    pub fn click(&mut self, column: Column) {
        if self.column == column {
            self.descending = !self.descending;
        } else {
            *self = TableSort {
                column,
                descending: false,
            };
        }
    }
}

/// Pixel width of a table column.
const COLUMN_WIDTH: f32 = 78.0;

/// Draws the summary and the table of `metrics` (none yet: a hint), with `selected` marked.
pub fn show(ui: &mut Ui, metrics: Option<&Metrics>, sort: &mut TableSort, selected: Option<u32>) -> Vec<Command> {
    let Some(metrics) = metrics else {
        ui.label("Metrics appear once the run has ticks (press Play or Step).");
        return Vec::new();
    };
    let mut commands = Vec::new();
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            ui.set_width(260.0);
            summary(ui, metrics);
        });
        ui.separator();
        ui.vertical(|ui| commands.extend(table(ui, &metrics.agents, sort, selected)));
    });
    commands
}

fn summary(ui: &mut Ui, metrics: &Metrics) {
    let s = &metrics.summary;
    let c = &metrics.crowd;
    let seconds = |t: Option<f32>, otherwise: &str| t.map_or_else(|| otherwise.to_string(), |t| format!("{t:.1} s"));
    Grid::new("run summary").num_columns(2).striped(true).show(ui, |ui| {
        let mut row = |name: &str, value: String| {
            ui.label(name);
            ui.label(value);
            ui.end_row();
        };
        row("agents", s.agents.to_string());
        row("reached their goal", format!("{} of {}", s.agents_reached, s.agents));
        row("evacuation time", seconds(c.evacuation_time, "not everyone arrived"));
        row("collisions", s.collisions.to_string());
        row("max penetration", format!("{:.3} m", s.max_penetration));
        row("stuck agents", c.stuck_agents.len().to_string());
        row("deadlock", seconds(c.deadlock_time, "none"));
        row("ticks", s.ticks.to_string());
        row("SteerBench composite01", format!("{:.2}", s.scores.composite01));
        row("SteerBench composite02", format!("{:.2}", s.scores.composite02));
        for line in &c.lines {
            row(
                &format!("line {}", line.id),
                format!("net {} · {:.2} /s", line.net_count, line.flow),
            );
        }
    });
}

fn table(ui: &mut Ui, agents: &[AgentMetrics], sort: &mut TableSort, selected: Option<u32>) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.horizontal(|ui| {
        for column in Column::ALL {
            let arrow = match (sort.column == column, sort.descending) {
                (false, _) => "",
                (true, false) => " ^",
                (true, true) => " v",
            };
            let header = Button::new(format!("{}{arrow}", column.title())).selected(sort.column == column);
            if ui
                .add_sized(Vec2::new(COLUMN_WIDTH, 18.0), header)
                .on_hover_text("Sort by this column (again: reverse)")
                .clicked()
            {
                sort.click(column);
            }
        }
    });
    let order = sort.order(agents);
    let row_height = ui.spacing().interact_size.y;
    ScrollArea::vertical()
        .id_salt("agent metrics")
        .auto_shrink([false, false])
        .show_rows(ui, row_height, order.len(), |ui, rows| {
            for &i in &order[rows] {
                let a = &agents[i];
                ui.horizontal(|ui| {
                    for column in Column::ALL {
                        let cell = Button::new(column.cell(a))
                            .frame(false)
                            .selected(selected == Some(a.id));
                        if ui.add_sized(Vec2::new(COLUMN_WIDTH, row_height), cell).clicked() {
                            commands.push(Command::SelectAgent(a.id));
                        }
                    }
                });
            }
        });
    commands
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(id: u32, arrival: Option<f32>, path: f32) -> AgentMetrics {
        AgentMetrics {
            id,
            reached_goal: arrival.is_some(),
            completion_time: arrival,
            path_length: path,
            collisions: 0,
            max_penetration: 0.0,
            final_position: glam::Vec2::ZERO,
            start_time: 0.0,
            first_move_time: None,
            arrival_time: arrival,
            max_obstacle_penetration: 0.0,
            steerbench: Default::default(),
        }
    }

    #[test]
    fn sorting_by_a_column_and_again_reverses_missing_values_last() {
        let agents = [agent(0, Some(9.0), 3.0), agent(1, None, 1.0), agent(2, Some(4.0), 2.0)];
        let mut sort = TableSort::default();
        assert_eq!(sort.order(&agents), [0, 1, 2]);
        sort.click(Column::Arrival);
        assert_eq!(sort.order(&agents), [2, 0, 1], "earliest first, no arrival last");
        sort.click(Column::Arrival);
        assert_eq!(sort.order(&agents), [1, 0, 2]);
        sort.click(Column::PathLength);
        assert_eq!(sort.order(&agents), [1, 2, 0]);
    }
}
