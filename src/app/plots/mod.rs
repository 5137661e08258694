//! The plots panel under the canvas: the selected agent's speed, acceleration, distance to goal
//! and forces (one line per behaviour, in the legend's colours), and the crowd's active,
//! arrived and stuck agents, contacts, mean speed and (with several mind states) agents per
//! state stacked — all over run time, with the time cursor drawn on
//! them; a click on a plot moves the cursor. A live run's plots grow as it runs; a recording's
//! agent series is read a few milliseconds at a time, with its progress shown. Scenes with
//! measurement areas or lines add their density, speed and crossings over time and the
//! fundamental diagram under Weidmann's curve.

mod agent_series;
mod space;
mod states;
mod thinning;
mod time_plot;

use thinning::Thinning;

use std::time::Duration;

use eframe::egui::{Color32, ProgressBar, Ui};
use egui_plot::{Line, PlotPoints};

pub use agent_series::{AgentSeries, Series, StateSpan};
pub use time_plot::small_legend;

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

    /// Draws the plots of `frames` with the cursor at `tick`, three to a row; returns the seek a
    /// click asked for.
    pub fn show(&self, ui: &mut Ui, frames: &Frames, tick: u64) -> Vec<Command> {
        let dt = f64::from(frames.header().dt);
        let cursor = tick as f64 * dt;
        let mut cards = vec![Card::Agent, Card::Crowd, Card::CrowdSpeed];
        if frames.header().states.len() > 1 {
            cards.push(Card::States);
        }
        if frames
            .metrics()
            .is_some_and(|m| !m.crowd.areas.is_empty() || !m.crowd.lines.is_empty())
        {
            cards.extend([Card::Areas, Card::Lines, Card::Fundamental]);
        }
        let mut clicked = None;
        for (n, row) in cards.chunks(3).enumerate() {
            if n > 0 {
                ui.separator();
            }
            ui.columns(3, |columns| {
                for (card, ui) in row.iter().zip(columns) {
                    clicked = clicked.or(self.show_card(ui, *card, frames, cursor));
                }
            });
        }
        clicked
            .map(|time| Command::Time(TimeCommand::SeekTo((time.max(0.0) / dt).round() as u64)))
            .into_iter()
            .collect()
    }

    /// Draws one plot with the cursor at `cursor` seconds; returns the time a click asked for.
    fn show_card(&self, ui: &mut Ui, card: Card, frames: &Frames, cursor: f64) -> Option<f64> {
        let header = frames.header();
        let dt = f64::from(header.dt);
        let summaries = frames.summaries();
        let title = match (card, &self.agent) {
            (Card::Agent, Some(series)) => format!("Agent {}", series.agent),
            _ => card.title().to_string(),
        };
        let thin = Thinning::of(ui, &title, ui.available_width());
        let plot = |ui: &mut Ui, title: &str, lines: Vec<Line<'static>>| {
            time_plot::show(ui, title, PLOT_HEIGHT, cursor, move |plot| {
                lines.into_iter().for_each(|line| plot.line(line));
            })
        };
        let crowd = frames.metrics().map(|m| &m.crowd);
        match card {
            Card::Agent => match &self.agent {
                None => {
                    ui.label("Selected agent");
                    ui.label("Select an agent on the canvas to plot its speed and forces.");
                    None
                }
                Some(series) => {
                    if let Some(error) = &self.error {
                        ui.colored_label(Color32::from_rgb(200, 60, 60), error);
                    } else if self.read < 1.0 && frames.is_finished() {
                        ui.add(ProgressBar::new(self.read).text("reading the agent's frames"));
                    }
                    plot(ui, &title, agent_lines(series, header, &thin))
                }
            },
            Card::Crowd => plot(ui, &title, crowd_count_lines(summaries, dt, &thin)),
            Card::CrowdSpeed => {
                let speed = |s: &TickSummary| f64::from(s.mean_speed);
                let color = Color32::from_rgb(150, 110, 40);
                let line = crowd_line("mean speed (m/s)", summaries, dt, speed, color, &thin);
                plot(ui, &title, vec![line])
            }
            Card::States => {
                let areas = states::stacked(summaries, header, &thin);
                time_plot::show(ui, &title, PLOT_HEIGHT, cursor, move |plot| {
                    areas.into_iter().for_each(|area| plot.add(area));
                })
            }
            Card::Areas => plot(ui, &title, space::area_lines(crowd.map_or(&[], |c| &c.areas), &thin)),
            Card::Lines => plot(
                ui,
                &title,
                space::crossing_lines(crowd.map_or(&[], |c| &c.lines), &thin),
            ),
            Card::Fundamental => {
                space::fundamental_diagram(ui, crowd.map_or(&[], |c| &c.areas), PLOT_HEIGHT);
                None
            }
        }
    }
}

impl Card {
    /// The plot's title (also its accessible label); the agent's plot is named after the agent.
    fn title(self) -> &'static str {
        match self {
            Card::Agent => "Selected agent",
            Card::Crowd => "Crowd",
            Card::CrowdSpeed => "Crowd speed",
            Card::States => "Mind states",
            Card::Areas => "Measurement areas",
            Card::Lines => "Measurement lines",
            Card::Fundamental => "Fundamental diagram",
        }
    }
}

/// One plot of the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Card {
    /// The selected agent's quantities and forces.
    Agent,
    /// Active, arrived, stuck agents and contacts.
    Crowd,
    /// The crowd's mean speed.
    CrowdSpeed,
    /// Agents per mind state, stacked.
    States,
    /// Density and speed per measurement area.
    Areas,
    /// Crossings per measurement line.
    Lines,
    /// Density against speed under Weidmann's curve.
    Fundamental,
}

/// One line per quantity of the agent's series, forces in the canvas legend's colours.
fn agent_lines(series: &AgentSeries, header: &crate::record::RecordingHeader, thin: &Thinning) -> Vec<Line<'static>> {
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
        .map(|(name, points, color)| Line::new(name, PlotPoints::from(thin.line(points))).color(color))
        .collect()
}

/// A whole-run count plotted over time: its name, how it is read from a tick's summary, its colour.
type CrowdCount = (&'static str, fn(&TickSummary) -> u32, Color32);

/// The crowd's active, arrived and stuck agents and its contacts per analysed tick.
fn crowd_count_lines(summaries: &[TickSummary], dt: f64, thin: &Thinning) -> Vec<Line<'static>> {
    let counts: [CrowdCount; 4] = [
        ("active agents", |s| s.present, Color32::from_rgb(60, 110, 200)),
        ("arrived", |s| s.arrived, Color32::from_rgb(40, 160, 80)),
        ("contacts", |s| s.contacts, Color32::from_rgb(210, 60, 60)),
        ("stuck", |s| s.stuck, Color32::from_rgb(230, 150, 30)),
    ];
    counts
        .into_iter()
        .map(|(name, count, color)| crowd_line(name, summaries, dt, |s| f64::from(count(s)), color, thin))
        .collect()
}

/// One whole-run quantity over time.
fn crowd_line(
    name: &str,
    summaries: &[TickSummary],
    dt: f64,
    value: impl Fn(&TickSummary) -> f64,
    color: Color32,
    thin: &Thinning,
) -> Line<'static> {
    let shown = &summaries[thin.indices(summaries, |s| s.tick as f64 * dt)];
    let points: Vec<[f64; 2]> = shown.iter().map(|s| [s.tick as f64 * dt, value(s)]).collect();
    Line::new(name.to_string(), PlotPoints::from(thin.line(&points))).color(color)
}
