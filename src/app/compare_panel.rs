//! The Compare tab of the analysis panel: runs the open scene with every method of
//! `crowdlab compare` on a background thread (progress per method, Cancel), then shows the
//! SteerBench table with an Open button per row, the evacuation curves and the distributions of
//! the agents' mean speeds overlaid, one colour per method.

use eframe::egui::{Color32, Grid, Ui};
use egui_plot::{Line, Plot, PlotPoints};

use super::background_job::show_running;
use super::command::Command;
use super::compare_job::Comparison;
use super::plots::small_legend;
use crate::record::Metrics;
use crate::validate::MethodRun;

/// Width of a speed-distribution bin (m/s).
const SPEED_BIN: f64 = 0.1;

/// Pixel height of the two plots.
const PLOT_HEIGHT: f32 = 160.0;

/// A colour per method, cycling.
fn colour(n: usize) -> Color32 {
    Color32::from_rgb(
        [60, 210, 40, 170, 200, 90, 20, 150][n % 8],
        [110, 110, 160, 60, 60, 90, 150, 120][n % 8],
        [200, 40, 80, 170, 60, 90, 160, 40][n % 8],
    )
}

/// Draws the tab for `comparison` of a scene with tick length `dt`.
pub fn show(ui: &mut Ui, comparison: &Comparison, dt: f32) -> Vec<Command> {
    let mut commands = Vec::new();
    match comparison {
        Comparison::Running(job) => {
            if show_running(ui, job, "Running the scene with every method…") {
                commands.push(Command::CancelComparison);
            }
        }
        idle => {
            ui.horizontal(|ui| {
                if ui
                    .button("Compare methods")
                    .on_hover_text("Run the open scene with every avoidance method and combiner (as crowdlab compare)")
                    .clicked()
                {
                    commands.push(Command::StartComparison);
                }
                if matches!(idle, Comparison::Cancelled) {
                    ui.label("Cancelled.");
                }
            });
            if let Comparison::Done(runs) = idle {
                commands.extend(table(ui, runs));
                let named: Vec<(&str, &Metrics)> = runs.iter().map(|r| (r.method.name.as_str(), &r.metrics)).collect();
                ui.columns(2, |columns| {
                    curves(
                        &mut columns[0],
                        "Evacuation curves",
                        "arrived",
                        &named,
                        evacuation_curve,
                    );
                    curves(&mut columns[1], "Mean speeds", "agents", &named, |m| {
                        speed_distribution(m, dt)
                    });
                });
            }
        }
    }
    commands
}

fn table(ui: &mut Ui, runs: &[MethodRun]) -> Vec<Command> {
    let mut commands = Vec::new();
    Grid::new("comparison").striped(true).show(ui, |ui| {
        for title in [
            "method",
            "reached",
            "collisions",
            "deepest (m)",
            "evacuation (s)",
            "composite01",
            "composite02",
            "ms/tick",
            "",
        ] {
            ui.strong(title);
        }
        ui.end_row();
        for (n, run) in runs.iter().enumerate() {
            let s = &run.metrics.summary;
            ui.colored_label(colour(n), &run.method.name);
            ui.label(format!("{}/{}", s.agents_reached, s.agents));
            ui.label(s.collisions.to_string());
            ui.label(format!("{:.3}", s.max_penetration));
            ui.label(
                run.metrics
                    .crowd
                    .evacuation_time
                    .map_or_else(|| "-".into(), |t| format!("{t:.1}")),
            );
            ui.label(format!("{:.1}", s.scores.composite01));
            ui.label(format!("{:.1}", s.scores.composite02));
            ui.label(format!("{:.3}", s.ms_per_tick));
            if ui
                .button(format!("Open {}", run.method.name))
                .on_hover_text("Run the scene with this method in the simulator (the scene file is unchanged)")
                .clicked()
            {
                commands.push(Command::OpenMethodRun(run.method.name.clone()));
            }
            ui.end_row();
        }
    });
    commands
}

/// One plot with a line per named run from `series`.
pub fn curves(
    ui: &mut Ui,
    title: &str,
    y: &str,
    runs: &[(&str, &Metrics)],
    series: impl Fn(&Metrics) -> Vec<[f64; 2]>,
) {
    ui.label(title);
    Plot::new(title)
        .height(PLOT_HEIGHT)
        .legend(small_legend())
        .y_axis_label(y)
        .include_y(0.0)
        .show(ui, |plot| {
            for (n, (name, metrics)) in runs.iter().enumerate() {
                let points = PlotPoints::from(series(metrics));
                plot.line(Line::new(name.to_string(), points).color(colour(n)));
            }
        });
}

/// Arrivals so far at each arrival time: (time s, count).
pub fn evacuation_curve(metrics: &Metrics) -> Vec<[f64; 2]> {
    let times = &metrics.crowd.arrival_times;
    std::iter::once([0.0, 0.0])
        .chain(times.iter().enumerate().map(|(k, t)| [f64::from(*t), (k + 1) as f64]))
        .collect()
}

/// How many agents had each mean speed (walked distance over time present, until arrival or
/// the end of the run), in bins of [`SPEED_BIN`]: (bin centre m/s, agents).
pub fn speed_distribution(metrics: &Metrics, dt: f32) -> Vec<[f64; 2]> {
    let end = metrics.summary.ticks as f32 * dt;
    let speeds: Vec<f64> = metrics
        .agents
        .iter()
        .filter_map(|a| {
            let time = a.arrival_time.unwrap_or(end) - a.start_time;
            (time > 0.0).then(|| f64::from(a.path_length / time))
        })
        .collect();
    let bins = speeds
        .iter()
        .map(|v| (v / SPEED_BIN) as usize)
        .max()
        .map_or(0, |b| b + 1);
    let mut counts = vec![0u32; bins];
    for v in &speeds {
        counts[(v / SPEED_BIN) as usize] += 1;
    }
    counts
        .iter()
        .enumerate()
        .map(|(b, c)| [(b as f64 + 0.5) * SPEED_BIN, f64::from(*c)])
        .collect()
}
