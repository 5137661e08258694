//! Paints a [`DrawList`] with the egui painter: world shapes through a [`View`] (y flipped),
//! widths and text sizes in pixels. The tiny-skia backend (`draw::render_to_pixmap`) is its twin
//! for PNG export.

use eframe::egui;
use egui::epaint::Mesh;
use egui::{Align2, Color32, FontId, Painter, Pos2, Shape as EguiShape, Stroke as EguiStroke};
use glam::Vec2;

use super::fill::triangulate;
use crate::draw::{Color, DrawList, Shape, Stroke, View};

/// The egui colour of a draw-list colour.
pub fn color32(color: Color) -> Color32 {
    let [r, g, b, a] = color.0;
    Color32::from_rgba_unmultiplied(r, g, b, a)
}

fn stroke(s: Stroke) -> EguiStroke {
    EguiStroke::new(s.width, color32(s.color))
}

/// Paints `list` with the view's pixel (0, 0) at `origin` (the canvas's top-left corner).
pub fn paint_draw_list(painter: &Painter, origin: Pos2, view: &View, list: &DrawList) {
    let to_screen = |p: Vec2| {
        let s = view.to_screen(p);
        Pos2::new(origin.x + s.x, origin.y + s.y)
    };
    for shape in &list.shapes {
        match shape {
            Shape::Circle {
                center,
                radius,
                fill,
                stroke: outline,
            } => {
                let r = (radius * view.scale).max(0.5);
                painter.circle(
                    to_screen(*center),
                    r,
                    fill.map_or(Color32::TRANSPARENT, color32),
                    outline.map_or(EguiStroke::NONE, stroke),
                );
            }
            Shape::Polyline {
                points,
                closed,
                stroke: s,
            } => {
                let points: Vec<Pos2> = points.iter().map(|p| to_screen(*p)).collect();
                painter.add(if *closed {
                    EguiShape::closed_line(points, stroke(*s))
                } else {
                    EguiShape::line(points, stroke(*s))
                });
            }
            Shape::Polygon {
                points,
                fill,
                stroke: outline,
            } => {
                let screen: Vec<Pos2> = points.iter().map(|p| to_screen(*p)).collect();
                let mut mesh = Mesh::default();
                for p in &screen {
                    mesh.colored_vertex(*p, color32(*fill));
                }
                for [a, b, c] in triangulate(points) {
                    mesh.add_triangle(a as u32, b as u32, c as u32);
                }
                painter.add(EguiShape::mesh(mesh));
                if let Some(s) = outline {
                    painter.add(EguiShape::closed_line(screen, stroke(*s)));
                }
            }
            Shape::Arrow {
                from,
                to,
                stroke: s,
                head,
            } => {
                let (a, b) = (to_screen(*from), to_screen(*to));
                let s = stroke(*s);
                painter.line_segment([a, b], s);
                let along = b - a;
                if along.length() > 0.0 {
                    let dir = along.normalized();
                    let len = head.min(along.length() * 0.5);
                    let side = dir.rot90() * len * 0.5;
                    let base = b - dir * len;
                    painter.add(EguiShape::line(vec![base + side, b, base - side], s));
                }
            }
            Shape::Label {
                position,
                text,
                color,
                size,
            } => {
                painter.text(
                    to_screen(*position),
                    Align2::CENTER_CENTER,
                    text,
                    FontId::proportional(*size),
                    color32(*color),
                );
            }
        }
    }
}
