//! The Markdown validation report: a summary table (test → pass/fail with the key figure), then
//! per case its description, a table of every criterion (band vs measured) and PNG plots of the
//! fundamental diagram and the evacuation curves, written next to the report.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use glam::Vec2;

use super::criteria::{Criterion, fundamental_diagram};
use super::plot::{Plot, Series};
use super::suite::{CaseReport, SuiteReport};
use super::weidmann::weidmann_speed;
use crate::atomic_file::write_atomic;
use crate::draw::Color;

/// Colours of successive series (blue, orange, green, purple).
const COLORS: [Color; 4] = [
    Color::rgb(50, 100, 200),
    Color::rgb(230, 120, 30),
    Color::rgb(40, 160, 70),
    Color::rgb(140, 70, 190),
];
/// Colour of reference curves (Weidmann).
const REFERENCE: Color = Color::rgb(200, 40, 40);

/// A grid step of 1, 2 or 5 × 10ᵏ giving about five to ten grid lines up to `max`.
fn nice_step(max: f32) -> f32 {
    let raw = (max / 8.0).max(1e-6);
    let magnitude = 10f32.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude)
}

fn verdict(passed: bool) -> &'static str {
    if passed { "**pass**" } else { "**FAIL**" }
}

/// The fundamental diagram plot of `case` and its caption, if it has a diagram criterion.
fn diagram_plot(case: &CaseReport) -> Option<(Plot, String)> {
    let (from, to) = case.criteria.iter().find_map(|c| match c {
        Criterion::FundamentalDiagram { from, to, .. } => Some((*from, *to)),
        _ => None,
    })?;
    let points = fundamental_diagram(&case.metrics, from, to);
    let reference = (2..=65)
        .map(|k| k as f32 * 0.1)
        .map(|rho| Vec2::new(rho, weidmann_speed(rho)));
    let plot = Plot {
        x_max: 7.0,
        y_max: 1.6,
        x_step: 1.0,
        y_step: 0.2,
        series: vec![
            Series {
                points: reference.collect(),
                color: REFERENCE,
                dots: false,
            },
            Series {
                points: points.iter().map(|(_, rho, v)| Vec2::new(*rho, *v)).collect(),
                color: COLORS[0],
                dots: true,
            },
        ],
    };
    let listed: Vec<String> = points
        .iter()
        .map(|(id, rho, v)| format!("{id}: ρ = {rho:.2} P/m², v = {v:.2} m/s"))
        .collect();
    let caption = format!(
        "Fundamental diagram: density 0–7 P/m² (x, grid 1) against mean speed 0–1.6 m/s (y, grid 0.2); \
         blue dots measured ({from}–{to} s), red line Weidmann. Points: {}.",
        listed.join("; ")
    );
    Some((plot, caption))
}

/// The evacuation curves of `case` (arrivals over time, per profile when there are at most four).
fn evacuation_plot(case: &CaseReport) -> Option<(Plot, String)> {
    let arrivals = &case.metrics.crowd.arrival_times;
    let last = *arrivals.last()?;
    let profiles = &case.scene.profiles;
    let groups: Vec<(String, Vec<f32>)> = if profiles.len() <= COLORS.len() {
        profiles
            .iter()
            .map(|p| {
                let ids: std::collections::HashSet<u32> = case
                    .scene
                    .agents
                    .iter()
                    .filter(|a| a.profile == p.name)
                    .map(|a| a.id)
                    .collect();
                let mut times: Vec<f32> = case
                    .metrics
                    .agents
                    .iter()
                    .filter(|a| ids.contains(&a.id))
                    .filter_map(|a| a.arrival_time)
                    .collect();
                times.sort_by(f32::total_cmp);
                (p.name.clone(), times)
            })
            .collect()
    } else {
        vec![("all agents".into(), arrivals.clone())]
    };
    let y_max = groups.iter().map(|(_, t)| t.len()).max().unwrap_or(1).max(1) as f32;
    let x_max = (last * 1.05).max(1.0);
    let (x_step, y_step) = (nice_step(x_max), nice_step(y_max));
    let series = groups
        .iter()
        .zip(COLORS.iter().cycle())
        .map(|((_, times), color)| Series {
            points: std::iter::once(Vec2::ZERO)
                .chain(
                    times
                        .iter()
                        .enumerate()
                        .flat_map(|(i, t)| [Vec2::new(*t, i as f32), Vec2::new(*t, (i + 1) as f32)]),
                )
                .collect(),
            color: *color,
            dots: false,
        })
        .collect();
    let names = ["blue", "orange", "green", "purple"];
    let legend: Vec<String> = groups
        .iter()
        .zip(names.iter().cycle())
        .map(|((name, times), colour)| format!("{colour} {name} ({} out)", times.len()))
        .collect();
    let caption = format!(
        "Evacuation curve: time 0–{x_max:.0} s (x, grid {x_step}) against agents arrived 0–{y_max:.0} \
         (y, grid {y_step}); {}.",
        legend.join(", ")
    );
    Some((
        Plot {
            x_max,
            y_max,
            x_step,
            y_step,
            series,
        },
        caption,
    ))
}

/// Writes `report.md` and its plots into `out_dir` (created if needed); `command` is the command
/// line that produced the report. Returns the report's path.
pub fn write_markdown_report(report: &SuiteReport, out_dir: &Path, command: &str) -> Result<PathBuf> {
    std::fs::create_dir_all(out_dir).with_context(|| format!("{}: cannot create the folder", out_dir.display()))?;
    let passed = report.cases.iter().filter(|c| c.passed()).count();
    let mut md = String::new();
    let _ = writeln!(md, "# crowdlab validation report\n");
    let _ = writeln!(
        md,
        "Method: `{}` · command: `{command}` · **{passed} of {} tests passed**\n",
        report.method.name,
        report.cases.len()
    );
    let _ = writeln!(md, "| test | scene | result | key figure (band) |\n|---|---|---|---|");
    for case in &report.cases {
        let key = case
            .checks
            .iter()
            .find(|c| !c.passed)
            .or(case.checks.first())
            .map_or(String::new(), |c| format!("{}: {} ({})", c.what, c.measured, c.band));
        let _ = writeln!(
            md,
            "| {} | {} | {} | {key} |",
            case.test,
            case.name,
            verdict(case.passed())
        );
    }
    for case in &report.cases {
        let _ = writeln!(
            md,
            "\n## {} — {}\n\n{}\n",
            case.test, case.scene.name, case.scene.description
        );
        let _ = writeln!(md, "| criterion | band | measured | result |\n|---|---|---|---|");
        for c in &case.checks {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} |",
                c.what,
                c.band,
                c.measured,
                verdict(c.passed)
            );
        }
        let s = &case.metrics.summary;
        let _ = writeln!(
            md,
            "\n{} agents, {} ticks, {} contact episodes (deepest {:.3} m), composite01 {:.1}, composite02 {:.1}.",
            s.agents, s.ticks, s.collisions, s.max_penetration, s.scores.composite01, s.scores.composite02
        );
        for (suffix, plot) in [("diagram", diagram_plot(case)), ("evacuation", evacuation_plot(case))] {
            if let Some((plot, caption)) = plot {
                let file = format!("{}_{suffix}.png", case.name);
                plot.write_png(&out_dir.join(&file))?;
                let _ = writeln!(md, "\n![{caption}]({file})\n\n{caption}");
            }
        }
    }
    let path = out_dir.join("report.md");
    write_atomic(&path, md.as_bytes()).with_context(|| format!("{}: cannot write", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_steps_are_round_numbers() {
        assert_eq!(nice_step(7.0), 1.0);
        assert_eq!(nice_step(400.0), 50.0);
        assert_eq!(nice_step(1000.0), 200.0);
        assert_eq!(nice_step(31.0), 5.0);
    }
}
