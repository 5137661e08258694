//! Paints the editor's marks over the canvas: an outline around every selected object, square
//! handles on the vertices that can be dragged, and the active tool's preview.

use eframe::egui::{Color32, Painter, Rect, Stroke, vec2};

use super::selection::{Item, Selection, agent_radius, vertices};
use super::tools::PREVIEW;
use crate::app::paint::{color32, paint_draw_list, pos2};
use crate::draw::{DrawList, Shape, View};
use crate::scene::{Obstacle, Scene};

/// Half the side of a vertex handle, pixels.
const HANDLE: f32 = 4.0;

/// Paints the selection of `scene` and the `preview` shapes.
pub fn paint(painter: &Painter, view: &View, scene: &Scene, selection: &Selection, preview: &[Shape]) {
    let color = color32(PREVIEW);
    let stroke = Stroke::new(2.0, color);
    let to_screen = |p| pos2(view.to_screen(p));
    for &item in &selection.0 {
        match item {
            Item::Agent(i) => {
                let a = &scene.agents[i];
                let r = agent_radius(scene, a) * view.scale + 3.0;
                painter.circle_stroke(to_screen(a.position), r, stroke);
            }
            Item::Target(i) => {
                let t = &scene.targets[i];
                painter.circle_stroke(to_screen(t.position), t.radius * view.scale + 3.0, stroke);
            }
            Item::Path(i) => {
                let p = &scene.paths[i];
                let points = p.points.iter().map(|q| to_screen(*q)).collect();
                painter.add(if p.closed {
                    eframe::egui::Shape::closed_line(points, stroke)
                } else {
                    eframe::egui::Shape::line(points, stroke)
                });
            }
            Item::Obstacle(i) => match &scene.obstacles[i] {
                Obstacle::Circle { center, radius } | Obstacle::MovingCircle { center, radius, .. } => {
                    painter.circle_stroke(to_screen(*center), radius * view.scale + 2.0, stroke);
                }
                Obstacle::Polygon { vertices } => {
                    let points = vertices.iter().map(|q| to_screen(*q)).collect();
                    painter.add(eframe::egui::Shape::closed_line(points, stroke));
                }
                Obstacle::Wall { a, b } => {
                    painter.line_segment(
                        [to_screen(*a), to_screen(*b)],
                        Stroke::new(5.0, color.gamma_multiply(0.6)),
                    );
                }
            },
            Item::Area(..) => {
                if let [a, b] = vertices(scene, item).as_slice() {
                    painter.line_segment([to_screen(*a), to_screen(*b)], Stroke::new(1.0, color));
                }
            }
        }
        for v in vertices(scene, item) {
            let r = Rect::from_center_size(to_screen(v), vec2(2.0 * HANDLE, 2.0 * HANDLE));
            painter.rect_filled(r, 0.0, Color32::WHITE);
            painter.rect_stroke(r, 0.0, Stroke::new(1.5, color), eframe::egui::StrokeKind::Middle);
        }
    }
    if !preview.is_empty() {
        let list = DrawList {
            shapes: preview.to_vec(),
        };
        paint_draw_list(painter, view, &list);
    }
}
