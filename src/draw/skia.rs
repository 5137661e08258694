//! tiny-skia backend: rasterises a draw list into a pixmap for PNG export, labels included
//! (through [`super::text`], in the canvas's font). Shapes arrive already in screen pixels
//! through [`super::backend`]. Circles and single segments (agents, force arrows) take the
//! exact primitives of [`super::raster`]; polygons, longer lines and text take tiny-skia's paths.

use glam::Vec2;
use tiny_skia::{FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Transform};

use super::backend::{Backend, paint as paint_list};
use super::list::{Color, DrawList, Stroke};
use super::raster::{fill_disc, stroke_circle, stroke_segment};
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

/// The tiny-skia [`Backend`]: anti-aliased fills and strokes into a pixmap.
struct SkiaBackend<'a> {
    pixmap: &'a mut Pixmap,
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
        if let Some(path) = path_of(points, true) {
            self.pixmap
                .fill_path(&path, &paint(color), FillRule::EvenOdd, Transform::identity(), None);
        }
    }

    /// Opaque open lines are drawn segment by segment (round caps make the joins round, as
    /// tiny-skia's); a translucent one would darken where its segments overlap, so it and
    /// closed lines go through one path.
    fn stroke_line(&mut self, points: &[Vec2], closed: bool, stroke: Stroke) {
        let opaque = stroke.color.is_opaque();
        if !closed && (points.len() == 2 || opaque) {
            for pair in points.windows(2) {
                stroke_segment(self.pixmap, pair[0], pair[1], stroke.width, stroke.color);
            }
        } else if let Some(path) = path_of(points, closed) {
            stroke_path(self.pixmap, &path, stroke);
        }
    }

    fn circle(&mut self, center: Vec2, radius: f32, fill: Option<Color>, stroke: Option<Stroke>) {
        if let Some(fill) = fill {
            fill_disc(self.pixmap, center, radius, fill);
        }
        if let Some(stroke) = stroke {
            stroke_circle(self.pixmap, center, radius, stroke.width, stroke.color);
        }
    }

    fn text(&mut self, at: Vec2, text: &str, size: f32, color: Color) {
        draw_text(self.pixmap, text, at, size, color);
    }
}

/// Draws `list` onto `pixmap` through `view`, after filling it with `background` (if any).
pub fn render_to_pixmap(list: &DrawList, view: &View, background: Option<Color>, pixmap: &mut Pixmap) {
    match background {
        Some(c) => {
            let [r, g, b, a] = c.0;
            pixmap.fill(tiny_skia::Color::from_rgba8(r, g, b, a));
        }
        None => pixmap.fill(tiny_skia::Color::TRANSPARENT),
    }
    paint_list(list, view, &mut SkiaBackend { pixmap });
}
