//! The tiny interface every renderer implements (after Detour's `duDebugDraw`): fill a polygon,
//! stroke a line, write text, draw a circle — in screen pixels. [`paint`] turns a draw list into
//! those calls through a [`View`]: arrows become a shaft and a head, computed here once, so the
//! canvas and the PNG export cannot drift apart; circles are polygons fine enough for their size
//! on screen unless the renderer has an exact circle of its own (egui does).

use std::f32::consts::TAU;

use glam::Vec2;

use super::list::{Color, DrawList, Shape, Stroke};
use super::view::View;

/// A renderer: the three operations a draw list needs, in screen pixels.
pub trait Backend {
    /// Fills the simple polygon `points` (screen pixels); `convex` when it is known to be.
    fn fill_polygon(&mut self, points: &[Vec2], convex: bool, color: Color);
    /// Strokes the line through `points` (screen pixels), back to the first when `closed`.
    fn stroke_line(&mut self, points: &[Vec2], closed: bool, stroke: Stroke);
    /// Writes `text` centred at `at` (screen pixels), `size` pixels high.
    fn text(&mut self, at: Vec2, text: &str, size: f32, color: Color);
    /// Fills the circle of `radius` pixels around `center` (screen) and strokes its outline
    /// outside the fill, from `radius` to `radius` plus the stroke's width, as egui does. By
    /// default polygons fine enough for their size ([`circle_points`]); a renderer with a
    /// cheaper exact circle draws that instead.
    fn circle(&mut self, center: Vec2, radius: f32, fill: Option<Color>, stroke: Option<Stroke>) {
        if let Some(fill) = fill {
            self.fill_polygon(&circle_points(center, radius), true, fill);
        }
        if let Some(stroke) = stroke {
            let ring = circle_points(center, radius + stroke.width * 0.5);
            self.stroke_line(&ring, true, stroke);
        }
    }
}

/// Screen distance between two vertices of a circle's polygon, in pixels.
const CIRCLE_STEP_PIXELS: f32 = 2.5;

/// The polygon of a circle of `radius` pixels around `center` (screen): a vertex every
/// `CIRCLE_STEP_PIXELS`, between 8 and 96 of them.
pub fn circle_points(center: Vec2, radius: f32) -> Vec<Vec2> {
    let n = ((TAU * radius / CIRCLE_STEP_PIXELS).ceil() as usize).clamp(8, 96);
    (0..n)
        .map(|i| center + Vec2::from_angle(TAU * i as f32 / n as f32) * radius)
        .collect()
}

/// The two strokes of an arrow from `a` to `b` (screen): the shaft, and a head of `head` pixels
/// (at most half the arrow) as an open chevron at `b`.
pub fn arrow_lines(a: Vec2, b: Vec2, head: f32) -> ([Vec2; 2], Option<[Vec2; 3]>) {
    let shaft = [a, b];
    let Some(dir) = (b - a).try_normalize() else {
        return (shaft, None);
    };
    let len = head.min((b - a).length() * 0.5);
    let side = dir.perp() * len * 0.5;
    let base = b - dir * len;
    (shaft, Some([base + side, b, base - side]))
}

/// Paints `list` through `view` on `backend`, in list order.
pub fn paint(list: &DrawList, view: &View, backend: &mut impl Backend) {
    paint_shapes(&list.shapes, view, backend);
}

/// Paints `shapes` (a run of a draw list) through `view` on `backend`, in order.
pub fn paint_shapes(shapes: &[Shape], view: &View, backend: &mut impl Backend) {
    for shape in shapes {
        match shape {
            Shape::Circle {
                center,
                radius,
                fill,
                stroke,
            } => backend.circle(view.to_screen(*center), (radius * view.scale).max(0.5), *fill, *stroke),
            Shape::Polyline { points, closed, stroke } => {
                let screen: Vec<Vec2> = points.iter().map(|p| view.to_screen(*p)).collect();
                backend.stroke_line(&screen, *closed, *stroke);
            }
            Shape::Segment { from, to, stroke } => {
                backend.stroke_line(&[view.to_screen(*from), view.to_screen(*to)], false, *stroke);
            }
            Shape::Polygon { points, fill, stroke } => {
                let screen: Vec<Vec2> = points.iter().map(|p| view.to_screen(*p)).collect();
                backend.fill_polygon(&screen, false, *fill);
                if let Some(stroke) = stroke {
                    backend.stroke_line(&screen, true, *stroke);
                }
            }
            Shape::Arrow { from, to, stroke, head } => {
                let (shaft, tip) = arrow_lines(view.to_screen(*from), view.to_screen(*to), *head);
                backend.stroke_line(&shaft, false, *stroke);
                if let Some(tip) = tip {
                    backend.stroke_line(&tip, false, *stroke);
                }
            }
            Shape::Label {
                position,
                text,
                color,
                size,
            } => backend.text(view.to_screen(*position), text, *size, *color),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Bounds;

    /// Records the calls, for checking what a backend is asked to do.
    #[derive(Default)]
    struct Calls(Vec<String>);

    impl Backend for Calls {
        fn fill_polygon(&mut self, points: &[Vec2], convex: bool, _: Color) {
            self.0.push(format!("fill {} convex {convex}", points.len()));
        }
        fn stroke_line(&mut self, points: &[Vec2], closed: bool, _: Stroke) {
            self.0.push(format!("stroke {} closed {closed}", points.len()));
        }
        fn text(&mut self, at: Vec2, text: &str, _: f32, _: Color) {
            self.0.push(format!("text {text} at {at}"));
        }
    }

    #[test]
    fn circles_and_arrows_are_shaped_once_for_every_backend() {
        let view = View::fill(
            Bounds {
                min: Vec2::ZERO,
                max: Vec2::new(10.0, 10.0),
            },
            Vec2::new(100.0, 100.0),
        );
        let stroke = Stroke {
            width: 1.0,
            color: Color::rgb(0, 0, 0),
        };
        let list = DrawList {
            shapes: vec![
                Shape::Circle {
                    center: Vec2::new(5.0, 5.0),
                    radius: 1.0,
                    fill: Some(Color::rgb(1, 2, 3)),
                    stroke: Some(stroke),
                },
                Shape::Arrow {
                    from: Vec2::ZERO,
                    to: Vec2::new(10.0, 0.0),
                    stroke,
                    head: 5.0,
                },
                Shape::Segment {
                    from: Vec2::ZERO,
                    to: Vec2::new(0.0, 10.0),
                    stroke,
                },
                Shape::Label {
                    position: Vec2::new(5.0, 5.0),
                    text: "a".into(),
                    color: Color::rgb(0, 0, 0),
                    size: 10.0,
                },
            ],
        };
        let mut calls = Calls::default();
        paint(&list, &view, &mut calls);
        assert_eq!(
            calls.0,
            [
                "fill 26 convex true",
                "stroke 27 closed true",
                "stroke 2 closed false",
                "stroke 3 closed false",
                "stroke 2 closed false",
                "text a at [50, 50]",
            ]
        );
        let (_, head) = arrow_lines(Vec2::ZERO, Vec2::new(100.0, 0.0), 5.0);
        assert_eq!(
            head.unwrap(),
            [Vec2::new(95.0, 2.5), Vec2::new(100.0, 0.0), Vec2::new(95.0, -2.5)]
        );
        assert_eq!(circle_points(Vec2::ZERO, 0.5).len(), 8);
        assert_eq!(circle_points(Vec2::ZERO, 1000.0).len(), 96);
    }
}
