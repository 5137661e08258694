//! The canvas's draw list tessellated once and painted as ready meshes for as long as it stays
//! the same: while the run is paused, between the ticks of a run played at 1x (six UI frames a
//! tick at 60 frames per second), and in the editor while nothing moves, a frame then copies
//! the meshes instead of tessellating thousands of agents and their arrows again.
//!
//! Keeping meshes costs a frame that tessellates them and then has egui copy them into its
//! own, so a list is kept only once it looks like staying: at its second frame when the list
//! before it lasted [`LONG_RUN`] frames or more (a run played at 1x shows each tick for six
//! frames at 60 frames per second), otherwise at its [`LONG_RUN`]th (a pause, the editor at
//! rest). Until then its shapes are painted as any others, so lists that change every frame or
//! two — the fastest speed, a zooming view, a crowd large enough to slow the frames to a few a
//! tick — never pay for meshes no frame reuses.
//!
//! The key is what the meshes are made from — the draw list itself, the view, the clip
//! rectangle, the pixels per point and the size of the font atlas that discs and text take
//! their texture coordinates from — so no change can be missed by a rule about when to redraw.
//! Comparing two lists of the same crowd costs a small part of tessellating one.

use std::sync::Arc;

use eframe::egui;
use egui::epaint::{ClippedShape, Mesh, Primitive};
use egui::{Painter, Rect, Shape as EguiShape};

use super::paint::{clipped_runs, paint_draw_list};
use crate::draw::{DrawList, View};

/// Frames a list is painted before it is taken to stay (see the module's documentation).
const LONG_RUN: u32 = 4;

/// The last draw list the canvas painted, with what it was painted with and, once it looks like
/// staying, its meshes.
#[derive(Default)]
pub struct CanvasMeshes {
    drawn: Option<Drawn>,
    /// How many frames the list before it was painted.
    previous_run: u32,
}

/// One painted draw list.
struct Drawn {
    list: DrawList,
    view: View,
    clip: Rect,
    pixels_per_point: f32,
    atlas_size: [usize; 2],
    /// How many frames it has been painted.
    frames: u32,
    /// Each mesh with its clip rectangle, in painting order, once tessellated.
    meshes: Option<Vec<(Rect, Arc<Mesh>)>>,
}

impl std::fmt::Debug for CanvasMeshes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shapes = self.drawn.as_ref().map_or(0, |d| d.list.shapes.len());
        let meshes = self.drawn.as_ref().and_then(|d| d.meshes.as_ref()).map_or(0, Vec::len);
        write!(f, "CanvasMeshes {{ {shapes} shapes in {meshes} meshes }}")
    }
}

/// How a frame painted the canvas's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Painted {
    /// Shape by shape: the list is new, or has not yet been painted long enough to keep.
    Shapes,
    /// Tessellated into meshes now, kept for the next frames.
    Tessellated,
    /// From the kept meshes.
    Kept,
}

impl CanvasMeshes {
    /// Paints `list` through `view` with `painter` as [`paint_draw_list`] would: from the kept
    /// meshes when the last call painted the same list the same way, tessellating them when it
    /// did but kept none yet and the list looks like staying, shape by shape otherwise.
    pub fn paint(&mut self, painter: &Painter, view: &View, list: DrawList) -> Painted {
        let ctx = painter.ctx();
        let pixels_per_point = ctx.pixels_per_point();
        let clip = painter.clip_rect();
        let atlas_size = || ctx.fonts(|f| f.font_image_size());
        let same = self.drawn.as_mut().filter(|d| {
            d.view == *view
                && d.clip == clip
                && d.pixels_per_point == pixels_per_point
                && d.atlas_size == atlas_size()
                && d.list == list
        });
        let Some(drawn) = same else {
            self.previous_run = self.drawn.as_ref().map_or(0, |d| d.frames);
            paint_draw_list(painter, view, &list);
            // Read after the layout of the list's text, which may have grown the atlas.
            self.drawn = Some(Drawn {
                list,
                view: *view,
                clip,
                pixels_per_point,
                atlas_size: atlas_size(),
                frames: 1,
                meshes: None,
            });
            return Painted::Shapes;
        };
        drawn.frames += 1;
        let painted = match drawn.meshes {
            Some(_) => Painted::Kept,
            None if drawn.frames >= LONG_RUN || (drawn.frames >= 2 && self.previous_run >= LONG_RUN) => {
                Painted::Tessellated
            }
            None => {
                paint_draw_list(painter, view, &drawn.list);
                return Painted::Shapes;
            }
        };
        let meshes = drawn.meshes.get_or_insert_with(|| {
            let shapes = clipped_runs(painter, view, &drawn.list)
                .flat_map(|(clip, shapes)| shapes.into_iter().map(move |shape| ClippedShape::new(clip, shape)))
                .collect();
            ctx.tessellate(shapes, pixels_per_point)
                .into_iter()
                .filter_map(|primitive| match primitive.primitive {
                    Primitive::Mesh(mesh) => Some((primitive.clip_rect, Arc::new(mesh))),
                    Primitive::Callback(_) => None,
                })
                .collect()
        });
        for (clip, mesh) in meshes.iter() {
            painter.with_clip_rect(*clip).add(EguiShape::Mesh(Arc::clone(mesh)));
        }
        painted
    }
}

#[cfg(test)]
mod tests {
    use egui::epaint::{ClippedPrimitive, Vertex};
    use egui::{Context, Pos2, RawInput};
    use glam::Vec2;

    use super::*;
    use crate::draw::{Color, Shape, Stroke};
    use crate::scene::Bounds;

    const INK: Color = Color([20, 30, 60, 255]);

    /// Discs with arrows and labels every few, and a closed line around them: every kind of
    /// shape the canvas paints, text included, over several runs of shapes.
    fn scene_list(shift: f32) -> DrawList {
        let mut list = DrawList::default();
        for i in 0..700 {
            let center = Vec2::new((i % 30) as f32 - 15.0 + shift, (i / 30) as f32 - 12.0);
            list.push(Shape::Circle {
                center,
                radius: 0.3,
                fill: Some(Color([60, 110, 200, 255])),
                stroke: Some(Stroke { width: 1.0, color: INK }),
            });
            list.push(Shape::Arrow {
                from: center,
                to: center + Vec2::new(0.8, 0.4),
                stroke: Stroke { width: 1.5, color: INK },
                head: 5.0,
            });
            if i % 97 == 0 {
                list.push(Shape::Label {
                    position: center,
                    text: format!("agent {i}"),
                    color: INK,
                    size: 11.0,
                });
            }
        }
        list.push(Shape::Polyline {
            points: vec![Vec2::splat(-16.0), Vec2::new(16.0, -16.0), Vec2::splat(16.0)],
            closed: true,
            stroke: Stroke { width: 2.0, color: INK },
        });
        list
    }

    fn view() -> View {
        let bounds = Bounds {
            min: Vec2::splat(-20.0),
            max: Vec2::splat(20.0),
        };
        View::fill(bounds, Vec2::splat(800.0))
    }

    /// One frame on an 800 × 800 point screen painted by `paint`, tessellated as eframe does.
    fn frame(ctx: &Context, mut paint: impl FnMut(&egui::Ui)) -> Vec<ClippedPrimitive> {
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, egui::vec2(800.0, 800.0))),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| paint(ui));
        output.textures_delta.clear();
        ctx.tessellate(output.shapes, output.pixels_per_point)
    }

    /// Each mesh's clip rectangle, texture and triangles (as vertex triples).
    fn triangles(primitives: &[ClippedPrimitive]) -> Vec<(Rect, egui::TextureId, Vec<[Vertex; 3]>)> {
        primitives
            .iter()
            .filter_map(|p| match &p.primitive {
                Primitive::Mesh(mesh) => {
                    let corners = mesh
                        .indices
                        .chunks_exact(3)
                        .map(|t| [t[0], t[1], t[2]].map(|i| mesh.vertices[i as usize]));
                    Some((p.clip_rect, mesh.texture_id, corners.collect()))
                }
                Primitive::Callback(_) => None,
            })
            .collect()
    }

    #[test]
    fn the_kept_meshes_are_what_painting_the_list_tessellates_to_and_are_reused_while_it_stays_the_same() {
        let ctx = Context::default();
        let view = view();
        // A frame to load the fonts, then the list painted shape by shape.
        frame(&ctx, |ui| paint_draw_list(ui.painter(), &view, &scene_list(0.0)));
        let direct = triangles(&frame(&ctx, |ui| {
            paint_draw_list(ui.painter(), &view, &scene_list(0.0))
        }));
        assert!(direct.len() > 4, "{} meshes", direct.len());
        let mut meshes = CanvasMeshes::default();
        let mut painted = Vec::new();
        for _ in 0..LONG_RUN + 1 {
            let cached = frame(&ctx, |ui| {
                painted.push(meshes.paint(ui.painter(), &view, scene_list(0.0)))
            });
            assert!(triangles(&cached) == direct, "the same triangles in the same meshes");
        }
        use Painted::{Kept, Shapes, Tessellated};
        assert_eq!(painted, [Shapes, Shapes, Shapes, Tessellated, Kept]);
        let kept = |meshes: &CanvasMeshes| -> Vec<*const Mesh> {
            let drawn = meshes.drawn.as_ref().and_then(|d| d.meshes.as_ref());
            drawn.into_iter().flatten().map(|(_, m)| Arc::as_ptr(m)).collect()
        };
        let before = kept(&meshes);
        frame(&ctx, |ui| {
            painted.push(meshes.paint(ui.painter(), &view, scene_list(0.0)))
        });
        assert_eq!(painted[LONG_RUN as usize + 1], Kept);
        assert_eq!(kept(&meshes), before, "the very meshes, not copies");
    }

    #[test]
    fn a_moved_shape_a_panned_view_or_a_new_clip_rectangle_tessellates_again() {
        let ctx = Context::default();
        let view = view();
        let mut meshes = CanvasMeshes::default();
        let mut paint = |list: DrawList, view: View, clip: Option<Rect>| {
            let mut painted = None;
            frame(&ctx, |ui| {
                let painter = match clip {
                    Some(clip) => ui.painter().with_clip_rect(clip),
                    None => ui.painter().clone(),
                };
                painted = Some(meshes.paint(&painter, &view, list.clone()));
            });
            painted.unwrap()
        };
        use Painted::{Kept, Shapes, Tessellated};
        // A new list waits LONG_RUN frames (a pause) before it is kept.
        for _ in 1..LONG_RUN {
            assert_eq!(paint(scene_list(0.0), view, None), Shapes);
        }
        assert_eq!(paint(scene_list(0.0), view, None), Tessellated);
        assert_eq!(paint(scene_list(0.0), view, None), Kept);
        // After a list that stayed that long, the next is kept from its second frame (a tick
        // of a run played at 1x).
        assert_eq!(paint(scene_list(0.01), view, None), Shapes, "a shape moved");
        assert_eq!(paint(scene_list(0.01), view, None), Tessellated);
        let mut panned = view;
        panned.center.x += 0.5;
        assert_eq!(paint(scene_list(0.01), panned, None), Shapes, "the view panned");
        assert_eq!(
            paint(scene_list(0.01), panned, None),
            Shapes,
            "the panned list has not stayed yet"
        );
        // Lists that change every frame or two are never kept.
        for shift in [0.02, 0.03, 0.03, 0.04, 0.05, 0.05, 0.06] {
            assert_eq!(paint(scene_list(shift), panned, None), Shapes, "shifted {shift}");
        }
        let smaller = Rect::from_min_size(Pos2::new(10.0, 10.0), egui::vec2(500.0, 500.0));
        assert_eq!(
            paint(scene_list(0.01), panned, Some(smaller)),
            Shapes,
            "the canvas resized"
        );
    }
}
