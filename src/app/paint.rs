//! The egui [`Backend`]: turns a [`DrawList`] into egui shapes, painted at once
//! ([`paint_draw_list`]) or tessellated for the canvas to keep. Shapes arrive in screen pixels
//! through `draw::paint_shapes` (arrowheads already lines), so this is fills, strokes, egui's
//! own circles and text — the tiny-skia backend's twin for PNG export.

use eframe::egui;
use egui::epaint::{CircleShape, Mesh};
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Shape as EguiShape, Stroke as EguiStroke};
use glam::Vec2;

use super::fill::triangulate;
use crate::draw::{Backend, Color, DrawList, Stroke, View, paint_shapes};

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

/// Turns draw lists into egui shapes.
struct EguiBackend<'a> {
    /// Lays out the text (its shapes go to `shapes`, not to its layer).
    painter: &'a Painter,
    /// The shapes, in order.
    shapes: &'a mut Vec<EguiShape>,
}

impl Backend for EguiBackend<'_> {
    fn fill_polygon(&mut self, points: &[Vec2], convex: bool, color: Color) {
        let screen: Vec<Pos2> = points.iter().map(|p| pos2(*p)).collect();
        if convex {
            self.shapes
                .push(EguiShape::convex_polygon(screen, color32(color), EguiStroke::NONE));
            return;
        }
        let mut mesh = Mesh::default();
        for p in screen {
            mesh.colored_vertex(p, color32(color));
        }
        for [a, b, c] in triangulate(points) {
            mesh.add_triangle(a as u32, b as u32, c as u32);
        }
        self.shapes.push(EguiShape::mesh(mesh));
    }

    /// A straight segment (a heading, an arrow's shaft) is egui's line segment, which needs no
    /// list of points; longer or closed lines are paths.
    fn stroke_line(&mut self, points: &[Vec2], closed: bool, s: Stroke) {
        if let (&[a, b], false) = (points, closed) {
            self.shapes.push(EguiShape::line_segment([pos2(a), pos2(b)], stroke(s)));
            return;
        }
        let screen: Vec<Pos2> = points.iter().map(|p| pos2(*p)).collect();
        self.shapes.push(if closed {
            EguiShape::closed_line(screen, stroke(s))
        } else {
            EguiShape::line(screen, stroke(s))
        });
    }

    /// egui's own circles, no polygon built per frame. An opaque disc with an outline is two
    /// discs, the outline's colour `width` wider under the fill, which egui draws from the
    /// anti-aliased discs in its texture atlas (4 vertices each, up to a radius of about 6.7
    /// pixels) instead of tessellating the outline as a ring (about 48 vertices and 200
    /// indices at the radius of a walker in a crowd of thousands); the ring looks the same, as
    /// egui draws a circle's outline outside its fill. Translucent fills keep egui's outline,
    /// which the fill does not show through.
    fn circle(&mut self, center: Vec2, radius: f32, fill: Option<Color>, outline: Option<Stroke>) {
        let center = pos2(center);
        let disc = |radius, fill, stroke| {
            EguiShape::Circle(CircleShape {
                center,
                radius,
                fill,
                stroke,
            })
        };
        match (fill, outline) {
            (Some(fill), Some(outline)) if fill.is_opaque() && outline.width > 0.0 => {
                self.shapes
                    .push(disc(radius + outline.width, color32(outline.color), EguiStroke::NONE));
                self.shapes.push(disc(radius, color32(fill), EguiStroke::NONE));
            }
            _ => {
                let fill = fill.map_or(Color32::TRANSPARENT, color32);
                self.shapes
                    .push(disc(radius, fill, outline.map_or(EguiStroke::NONE, stroke)));
            }
        }
    }

    /// The text laid out on one line and centred on `at`, as `Painter::text` would paint it.
    fn text(&mut self, at: Vec2, text: &str, size: f32, color: Color) {
        let galley = self
            .painter
            .layout_no_wrap(text.to_owned(), FontId::proportional(size), color32(color));
        if !galley.is_empty() {
            let corner = Align2::CENTER_CENTER.anchor_size(pos2(at), galley.size()).min;
            self.shapes.push(EguiShape::galley(corner, galley, color32(color)));
        }
    }
}

/// Shapes of a draw list tessellated into one mesh (about 50 KB of vertices and indices for
/// agents with their headings; runs of 1,024 shapes measured 5 % slower).
const SHAPES_PER_MESH: usize = 256;

/// Paints `list` through `view` (whose origin is the canvas's top-left corner on screen).
///
/// egui tessellates consecutive shapes with the same clip rectangle into one mesh, grown from
/// empty every frame: thousands of agents with their force arrows made one mesh of several
/// megabytes, and its growth copied it through the allocator (fresh pages faulted in every
/// frame) — a fifth of a frame's time. So the list is painted in runs of
/// [`SHAPES_PER_MESH`] shapes, every other run clipped to the painter's rectangle with its left
/// edge moved in by [`CLIP_NUDGE`] points: egui starts a mesh at each change of clip rectangle,
/// and each mesh stays small enough to grow in cache. The renderer rounds the clip rectangle to
/// whole pixels, so the nudged one clips the same pixels (unless its left edge lies within a
/// thousandth of a point below a half pixel, where it clips one column less).
pub fn paint_draw_list(painter: &Painter, view: &View, list: &DrawList) {
    for (clip, shapes) in clipped_runs(painter, view, list) {
        painter.with_clip_rect(clip).extend(shapes);
    }
}

/// The egui shapes of `list` through `view`, in the runs [`paint_draw_list`] paints, each with
/// its clip rectangle: the painter's, with the left edge of every other run's moved in by
/// [`CLIP_NUDGE`].
pub fn clipped_runs<'a>(
    painter: &'a Painter,
    view: &'a View,
    list: &'a DrawList,
) -> impl Iterator<Item = (Rect, Vec<EguiShape>)> + 'a {
    let clip = painter.clip_rect();
    let nudged = clip.with_min_x(clip.min.x + CLIP_NUDGE);
    list.shapes
        .chunks(SHAPES_PER_MESH)
        .enumerate()
        .map(move |(run, run_shapes)| {
            let mut shapes = Vec::with_capacity(run_shapes.len() * 2);
            paint_shapes(
                run_shapes,
                view,
                &mut EguiBackend {
                    painter,
                    shapes: &mut shapes,
                },
            );
            (if run % 2 == 0 { clip } else { nudged }, shapes)
        })
}

/// How far (points) every other run's clip rectangle has its left edge moved in.
const CLIP_NUDGE: f32 = 1e-3;

#[cfg(test)]
mod tests {
    use egui::epaint::{ClippedPrimitive, Primitive};
    use egui::{RawInput, Rect};

    use super::*;
    use crate::draw::Shape;
    use crate::scene::Bounds;

    const FILL: Color = Color([60, 110, 200, 255]);
    const EDGE: Color = Color([20, 30, 60, 255]);

    /// `n` discs in rows of 100, 0.3 m at 10 pixels per metre (3 pixels, as walkers in a crowd of
    /// thousands), filled with `fill` and outlined 1 pixel wide.
    fn crowd(n: usize, fill: Color) -> DrawList {
        let mut list = DrawList::default();
        for i in 0..n {
            list.push(Shape::Circle {
                center: Vec2::new((i % 100) as f32 - 50.0, (i / 100) as f32 - 50.0),
                radius: 0.3,
                fill: Some(fill),
                stroke: Some(Stroke {
                    width: 1.0,
                    color: EDGE,
                }),
            });
        }
        list
    }

    /// What egui tessellates `list` into, painted on a 1,000 × 1,000 point screen at 10 pixels
    /// per metre.
    fn tessellated(list: &DrawList) -> Vec<ClippedPrimitive> {
        let ctx = egui::Context::default();
        let screen = Rect::from_min_size(Pos2::ZERO, egui::vec2(1000.0, 1000.0));
        let view = View::fill(
            Bounds {
                min: Vec2::splat(-50.0),
                max: Vec2::splat(50.0),
            },
            Vec2::splat(1000.0),
        );
        let input = RawInput {
            screen_rect: Some(screen),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| paint_draw_list(ui.painter(), &view, list));
        output.textures_delta.clear();
        ctx.tessellate(output.shapes, output.pixels_per_point)
    }

    /// The colours of the vertices of `primitives`' meshes.
    fn vertex_colours(primitives: &[ClippedPrimitive]) -> Vec<Color32> {
        primitives
            .iter()
            .filter_map(|p| match &p.primitive {
                Primitive::Mesh(mesh) => Some(mesh.vertices.iter().map(|v| v.color)),
                Primitive::Callback(_) => None,
            })
            .flatten()
            .collect()
    }

    #[test]
    fn an_opaque_outlined_disc_is_two_quads_of_the_atlas_with_its_outline_colour_under_the_fill() {
        let colours = vertex_colours(&tessellated(&crowd(100, FILL)));
        assert_eq!(colours.len(), 100 * 8, "two quads of 4 vertices per disc");
        assert_eq!(colours.iter().filter(|c| **c == color32(EDGE)).count(), 400);
        assert_eq!(colours.iter().filter(|c| **c == color32(FILL)).count(), 400);
    }

    #[test]
    fn a_translucent_disc_keeps_its_outline_as_a_ring_so_the_fill_does_not_show_it_through() {
        let colours = vertex_colours(&tessellated(&crowd(100, Color([60, 110, 200, 70]))));
        assert!(colours.len() > 100 * 20, "{} vertices", colours.len());
        assert!(colours.contains(&color32(EDGE)));
    }

    #[test]
    fn a_long_list_is_tessellated_into_a_mesh_per_run_of_shapes_clipped_to_the_same_pixels() {
        let primitives = tessellated(&crowd(3 * SHAPES_PER_MESH + 5, FILL));
        let meshes: Vec<_> = primitives
            .iter()
            .filter_map(|p| match &p.primitive {
                Primitive::Mesh(mesh) => Some((p.clip_rect, mesh.vertices.len())),
                Primitive::Callback(_) => None,
            })
            .collect();
        let sizes: Vec<usize> = meshes.iter().map(|(_, vertices)| *vertices).collect();
        let run = SHAPES_PER_MESH * 8;
        assert_eq!(sizes, [run, run, run, 5 * 8]);
        let pixels = |r: Rect| [r.min.x.round(), r.min.y.round(), r.max.x.round(), r.max.y.round()];
        assert!(meshes.iter().all(|(clip, _)| pixels(*clip) == pixels(meshes[0].0)));
    }
}
