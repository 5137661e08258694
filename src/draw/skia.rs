//! tiny-skia backend: rasterises a draw list into a pixmap for PNG export, labels included
//! (through [`super::text`], in the canvas's font).

use tiny_skia::{FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Transform};

use super::list::{Color, DrawList, Shape, Stroke};
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

/// Draws `list` onto `pixmap` through `view`, after filling it with `background` (if any).
pub fn render_to_pixmap(list: &DrawList, view: &View, background: Option<Color>, pixmap: &mut Pixmap) {
    match background {
        Some(c) => {
            let [r, g, b, a] = c.0;
            pixmap.fill(tiny_skia::Color::from_rgba8(r, g, b, a));
        }
        None => pixmap.fill(tiny_skia::Color::TRANSPARENT),
    }
    for shape in &list.shapes {
        match shape {
            Shape::Circle {
                center,
                radius,
                fill,
                stroke,
            } => {
                let c = view.to_screen(*center);
                let r = (radius * view.scale).max(0.5);
                if let Some(path) = PathBuilder::from_circle(c.x, c.y, r) {
                    if let Some(fill) = fill {
                        pixmap.fill_path(&path, &paint(*fill), FillRule::Winding, Transform::identity(), None);
                    }
                    if let Some(s) = stroke {
                        stroke_path(pixmap, &path, *s);
                    }
                }
            }
            Shape::Polyline { points, closed, stroke } => {
                if let Some(path) = polyline(view, points, *closed) {
                    stroke_path(pixmap, &path, *stroke);
                }
            }
            Shape::Polygon { points, fill, stroke } => {
                if let Some(path) = polyline(view, points, true) {
                    pixmap.fill_path(&path, &paint(*fill), FillRule::EvenOdd, Transform::identity(), None);
                    if let Some(s) = stroke {
                        stroke_path(pixmap, &path, *s);
                    }
                }
            }
            Shape::Arrow { from, to, stroke, head } => {
                let (a, b) = (view.to_screen(*from), view.to_screen(*to));
                let mut pb = PathBuilder::new();
                pb.move_to(a.x, a.y);
                pb.line_to(b.x, b.y);
                if let Some(dir) = (b - a).try_normalize() {
                    let len = head.min((b - a).length() * 0.5);
                    let side = dir.perp() * len * 0.5;
                    let base = b - dir * len;
                    pb.move_to((base + side).x, (base + side).y);
                    pb.line_to(b.x, b.y);
                    pb.line_to((base - side).x, (base - side).y);
                }
                if let Some(path) = pb.finish() {
                    stroke_path(pixmap, &path, *stroke);
                }
            }
            Shape::Label {
                position,
                text,
                color,
                size,
            } => draw_text(pixmap, text, view.to_screen(*position), *size, *color),
        }
    }
}

fn polyline(view: &View, points: &[glam::Vec2], closed: bool) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    let mut it = points.iter().map(|p| view.to_screen(*p));
    let first = it.next()?;
    pb.move_to(first.x, first.y);
    for p in it {
        pb.line_to(p.x, p.y);
    }
    if closed {
        pb.close();
    }
    pb.finish()
}
