//! The egui [`Backend`]: tessellates a [`DrawList`] straight into meshes, with epaint's own
//! tessellator set up as the context's ([`context_tessellator`]), so the triangles are those
//! egui would make of the same shapes at the end of the frame, without building a shape per
//! circle and line for egui to tessellate later. Shapes arrive in screen pixels through
//! `draw::paint_shapes` (arrowheads already lines), so this is fills, strokes, egui's own circles
//! and text — the tiny-skia backend's twin for PNG export.

use std::sync::Arc;

use eframe::egui;
use egui::epaint::{CircleShape, Mesh, PathShape, PathStroke, Tessellator, TextShape};
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Shape as EguiShape, Stroke as EguiStroke};
use glam::Vec2;

use super::context_tessellator::context_tessellator;
use super::fill::triangulate;
use crate::draw::{Backend, Color, DrawList, Shape, Stroke, View, paint_shapes};

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

/// Tessellates draw-list calls into one mesh.
struct MeshWriter<'a> {
    /// Lays out the text.
    painter: &'a Painter,
    tessellator: &'a mut Tessellator,
    /// A path whose points each line of more than two points borrows, so that no line allocates.
    path: &'a mut PathShape,
    /// Where the triangles go.
    mesh: &'a mut Mesh,
}

impl Backend for MeshWriter<'_> {
    fn fill_polygon(&mut self, points: &[Vec2], convex: bool, color: Color) {
        if convex {
            self.path(points, true, color32(color), PathStroke::NONE);
            return;
        }
        let first = self.mesh.vertices.len() as u32;
        for p in points {
            self.mesh.colored_vertex(pos2(*p), color32(color));
        }
        for [a, b, c] in triangulate(points) {
            self.mesh
                .add_triangle(first + a as u32, first + b as u32, first + c as u32);
        }
    }

    /// A straight segment (a heading, an arrow's shaft) is egui's line segment; longer or closed
    /// lines are paths.
    fn stroke_line(&mut self, points: &[Vec2], closed: bool, s: Stroke) {
        if let (&[a, b], false) = (points, closed) {
            self.tessellator
                .tessellate_line_segment([pos2(a), pos2(b)], stroke(s), self.mesh);
            return;
        }
        self.path(points, closed, Color32::TRANSPARENT, stroke(s).into());
    }

    /// egui's own circles. An opaque disc with an outline is two discs, the outline's colour
    /// `width` wider under the fill, which egui draws from the anti-aliased discs in its texture
    /// atlas (4 vertices each, up to a radius of about 6.7 pixels) instead of tessellating the
    /// outline as a ring (about 48 vertices and 200 indices at the radius of a walker in a crowd
    /// of thousands); the ring looks the same, as egui draws a circle's outline outside its
    /// fill. Translucent fills keep egui's outline, which the fill does not show through.
    fn circle(&mut self, center: Vec2, radius: f32, fill: Option<Color>, outline: Option<Stroke>) {
        let center = pos2(center);
        let mut disc = |radius, fill, stroke| {
            let circle = CircleShape {
                center,
                radius,
                fill,
                stroke,
            };
            self.tessellator.tessellate_circle(circle, self.mesh);
        };
        match (fill, outline) {
            (Some(fill), Some(outline)) if fill.is_opaque() && outline.width > 0.0 => {
                disc(radius + outline.width, color32(outline.color), EguiStroke::NONE);
                disc(radius, color32(fill), EguiStroke::NONE);
            }
            _ => {
                let fill = fill.map_or(Color32::TRANSPARENT, color32);
                disc(radius, fill, outline.map_or(EguiStroke::NONE, stroke));
            }
        }
    }

    /// The text laid out on one line and centred on `at`, as `Painter::text` would paint it.
    fn text(&mut self, at: Vec2, text: &str, size: f32, color: Color) {
        let galley = layout(self.painter, text, size, color);
        if !galley.is_empty() {
            let corner = Align2::CENTER_CENTER.anchor_size(pos2(at), galley.size()).min;
            let shape = TextShape::new(corner, galley, color32(color));
            self.tessellator.tessellate_text(&shape, self.mesh);
        }
    }
}

impl MeshWriter<'_> {
    /// Tessellates the path through `points` (screen), `closed` or not, with `fill` and
    /// `stroke`, in the borrowed path.
    fn path(&mut self, points: &[Vec2], closed: bool, fill: Color32, stroke: PathStroke) {
        self.path.points.clear();
        self.path.points.extend(points.iter().map(|p| pos2(*p)));
        self.path.closed = closed;
        self.path.fill = fill;
        self.path.stroke = stroke;
        self.tessellator.tessellate_path(self.path, self.mesh);
    }
}

/// `text` laid out on one line, `size` points high, in `color`.
fn layout(painter: &Painter, text: &str, size: f32, color: Color) -> Arc<egui::Galley> {
    painter.layout_no_wrap(text.to_owned(), FontId::proportional(size), color32(color))
}

/// Shapes of a draw list tessellated into one mesh that egui copies (about 50 KB of vertices and
/// indices for agents with their headings; runs of 1,024 shapes measured 5 % slower).
pub const SHAPES_PER_MESH: usize = 256;

/// Paints `list` through `view` (whose origin is the canvas's top-left corner on screen), as
/// the meshes of [`tessellate_runs`].
pub fn paint_draw_list(painter: &Painter, view: &View, list: &DrawList) {
    for (clip, mesh) in tessellate_runs(painter, view, list, SHAPES_PER_MESH, Mesh::default) {
        painter.with_clip_rect(clip).add(EguiShape::Mesh(mesh));
    }
}

/// `list` through `view` tessellated for `painter`: a mesh per run of `shapes_per_mesh` shapes
/// ([`SHAPES_PER_MESH`] for meshes painted through egui), each written into an empty mesh that
/// `blank` gives (so a caller may hand back the buffers of meshes it no longer paints), with its
/// clip rectangle.
///
/// egui copies each painted mesh into its own at the end of the frame, merging consecutive
/// meshes with the same clip rectangle: thousands of agents with their force arrows would make
/// one mesh of several megabytes, grown through the allocator. So every other run is clipped to
/// the painter's rectangle with its left edge moved in by [`CLIP_NUDGE`] points, and egui starts
/// a mesh, of the right size, at each. The renderer rounds the clip rectangle to whole pixels,
/// so the nudged one clips the same pixels (unless its left edge lies within a thousandth of a
/// point below a half pixel, where it clips one column less).
pub fn tessellate_runs(
    painter: &Painter,
    view: &View,
    list: &DrawList,
    shapes_per_mesh: usize,
    mut blank: impl FnMut() -> Mesh,
) -> Vec<(Rect, Arc<Mesh>)> {
    // The text first: laying it out may grow the font atlas, whose size the tessellator reads.
    for shape in &list.shapes {
        if let Shape::Label { text, color, size, .. } = shape {
            layout(painter, text, *size, *color);
        }
    }
    let clip = painter.clip_rect();
    let nudged = clip.with_min_x(clip.min.x + CLIP_NUDGE);
    let mut tessellator = context_tessellator(painter.ctx(), clip);
    let mut path = PathShape::line(Vec::new(), EguiStroke::NONE);
    list.shapes
        .chunks(shapes_per_mesh)
        .enumerate()
        .map(|(run, run_shapes)| {
            let clip = if run % 2 == 0 { clip } else { nudged };
            tessellator.set_clip_rect(clip);
            let mut mesh = blank();
            paint_shapes(
                run_shapes,
                view,
                &mut MeshWriter {
                    painter,
                    tessellator: &mut tessellator,
                    path: &mut path,
                    mesh: &mut mesh,
                },
            );
            (clip, Arc::new(mesh))
        })
        .collect()
}

/// `mesh`'s triangles as vertex triples, in order (for tests that compare meshes).
#[cfg(test)]
pub(super) fn mesh_triangles(mesh: &Mesh) -> Vec<[egui::epaint::Vertex; 3]> {
    let corner = |i: &u32| mesh.vertices[*i as usize];
    mesh.indices
        .chunks_exact(3)
        .map(|t| [&t[0], &t[1], &t[2]].map(corner))
        .collect()
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

    /// 10 pixels per metre on a 1,000 × 1,000 point screen, the origin in its middle.
    fn view() -> View {
        let bounds = Bounds {
            min: Vec2::splat(-50.0),
            max: Vec2::splat(50.0),
        };
        View::fill(bounds, Vec2::splat(1000.0))
    }

    /// What egui tessellates the shapes `paint` paints into on a 1,000 × 1,000 point screen, in
    /// a context that has drawn a frame before (so its fonts are loaded).
    fn tessellated_by(paint: impl Fn(&Painter)) -> Vec<ClippedPrimitive> {
        let ctx = egui::Context::default();
        let input = || RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, egui::vec2(1000.0, 1000.0))),
            ..Default::default()
        };
        ctx.run_ui(input(), |ui| paint(ui.painter())).textures_delta.clear();
        let mut output = ctx.run_ui(input(), |ui| paint(ui.painter()));
        output.textures_delta.clear();
        ctx.tessellate(output.shapes, output.pixels_per_point)
    }

    /// What egui tessellates `list` into, painted at 10 pixels per metre ([`view`]).
    fn tessellated(list: &DrawList) -> Vec<ClippedPrimitive> {
        let view = view();
        tessellated_by(|painter| paint_draw_list(painter, &view, list))
    }

    /// The meshes of `primitives`, each with its clip rectangle.
    fn meshes(primitives: &[ClippedPrimitive]) -> impl Iterator<Item = (Rect, &Mesh)> {
        primitives.iter().filter_map(|p| match &p.primitive {
            Primitive::Mesh(mesh) => Some((p.clip_rect, mesh)),
            Primitive::Callback(_) => None,
        })
    }

    /// The colours of the vertices of `primitives`' meshes.
    fn vertex_colours(primitives: &[ClippedPrimitive]) -> Vec<Color32> {
        meshes(primitives)
            .flat_map(|(_, mesh)| mesh.vertices.iter().map(|v| v.color))
            .collect()
    }

    /// The triangles (as vertex triples) of the meshes `paint` makes ([`tessellated_by`]).
    fn triangles_of(paint: impl Fn(&Painter)) -> Vec<[egui::epaint::Vertex; 3]> {
        meshes(&tessellated_by(paint))
            .flat_map(|(_, mesh)| mesh_triangles(mesh))
            .collect()
    }

    #[test]
    fn the_meshes_are_the_triangles_egui_makes_of_the_same_shapes() {
        let ink = Stroke {
            width: 1.5,
            color: EDGE,
        };
        let (from, to) = (Vec2::new(-10.0, -5.0), Vec2::new(12.0, 8.0));
        let concave = vec![
            Vec2::new(20.0, 20.0),
            Vec2::new(30.0, 20.0),
            Vec2::new(25.0, 24.0),
            Vec2::new(30.0, 30.0),
            Vec2::new(20.0, 30.0),
        ];
        let line = vec![Vec2::new(-30.0, 0.0), Vec2::new(-20.0, 10.0), Vec2::new(-25.0, 25.0)];
        let list = DrawList {
            shapes: vec![
                Shape::Circle {
                    center: Vec2::ZERO,
                    radius: 0.3,
                    fill: Some(FILL),
                    stroke: Some(Stroke {
                        width: 1.0,
                        color: EDGE,
                    }),
                },
                Shape::Circle {
                    center: Vec2::new(5.0, 5.0),
                    radius: 3.0,
                    fill: Some(FILL.with_alpha(50)),
                    stroke: Some(ink),
                },
                Shape::Circle {
                    center: Vec2::new(-5.0, 5.0),
                    radius: 0.1,
                    fill: Some(FILL),
                    stroke: None,
                },
                Shape::Arrow {
                    from,
                    to,
                    stroke: ink,
                    head: 6.0,
                },
                Shape::Polyline {
                    points: line.clone(),
                    closed: true,
                    stroke: ink,
                },
                Shape::Polyline {
                    points: line.clone(),
                    closed: false,
                    stroke: ink,
                },
                Shape::Segment {
                    from: Vec2::new(-20.0, -20.0),
                    to: Vec2::new(-5.0, -30.0),
                    stroke: ink,
                },
                Shape::Polygon {
                    points: concave.clone(),
                    fill: FILL,
                    stroke: None,
                },
                Shape::Label {
                    position: Vec2::new(0.0, -20.0),
                    text: "agent 7".into(),
                    color: EDGE,
                    size: 11.0,
                },
            ],
        };
        let view = view();
        let s = |p: Vec2| pos2(view.to_screen(p));
        let ours = triangles_of(|painter| paint_draw_list(painter, &view, &list));
        let theirs = triangles_of(|painter| {
            let scale = view.scale;
            painter.circle_filled(s(Vec2::ZERO), 0.3 * scale + 1.0, color32(EDGE));
            painter.circle_filled(s(Vec2::ZERO), 0.3 * scale, color32(FILL));
            painter.circle(
                s(Vec2::new(5.0, 5.0)),
                3.0 * scale,
                color32(FILL.with_alpha(50)),
                stroke(ink),
            );
            painter.circle_filled(s(Vec2::new(-5.0, 5.0)), 0.1 * scale, color32(FILL));
            let (shaft, tip) = crate::draw::arrow_lines(view.to_screen(from), view.to_screen(to), 6.0);
            painter.line_segment(shaft.map(pos2), stroke(ink));
            painter.add(EguiShape::line(tip.unwrap().map(pos2).to_vec(), stroke(ink)));
            painter.add(EguiShape::closed_line(
                line.iter().map(|p| s(*p)).collect(),
                stroke(ink),
            ));
            painter.add(EguiShape::line(line.iter().map(|p| s(*p)).collect(), stroke(ink)));
            painter.line_segment([s(Vec2::new(-20.0, -20.0)), s(Vec2::new(-5.0, -30.0))], stroke(ink));
            let mut mesh = Mesh::default();
            for p in &concave {
                mesh.colored_vertex(s(*p), color32(FILL));
            }
            for [a, b, c] in triangulate(&concave) {
                mesh.add_triangle(a as u32, b as u32, c as u32);
            }
            painter.add(EguiShape::mesh(mesh));
            painter.text(
                s(Vec2::new(0.0, -20.0)),
                Align2::CENTER_CENTER,
                "agent 7",
                FontId::proportional(11.0),
                color32(EDGE),
            );
        });
        assert!(ours.len() > 100, "{} triangles", ours.len());
        assert!(ours == theirs, "{} triangles against {}", ours.len(), theirs.len());
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
        let meshes: Vec<_> = meshes(&primitives)
            .map(|(clip, mesh)| (clip, mesh.vertices.len()))
            .collect();
        let sizes: Vec<usize> = meshes.iter().map(|(_, vertices)| *vertices).collect();
        let run = SHAPES_PER_MESH * 8;
        assert_eq!(sizes, [run, run, run, 5 * 8]);
        let pixels = |r: Rect| [r.min.x.round(), r.min.y.round(), r.max.x.round(), r.max.y.round()];
        assert!(meshes.iter().all(|(clip, _)| pixels(*clip) == pixels(meshes[0].0)));
    }
}
