//! The plots panel under the canvas: the selected agent's speed, acceleration, distance to goal
//! and forces (one line per behaviour, in the legend's colours), and the crowd's active and
//! arrived agents, contacts and mean speed — all over run time, with the time cursor drawn on
//! them; a click on a plot moves the cursor. A live run's plots grow as it runs; a recording's
//! agent series is read a few milliseconds at a time, with its progress shown. Scenes with
//! measurement areas or lines add their density, speed and crossings over time and the
//! fundamental diagram under Weidmann's curve.

mod agent_series;
mod space;
mod time_plot;

use std::time::Duration;

use eframe::egui::{Color32, ProgressBar, Ui};
use egui_plot::{Line, PlotPoints};

pub use agent_series::{AgentSeries, Series, StateSpan};

use super::command::Command;
use super::paint::color32;
use super::time::{Frames, TimeCommand};
use crate::app::analysis::TickSummary;
use crate::draw::{force_color, palette};

/// Time spent reading an agent's frames per drawn frame of the window.
const READ_BUDGET: Duration = Duration::from_millis(6);

/// Pixel height of each plot.
const PLOT_HEIGHT: f32 = 150.0;

/// The selected agent's series read so far, and how far the reading has got.
#[derive(Default)]
pub struct Plots {
    agent: Option<AgentSeries>,
    read: f32,
    error: Option<String>,
}

impl Plots {
    /// Forgets the series read so far (the run was replaced).
    pub fn reset(&mut self) {
        self.agent = None;
        self.error = None;
    }

    /// The selected agent's series read so far.
    pub fn agent_series(&self) -> Option<&AgentSeries> {
        self.agent.as_ref()
    }

    /// Reads more of `selected`'s series from `frames` (none: forgets it); true while some is
    /// left to read.
    pub fn update(&mut self, frames: &Frames, selected: Option<u32>) -> bool {
        let Some(((first, last), id)) = frames.tick_range().zip(selected) else {
            self.agent = None;
            return false;
        };
        let series = match &mut self.agent {
            Some(series) if series.agent == id => series,
            slot => slot.insert(AgentSeries::new(id, first)),
        };
        if series.is_read_to(last) {
            return false;
        }
        match series.extend(frames.source(), READ_BUDGET) {
            Ok(read) => self.read = read,
            Err(e) => self.error = Some(format!("Cannot read agent {id}'s frames: {e}")),
        }
        self.error.is_none() && !series.is_read_to(last)
    }

    /// Draws the plots of `frames` with the cursor at `tick`; returns the seek a click asked for.
    pub fn show(&self, ui: &mut Ui, frames: &Frames, tick: u64) -> Vec<Command> {
        let header = frames.header();
        let dt = f64::from(header.dt);
        let cursor = tick as f64 * dt;
        let mut clicked = None;
        ui.columns(3, |columns| {
            let ui = &mut columns[0];
            match &self.agent {
                None => {
                    ui.label("Selected agent");
                    ui.label("Select an agent on the canvas to plot its speed and forces.");
                }
                Some(series) => {
                    if let Some(error) = &self.error {
                        ui.colored_label(Color32::from_rgb(200, 60, 60), error);
                    } else if self.read < 1.0 && frames.is_finished() {
                        ui.add(ProgressBar::new(self.read).text("reading the agent's frames"));
                    }
                    let title = format!("Agent {}", series.agent);
                    let lines = agent_lines(series, header);
                    clicked = clicked.or(time_plot::show(ui, &title, PLOT_HEIGHT, cursor, move |plot| {
                        lines.into_iter().for_each(|line| plot.line(line));
                    }));
                }
            }
            let ui = &mut columns[1];
            let lines = crowd_count_lines(frames.summaries(), dt);
            clicked = clicked.or(time_plot::show(ui, "Crowd", PLOT_HEIGHT, cursor, move |plot| {
                lines.into_iter().for_each(|line| plot.line(line));
            }));
            let ui = &mut columns[2];
            let speed = |s: &TickSummary| f64::from(s.mean_speed);
            let line = crowd_line(
                "mean speed (m/s)",
                frames.summaries(),
                dt,
                speed,
                Color32::from_rgb(150, 110, 40),
            );
            clicked = clicked.or(time_plot::show(ui, "Crowd speed", PLOT_HEIGHT, cursor, move |plot| {
                plot.line(line)
            }));
        });
        if let Some(crowd) = frames
            .metrics()
            .map(|m| &m.crowd)
            .filter(|c| !c.areas.is_empty() || !c.lines.is_empty())
        {
            ui.separator();
            ui.columns(3, |columns| {
                let lines = space::area_lines(&crowd.areas);
                clicked = clicked.or(time_plot::show(
                    &mut columns[0],
                    "Measurement areas",
                    PLOT_HEIGHT,
                    cursor,
                    move |plot| {
                        lines.into_iter().for_each(|line| plot.line(line));
                    },
                ));
                let lines = space::crossing_lines(&crowd.lines);
                clicked = clicked.or(time_plot::show(
                    &mut columns[1],
                    "Measurement lines",
                    PLOT_HEIGHT,
                    cursor,
                    move |plot| {
                        lines.into_iter().for_each(|line| plot.line(line));
                    },
                ));
                space::fundamental_diagram(&mut columns[2], &crowd.areas, PLOT_HEIGHT);
            });
        }
        clicked
            .map(|time| Command::Time(TimeCommand::SeekTo((time.max(0.0) / dt).round() as u64)))
            .into_iter()
            .collect()
    }
}

/// One line per quantity of the agent's series, forces in the canvas legend's colours.
fn agent_lines(series: &AgentSeries, header: &crate::record::RecordingHeader) -> Vec<Line<'static>> {
    let pal = palette();
    let mut quantities = vec![
        ("speed (m/s)".to_string(), &series.speed, color32(pal.velocity)),
        (
            "acceleration (m/s²)".to_string(),
            &series.acceleration,
            Color32::from_rgb(150, 110, 40),
        ),
        (
            "distance to goal (m)".to_string(),
            &series.distance_to_goal,
            Color32::from_rgb(90, 90, 90),
        ),
        (
            "steering (combined)".to_string(),
            &series.steering,
            color32(pal.steering),
        ),
        (
            "avoidance correction".to_string(),
            &series.avoidance,
            Color32::from_rgb(40, 150, 160),
        ),
    ];
    for (label, points) in &series.forces {
        let name = header.label(*label);
        quantities.push((name.to_string(), points, color32(force_color(name))));
    }
    quantities
        .into_iter()
        .filter(|(_, points, _)| !points.is_empty())
        .map(|(name, points, color)| Line::new(name, PlotPoints::from(points.clone())).color(color))
        .collect()
}

/// The crowd's active and arrived agents and its contacts per analysed tick.
fn crowd_count_lines(summaries: &[TickSummary], dt: f64) -> Vec<Line<'static>> {
    let counts: [(&str, fn(&TickSummary) -> u32, Color32); 3] = [
        ("active agents", |s| s.present, Color32::from_rgb(60, 110, 200)),
        ("arrived", |s| s.arrived, Color32::from_rgb(40, 160, 80)),
        ("contacts", |s| s.contacts, Color32::from_rgb(210, 60, 60)),
    ];
    counts
        .into_iter()
        .map(|(name, count, color)| crowd_line(name, summaries, dt, |s| f64::from(count(s)), color))
        .collect()
}

/// One whole-run quantity over time.
fn crowd_line(
    name: &str,
    summaries: &[TickSummary],
    dt: f64,
    value: impl Fn(&TickSummary) -> f64,
    color: Color32,
) -> Line<'static> {
    let points: Vec<[f64; 2]> = summaries.iter().map(|s| [s.tick as f64 * dt, value(s)]).collect();
    Line::new(name.to_string(), PlotPoints::from(points)).color(color)
}
