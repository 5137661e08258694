//! Minimal x–y plots rendered to PNG through the draw list's tiny-skia backend: a light grid at
//! fixed steps, axes, line or dot series. There is no text (the backend has no font engine);
//! the report's caption states the axes, ranges and grid steps.

use std::path::Path;

use anyhow::{Context, Result};
use glam::Vec2;
use tiny_skia::Pixmap;

use crate::atomic_file::write_atomic;
use crate::draw::{Color, DrawList, Shape, Stroke, View, render_to_pixmap};

/// Image size in pixels.
const SIZE: Vec2 = Vec2::new(640.0, 400.0);
/// Margin around the plotting area in pixels.
const MARGIN: f32 = 30.0;

/// One data series.
#[derive(Clone, Debug)]
pub struct Series {
    /// Data points (x, y).
    pub points: Vec<Vec2>,
    /// Colour of the line or dots.
    pub color: Color,
    /// Dots instead of a connected line.
    pub dots: bool,
}

/// A plot: data ranges from 0 to the maxima, with grid lines every step.
#[derive(Clone, Debug)]
pub struct Plot {
    /// Largest x shown.
    pub x_max: f32,
    /// Largest y shown.
    pub y_max: f32,
    /// Grid spacing along x.
    pub x_step: f32,
    /// Grid spacing along y.
    pub y_step: f32,
    /// The series, drawn in order.
    pub series: Vec<Series>,
}

impl Plot {
    /// Pixel position (y up) of data point `p`.
    fn to_pixels(&self, p: Vec2) -> Vec2 {
        let area = SIZE - Vec2::splat(2.0 * MARGIN);
        Vec2::splat(MARGIN) + p / Vec2::new(self.x_max, self.y_max) * area
    }

    fn draw_list(&self) -> DrawList {
        let mut list = DrawList::default();
        let line = |points: Vec<Vec2>, width: f32, color: Color| Shape::Polyline {
            points,
            closed: false,
            stroke: Stroke { width, color },
        };
        let grid = Color::rgb(220, 220, 220);
        let steps = |max: f32, step: f32| (0..=(max / step).floor() as usize).map(move |k| k as f32 * step);
        for x in steps(self.x_max, self.x_step) {
            list.push(line(
                vec![
                    self.to_pixels(Vec2::new(x, 0.0)),
                    self.to_pixels(Vec2::new(x, self.y_max)),
                ],
                1.0,
                grid,
            ));
        }
        for y in steps(self.y_max, self.y_step) {
            list.push(line(
                vec![
                    self.to_pixels(Vec2::new(0.0, y)),
                    self.to_pixels(Vec2::new(self.x_max, y)),
                ],
                1.0,
                grid,
            ));
        }
        let axes = vec![
            self.to_pixels(Vec2::new(0.0, self.y_max)),
            self.to_pixels(Vec2::ZERO),
            self.to_pixels(Vec2::new(self.x_max, 0.0)),
        ];
        list.push(line(axes, 1.5, Color::rgb(40, 40, 40)));
        for s in &self.series {
            let points: Vec<Vec2> = s.points.iter().map(|p| self.to_pixels(*p)).collect();
            if s.dots {
                for center in points {
                    list.push(Shape::Circle {
                        center,
                        radius: 4.0,
                        fill: Some(s.color),
                        stroke: None,
                    });
                }
            } else {
                list.push(line(points, 2.0, s.color));
            }
        }
        list
    }

    /// Renders the plot and writes it as a PNG file.
    pub fn write_png(&self, path: &Path) -> Result<()> {
        let mut pixmap = Pixmap::new(SIZE.x as u32, SIZE.y as u32).context("plot pixmap")?;
        let view = View {
            center: SIZE * 0.5,
            scale: 1.0,
            origin: Vec2::ZERO,
            size: SIZE,
        };
        render_to_pixmap(&self.draw_list(), &view, Some(Color::rgb(255, 255, 255)), &mut pixmap);
        let png = pixmap.encode_png().context("PNG encoding failed")?;
        write_atomic(path, &png).with_context(|| format!("{}: cannot write", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_maps_into_the_margins_with_y_up() {
        let plot = Plot {
            x_max: 10.0,
            y_max: 2.0,
            x_step: 1.0,
            y_step: 0.5,
            series: vec![],
        };
        assert_eq!(plot.to_pixels(Vec2::ZERO), Vec2::splat(MARGIN));
        assert_eq!(plot.to_pixels(Vec2::new(10.0, 2.0)), SIZE - Vec2::splat(MARGIN));
        // 11 vertical + 5 horizontal grid lines + the axes.
        assert_eq!(plot.draw_list().shapes.len(), 17);
    }
}
