//! The plots of a scene's measurement areas and lines: each area's density and mean speed over
//! time, each line's cumulative crossings over time, and the fundamental diagram — every area's
//! (density, speed) samples scattered under Weidmann's curve.

use eframe::egui::{Color32, Ui};
use egui_plot::{Line, Plot, PlotPoints, Points};

use super::thinning::Thinning;
use super::time_plot::small_legend;
use crate::record::{AreaSeries, LineFlow};
use crate::validate::{JAM_DENSITY, weidmann_speed};

/// A colour per area or line, cycling.
fn colour(n: usize) -> Color32 {
    const COLOURS: [Color32; 6] = [
        Color32::from_rgb(60, 110, 200),
        Color32::from_rgb(210, 110, 40),
        Color32::from_rgb(40, 160, 80),
        Color32::from_rgb(170, 60, 170),
        Color32::from_rgb(200, 60, 60),
        Color32::from_rgb(90, 90, 90),
    ];
    COLOURS[n % COLOURS.len()]
}

/// Each area's density (P/m², solid) and mean speed (m/s) over time.
pub fn area_lines(areas: &[AreaSeries], thin: &Thinning) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (n, area) in areas.iter().enumerate() {
        let series = |value: fn(&crate::record::AreaSample) -> f32| -> Vec<[f64; 2]> {
            area.samples
                .iter()
                .map(|s| [f64::from(s.time), f64::from(value(s))])
                .collect()
        };
        lines.push(
            Line::new(
                format!("{} density (P/m²)", area.id),
                PlotPoints::from(thin.line(&series(|s| s.density))),
            )
            .color(colour(n)),
        );
        lines.push(
            Line::new(
                format!("{} speed (m/s)", area.id),
                PlotPoints::from(thin.line(&series(|s| s.mean_speed))),
            )
            .color(colour(n).gamma_multiply(0.55)),
        );
    }
    lines
}

/// Each line's net count of crossings (positive direction minus negative) over time.
pub fn crossing_lines(lines: &[LineFlow], thin: &Thinning) -> Vec<Line<'static>> {
    lines
        .iter()
        .enumerate()
        .map(|(n, line)| {
            let mut net = 0i32;
            let points: Vec<[f64; 2]> = line
                .crossings
                .iter()
                .map(|c| {
                    net += i32::from(c.direction);
                    [f64::from(c.time), f64::from(net)]
                })
                .collect();
            Line::new(
                format!("{} net crossings", line.id),
                PlotPoints::from(thin.line(&points)),
            )
            .color(colour(n))
        })
        .collect()
}

/// The fundamental diagram: every occupied area sample as a (density, speed) point, one colour
/// per area, with Weidmann's speed–density curve drawn over them.
pub fn fundamental_diagram(ui: &mut Ui, areas: &[AreaSeries], height: f32) {
    ui.label("Fundamental diagram");
    let curve: Vec<[f64; 2]> = (1..=108)
        .map(|k| {
            let rho = k as f32 * JAM_DENSITY / 108.0;
            [f64::from(rho), f64::from(weidmann_speed(rho))]
        })
        .collect();
    Plot::new("fundamental diagram")
        .height(height)
        .legend(small_legend())
        .x_axis_label("density (P/m²)")
        .y_axis_label("speed (m/s)")
        .include_x(0.0)
        .include_y(0.0)
        .show(ui, |plot| {
            for (n, area) in areas.iter().enumerate() {
                // Samples falling on the same spot (to 0.01 P/m² and 0.01 m/s) are drawn once.
                let spots: std::collections::BTreeSet<(i64, i64)> = area
                    .samples
                    .iter()
                    .filter(|s| s.count > 0)
                    .map(|s| {
                        (
                            (s.density * 100.0).round() as i64,
                            (s.mean_speed * 100.0).round() as i64,
                        )
                    })
                    .collect();
                let points: Vec<[f64; 2]> = spots
                    .into_iter()
                    .map(|(d, v)| [d as f64 / 100.0, v as f64 / 100.0])
                    .collect();
                plot.points(
                    Points::new(area.id.clone(), PlotPoints::from(points))
                        .color(colour(n))
                        .radius(2.0),
                );
            }
            plot.line(Line::new("Weidmann", PlotPoints::from(curve)).color(Color32::from_rgb(40, 40, 40)));
        });
}
