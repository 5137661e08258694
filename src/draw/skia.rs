//! tiny-skia backend: rasterises a draw list into a pixmap for PNG export, labels included
//! (through [`super::text`], in the canvas's font). Shapes arrive already in screen pixels
//! through [`super::backend`]. Circles and single segments (agents, force arrows) take the
//! exact primitives of [`super::raster`]; polygons, longer lines and text take tiny-skia's paths.

use glam::Vec2;
use tiny_skia::{FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Transform};

use super::backend::{Backend, paint as paint_list};
use super::list::{Color, DrawList, Stroke};
use super::raster::{fill_disc, fill_outlined_disc, stroke_circle, stroke_segment};
use super::text::draw_text;
use super::view::View;

fn paint(color: Color) -> Paint<'static> {
    let mut p = Paint::default();
    let [r, g, b, a] = color.0;
    p.set_color_rgba8(r, g, b, a);
    p.anti_alias = true;
    p
}

/// Strokes `path` on `pixmap` with the draw list's stroke style.
fn stroke_path(pixmap: &mut Pixmap, path: &tiny_skia::Path, stroke: Stroke) {
    pixmap.stroke_path(
        path,
        &paint(stroke.color),
        &skia_stroke(stroke),
        Transform::identity(),
        None,
    );
}

fn skia_stroke(s: Stroke) -> tiny_skia::Stroke {
    tiny_skia::Stroke {
        width: s.width,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        ..Default::default()
    }
}

/// The tiny-skia [`Backend`]: anti-aliased fills and strokes into a pixmap, everything it is
/// given (positions, widths, sizes) multiplied by `magnify` first.
struct SkiaBackend<'a> {
    pixmap: &'a mut Pixmap,
    magnify: f32,
    /// The magnified points of the line or polygon being drawn.
    scratch: Vec<Vec2>,
}

impl<'a> SkiaBackend<'a> {
    fn new(pixmap: &'a mut Pixmap, magnify: f32) -> Self {
        SkiaBackend {
            pixmap,
            magnify,
            scratch: Vec::new(),
        }
    }

    /// `points` magnified, in the scratch buffer.
    fn magnified(&mut self, points: &[Vec2]) -> Vec<Vec2> {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        out.extend(points.iter().map(|p| *p * self.magnify));
        out
    }

    fn magnified_stroke(&self, stroke: Stroke) -> Stroke {
        Stroke {
            width: stroke.width * self.magnify,
            ..stroke
        }
    }
}

/// The path through `points`, closed when `closed` (`None` for fewer than two points).
fn path_of(points: &[Vec2], closed: bool) -> Option<tiny_skia::Path> {
    let (first, rest) = points.split_first()?;
    let mut pb = PathBuilder::new();
    pb.move_to(first.x, first.y);
    for p in rest {
        pb.line_to(p.x, p.y);
    }
    if closed {
        pb.close();
    }
    pb.finish()
}

impl Backend for SkiaBackend<'_> {
    fn fill_polygon(&mut self, points: &[Vec2], _convex: bool, color: Color) {
        let points = self.magnified(points);
        if let Some(path) = path_of(&points, true) {
            self.pixmap
                .fill_path(&path, &paint(color), FillRule::EvenOdd, Transform::identity(), None);
        }
        self.scratch = points;
    }

    /// Opaque open lines are drawn segment by segment (round caps make the joins round, as
    /// tiny-skia's); a translucent one would darken where its segments overlap, so it and
    /// closed lines go through one path.
    fn stroke_line(&mut self, points: &[Vec2], closed: bool, stroke: Stroke) {
        let (points, stroke) = (self.magnified(points), self.magnified_stroke(stroke));
        let opaque = stroke.color.is_opaque();
        if !closed && (points.len() == 2 || opaque) {
            for pair in points.windows(2) {
                stroke_segment(self.pixmap, pair[0], pair[1], stroke.width, stroke.color);
            }
        } else if let Some(path) = path_of(&points, closed) {
            stroke_path(self.pixmap, &path, stroke);
        }
        self.scratch = points;
    }

    fn circle(&mut self, center: Vec2, radius: f32, fill: Option<Color>, stroke: Option<Stroke>) {
        let (center, radius) = (center * self.magnify, radius * self.magnify);
        let stroke = stroke.map(|s| self.magnified_stroke(s));
        match (fill, stroke) {
            // As egui draws it: the outline's colour as a disc, the fill over it.
            (Some(fill), Some(stroke)) if fill.is_opaque() => {
                fill_outlined_disc(self.pixmap, center, radius, stroke.width, fill, stroke.color);
            }
            _ => {
                if let Some(fill) = fill {
                    fill_disc(self.pixmap, center, radius, fill);
                }
                if let Some(stroke) = stroke {
                    let ring = radius + stroke.width * 0.5;
                    stroke_circle(self.pixmap, center, ring, stroke.width, stroke.color);
                }
            }
        }
    }

    fn text(&mut self, at: Vec2, text: &str, size: f32, color: Color) {
        draw_text(self.pixmap, text, at * self.magnify, size * self.magnify, color);
    }
}

/// Draws `list` onto `pixmap` through `view`, after filling it with `background` (transparent
/// without one): a PNG frame.
pub fn render_to_pixmap(list: &DrawList, view: &View, background: Option<Color>, pixmap: &mut Pixmap) {
    fill_pixmap(pixmap, background.unwrap_or(Color([0; 4])));
    draw_over([list], view, 1.0, pixmap);
}

/// Sets every pixel of `pixmap` to `color`.
pub fn fill_pixmap(pixmap: &mut Pixmap, color: Color) {
    let [r, g, b, a] = color.0;
    pixmap.fill(tiny_skia::Color::from_rgba8(r, g, b, a));
}

/// Draws `lists`, in order, through `view` over what `pixmap` holds, `pixels_per_unit` pixels to
/// each unit of the view's screen (the canvas's points): the canvas drawn as the PNG export draws
/// its frames.
pub fn draw_over<'a>(
    lists: impl IntoIterator<Item = &'a DrawList>,
    view: &View,
    pixels_per_unit: f32,
    pixmap: &mut Pixmap,
) {
    let mut backend = SkiaBackend::new(pixmap, pixels_per_unit);
    for list in lists {
        paint_list(list, view, &mut backend);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::Shape;
    use crate::scene::Bounds;

    /// A disc with an outline, an arrow, a bent line, a filled polygon and a label, with lines
    /// and text `times` as wide and as large.
    fn shapes(times: f32) -> DrawList {
        let stroke = |width: f32| Stroke {
            width: width * times,
            color: Color([30, 40, 90, 200]),
        };
        DrawList {
            shapes: vec![
                Shape::Polygon {
                    points: vec![Vec2::new(-4.0, -4.0), Vec2::new(3.0, -3.0), Vec2::new(0.0, 4.0)],
                    fill: Color([200, 180, 60, 255]),
                    stroke: Some(stroke(1.0)),
                },
                Shape::Circle {
                    center: Vec2::new(1.0, 0.5),
                    radius: 1.3,
                    fill: Some(Color([60, 110, 200, 255])),
                    stroke: Some(stroke(1.5)),
                },
                Shape::Arrow {
                    from: Vec2::new(1.0, 0.5),
                    to: Vec2::new(4.0, 2.0),
                    stroke: stroke(1.5),
                    head: 6.0 * times,
                },
                Shape::Polyline {
                    points: vec![Vec2::new(-4.0, 3.0), Vec2::new(-1.0, 2.0), Vec2::new(-2.0, -1.0)],
                    closed: false,
                    stroke: stroke(2.0),
                },
                Shape::Label {
                    position: Vec2::new(-2.0, -2.5),
                    text: "agent 7".into(),
                    color: Color::rgb(0, 0, 0),
                    size: 11.0 * times,
                },
            ],
        }
    }

    #[test]
    fn a_layer_at_two_pixels_a_point_is_the_frame_of_a_view_twice_as_large() {
        let bounds = Bounds {
            min: Vec2::splat(-5.0),
            max: Vec2::splat(5.0),
        };
        let view = View {
            origin: Vec2::new(3.0, 2.0),
            ..View::fill(bounds, Vec2::new(60.0, 40.0))
        };
        let mut layer = Pixmap::new(120, 80).unwrap();
        draw_over([&shapes(1.0)], &view, 2.0, &mut layer);

        let doubled = View {
            scale: view.scale * 2.0,
            origin: view.origin * 2.0,
            size: view.size * 2.0,
            ..view
        };
        let mut frame = Pixmap::new(120, 80).unwrap();
        render_to_pixmap(&shapes(2.0), &doubled, None, &mut frame);

        assert_eq!(layer.data(), frame.data());
        let drawn = layer.pixels().iter().filter(|p| p.alpha() > 0).count();
        assert!(drawn > 120 * 80 / 10, "{drawn} pixels drawn");
        assert!(drawn < 120 * 80, "transparent where nothing is drawn");
    }

    #[test]
    fn lists_drawn_over_a_picture_in_turn_are_the_picture_of_the_lists_in_one() {
        let view = View::fill(
            Bounds {
                min: Vec2::splat(-5.0),
                max: Vec2::splat(5.0),
            },
            Vec2::new(60.0, 40.0),
        );
        let all = shapes(1.0);
        let (under, over) = all.shapes.split_at(2);
        let [under, over] = [under, over].map(|part| DrawList { shapes: part.to_vec() });
        let mut in_turn = Pixmap::new(60, 40).unwrap();
        in_turn.fill(tiny_skia::Color::WHITE);
        draw_over([&under], &view, 1.0, &mut in_turn);
        draw_over([&over], &view, 1.0, &mut in_turn);
        let mut at_once = Pixmap::new(60, 40).unwrap();
        render_to_pixmap(&all, &view, Some(Color::rgb(255, 255, 255)), &mut at_once);
        assert_eq!(in_turn.data(), at_once.data());
    }
}
