//! The egui [`Backend`]: paints a [`DrawList`] with the egui painter. Shapes arrive in screen
//! pixels through `draw::paint` (arrowheads already lines), so this is fills, strokes, egui's
//! own circles and text — the tiny-skia backend's twin for PNG export.

use eframe::egui;
use egui::epaint::{CircleShape, Mesh};
use egui::{Align2, Color32, FontId, Painter, Pos2, Shape as EguiShape, Stroke as EguiStroke};
use glam::Vec2;

use super::fill::triangulate;
use crate::draw::{Backend, Color, DrawList, Stroke, View, paint};

/// The egui colour of a draw-list colour.
pub fn color32(color: Color) -> Color32 {
    let [r, g, b, a] = color.0;
    Color32::from_rgba_unmultiplied(r, g, b, a)
}

/// The egui position of a screen point.
pub fn pos2(p: Vec2) -> Pos2 {
    Pos2::new(p.x, p.y)
}

fn stroke(s: Stroke) -> EguiStroke {
    EguiStroke::new(s.width, color32(s.color))
}

/// Paints draw lists with an egui [`Painter`].
struct EguiBackend<'a> {
    painter: &'a Painter,
}

impl Backend for EguiBackend<'_> {
    fn fill_polygon(&mut self, points: &[Vec2], convex: bool, color: Color) {
        let screen: Vec<Pos2> = points.iter().map(|p| pos2(*p)).collect();
        if convex {
            self.painter
                .add(EguiShape::convex_polygon(screen, color32(color), EguiStroke::NONE));
            return;
        }
        let mut mesh = Mesh::default();
        for p in screen {
            mesh.colored_vertex(p, color32(color));
        }
        for [a, b, c] in triangulate(points) {
            mesh.add_triangle(a as u32, b as u32, c as u32);
        }
        self.painter.add(EguiShape::mesh(mesh));
    }

    fn stroke_line(&mut self, points: &[Vec2], closed: bool, s: Stroke) {
        let screen: Vec<Pos2> = points.iter().map(|p| pos2(*p)).collect();
        self.painter.add(if closed {
            EguiShape::closed_line(screen, stroke(s))
        } else {
            EguiShape::line(screen, stroke(s))
        });
    }

    /// egui's own circle: one shape, tessellated from its cached unit circle, no polygon built
    /// per frame.
    fn circle(&mut self, center: Vec2, radius: f32, fill: Option<Color>, outline: Option<Stroke>) {
        let fill = fill.map_or(Color32::TRANSPARENT, color32);
        let outline = outline.map_or(EguiStroke::NONE, stroke);
        self.painter.add(EguiShape::Circle(CircleShape {
            center: pos2(center),
            radius,
            fill,
            stroke: outline,
        }));
    }

    fn text(&mut self, at: Vec2, text: &str, size: f32, color: Color) {
        self.painter.text(
            pos2(at),
            Align2::CENTER_CENTER,
            text,
            FontId::proportional(size),
            color32(color),
        );
    }
}

/// Paints `list` through `view` (whose origin is the canvas's top-left corner on screen).
pub fn paint_draw_list(painter: &Painter, view: &View, list: &DrawList) {
    paint(list, view, &mut EguiBackend { painter });
}
