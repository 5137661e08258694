//! The canvas's draw list tessellated once and painted as ready meshes for as long as it stays
//! the same: while the run is paused, between the ticks of a run played at 1x (six UI frames a
//! tick at 60 frames per second), and in the editor while nothing moves, a frame then hands
//! egui the meshes instead of tessellating thousands of agents and their arrows again.
//!
//! The key is what the meshes are made from — the draw list itself, the view, the clip
//! rectangle, the pixels per point and the size of the font atlas that discs and text take
//! their texture coordinates from — so no change can be missed by a rule about when to redraw.
//! Comparing two lists of the same crowd costs a small part of tessellating one.
//!
//! A new list is tessellated into the buffers of the meshes of lists painted before, once egui
//! has let go of them (it holds a frame's meshes until it has copied them at the frame's end),
//! so that a crowd in motion is not tessellated into freshly allocated memory every frame.
//!
//! Under eframe's glow renderer ([`GpuCanvas`]) the list is one mesh, kept in buffers on the GPU
//! and drawn from there, so that a kept list costs egui nothing at all.

use std::sync::Arc;

use eframe::egui;
use egui::epaint::Mesh;
use egui::{Painter, Rect, Shape as EguiShape};

use super::gpu_canvas::{GpuCanvas, GpuLayer};
use super::paint::{SHAPES_PER_MESH, tessellate_runs};
use crate::draw::{DrawList, View};

/// Meshes of lists no longer painted that are kept for their buffers: two frames' worth of
/// runs of a crowd of 10,000 with its arrows.
const MAX_SPARE: usize = 512;

/// The last draw list the canvas painted, with what it was painted with and its meshes.
#[derive(Default)]
pub struct CanvasMeshes {
    drawn: Option<Drawn>,
    /// Meshes of lists painted before, to be reused once egui no longer holds them.
    spare: Vec<Arc<Mesh>>,
    /// The list's buffers on the GPU, when it is drawn from there.
    gpu: GpuLayer,
    /// How many lists have been tessellated: the generation of the GPU buffers' mesh.
    tessellated: u64,
}

/// One painted draw list.
struct Drawn {
    list: Arc<DrawList>,
    view: View,
    clip: Rect,
    pixels_per_point: f32,
    atlas_size: [usize; 2],
    /// Drawn from the GPU's buffers, as one mesh.
    on_gpu: bool,
    /// Each mesh with its clip rectangle, in painting order.
    meshes: Vec<(Rect, Arc<Mesh>)>,
}

impl std::fmt::Debug for CanvasMeshes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shapes = self.drawn.as_ref().map_or(0, |d| d.list.shapes.len());
        let meshes = self.drawn.as_ref().map_or(0, |d| d.meshes.len());
        write!(f, "CanvasMeshes {{ {shapes} shapes in {meshes} meshes }}")
    }
}

/// How a frame painted the canvas's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Painted {
    /// Tessellated now: the list, or how it is painted, changed.
    Tessellated,
    /// From the kept meshes.
    Kept,
}

impl CanvasMeshes {
    /// Paints `list` through `view` with `painter` as `paint::paint_draw_list` would: from the
    /// kept meshes when the last call painted the same list the same way, tessellated anew
    /// otherwise; with `gpu`, as one mesh drawn from its buffers on the GPU.
    pub fn paint(&mut self, painter: &Painter, view: &View, list: Arc<DrawList>, gpu: Option<&GpuCanvas>) -> Painted {
        let ctx = painter.ctx();
        let pixels_per_point = ctx.pixels_per_point();
        let clip = painter.clip_rect();
        let atlas_size = || ctx.fonts(|f| f.font_image_size());
        let same = self.drawn.as_ref().is_some_and(|d| {
            d.view == *view
                && d.clip == clip
                && d.pixels_per_point == pixels_per_point
                && d.atlas_size == atlas_size()
                && d.on_gpu == gpu.is_some()
                && (Arc::ptr_eq(&d.list, &list) || d.list == list)
        });
        let painted = if same {
            Painted::Kept
        } else {
            if let Some(old) = self.drawn.take() {
                self.spare.extend(old.meshes.into_iter().map(|(_, mesh)| mesh));
            }
            let mut free = self.free_meshes();
            let shapes_per_mesh = if gpu.is_some() { usize::MAX } else { SHAPES_PER_MESH };
            let meshes = tessellate_runs(painter, view, &list, shapes_per_mesh, || free.pop().unwrap_or_default());
            self.tessellated += 1;
            self.spare.extend(free.into_iter().map(Arc::new));
            let excess = self.spare.len().saturating_sub(MAX_SPARE);
            self.spare.drain(..excess);
            // Read after the layout of the list's text, which may have grown the atlas.
            self.drawn = Some(Drawn {
                list,
                view: *view,
                clip,
                pixels_per_point,
                atlas_size: atlas_size(),
                on_gpu: gpu.is_some(),
                meshes,
            });
            Painted::Tessellated
        };
        for (clip, mesh) in self.drawn.iter().flat_map(|d| &d.meshes) {
            match gpu {
                Some(canvas) => self.gpu.paint(canvas, painter, self.tessellated, Arc::clone(mesh)),
                None => {
                    painter.with_clip_rect(*clip).add(EguiShape::Mesh(Arc::clone(mesh)));
                }
            }
        }
        painted
    }

    /// The spare meshes that nobody else holds any more, emptied; the others stay spare.
    fn free_meshes(&mut self) -> Vec<Mesh> {
        let mut free = Vec::new();
        for mesh in std::mem::take(&mut self.spare) {
            match Arc::try_unwrap(mesh) {
                Ok(mut mesh) => {
                    // Not `Mesh::clear`, which lets go of the vertices' memory.
                    mesh.vertices.clear();
                    mesh.indices.clear();
                    free.push(mesh);
                }
                Err(held) => self.spare.push(held),
            }
        }
        free
    }
}

#[cfg(test)]
mod tests {
    use egui::epaint::{ClippedPrimitive, Primitive, Vertex};
    use egui::{Context, Pos2, RawInput};
    use glam::Vec2;

    use super::*;
    use crate::app::paint::{mesh_triangles, paint_draw_list};
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
                Primitive::Mesh(mesh) => Some((p.clip_rect, mesh.texture_id, mesh_triangles(mesh))),
                Primitive::Callback(_) => None,
            })
            .collect()
    }

    /// The address of each kept mesh's vertices.
    fn kept_vertices(meshes: &CanvasMeshes) -> Vec<*const Vertex> {
        let drawn = meshes.drawn.iter().flat_map(|d| &d.meshes);
        drawn.map(|(_, m)| m.vertices.as_ptr()).collect()
    }

    #[test]
    fn the_kept_meshes_are_what_painting_the_list_tessellates_to_and_are_reused_while_it_stays_the_same() {
        let ctx = Context::default();
        let view = view();
        // A frame to load the fonts, then the list painted directly.
        frame(&ctx, |ui| paint_draw_list(ui.painter(), &view, &scene_list(0.0)));
        let direct = triangles(&frame(&ctx, |ui| {
            paint_draw_list(ui.painter(), &view, &scene_list(0.0))
        }));
        assert!(direct.len() > 4, "{} meshes", direct.len());
        let mut meshes = CanvasMeshes::default();
        let mut painted = Vec::new();
        let mut kept = Vec::new();
        for _ in 0..3 {
            let cached = frame(&ctx, |ui| {
                painted.push(meshes.paint(ui.painter(), &view, scene_list(0.0).into(), None))
            });
            assert!(triangles(&cached) == direct, "the same triangles in the same meshes");
            kept.push(kept_vertices(&meshes));
        }
        use Painted::{Kept, Tessellated};
        assert_eq!(painted, [Tessellated, Kept, Kept]);
        assert!(kept[1] == kept[0] && kept[2] == kept[0], "the very meshes, not copies");
    }

    #[test]
    fn on_the_gpu_the_list_is_one_mesh_of_the_same_triangles_painted_by_a_callback_over_the_canvas() {
        let ctx = Context::default();
        let view = view();
        let clip = Rect::from_min_size(Pos2::new(10.0, 20.0), egui::vec2(700.0, 600.0));
        let mut through_egui = CanvasMeshes::default();
        frame(&ctx, |ui| {
            through_egui.paint(&ui.painter().with_clip_rect(clip), &view, scene_list(0.0).into(), None);
        });
        let runs = triangles(&frame(&ctx, |ui| {
            through_egui.paint(&ui.painter().with_clip_rect(clip), &view, scene_list(0.0).into(), None);
        }));
        assert!(runs.len() > 4, "{} meshes through egui", runs.len());
        let gpu = GpuCanvas::default();
        let mut on_gpu = CanvasMeshes::default();
        let mut painted = Vec::new();
        for shift in [0.0, 0.0, 0.5] {
            let primitives = frame(&ctx, |ui| {
                let painter = ui.painter().with_clip_rect(clip);
                painted.push(on_gpu.paint(&painter, &view, scene_list(shift).into(), Some(&gpu)));
            });
            assert!(triangles(&primitives).is_empty(), "no mesh handed to egui");
            let callbacks: Vec<_> = primitives
                .iter()
                .filter_map(|p| match &p.primitive {
                    Primitive::Callback(callback) => Some((p.clip_rect, callback.rect)),
                    Primitive::Mesh(_) => None,
                })
                .collect();
            assert_eq!(callbacks, [(clip, clip)], "one callback over the canvas");
        }
        use Painted::{Kept, Tessellated};
        assert_eq!(painted, [Tessellated, Kept, Tessellated]);
        assert_eq!(on_gpu.tessellated, 2, "a new generation for each new mesh only");
        // The moved list's mesh, against the same list through egui.
        let moved = triangles(&frame(&ctx, |ui| {
            through_egui.paint(&ui.painter().with_clip_rect(clip), &view, scene_list(0.5).into(), None);
        }));
        let drawn = on_gpu.drawn.as_ref().expect("drawn");
        assert_eq!(drawn.meshes.len(), 1);
        let all_runs: Vec<[Vertex; 3]> = moved.into_iter().flat_map(|(_, _, t)| t).collect();
        assert!(
            mesh_triangles(&drawn.meshes[0].1) == all_runs,
            "the runs' triangles, in order, in one mesh"
        );
    }

    #[test]
    fn a_moved_shape_a_panned_view_or_a_new_clip_rectangle_tessellates_again_into_the_old_buffers() {
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
                painted = Some(meshes.paint(&painter, &view, list.clone().into(), None));
            });
            (painted.unwrap(), kept_vertices(&meshes))
        };
        use Painted::{Kept, Tessellated};
        assert_eq!(paint(scene_list(0.0), view, None).0, Tessellated);
        assert_eq!(paint(scene_list(0.0), view, None).0, Kept);
        assert_eq!(paint(scene_list(0.01), view, None).0, Tessellated, "a shape moved");
        assert_eq!(paint(scene_list(0.01), view, None).0, Kept);
        let mut panned = view;
        panned.center.x += 0.5;
        assert_eq!(paint(scene_list(0.01), panned, None).0, Tessellated, "the view panned");
        let smaller = Rect::from_min_size(Pos2::new(10.0, 10.0), egui::vec2(500.0, 500.0));
        assert_eq!(
            paint(scene_list(0.01), panned, Some(smaller)).0,
            Tessellated,
            "the canvas resized"
        );
        assert_eq!(paint(scene_list(0.01), panned, Some(smaller)).0, Kept);
        // A crowd in motion: each list is tessellated into buffers of lists painted before.
        let mut seen = std::collections::HashSet::new();
        let mut reused = 0;
        for shift in 0..8 {
            let (painted, buffers) = paint(scene_list(0.1 * shift as f32), view, None);
            assert_eq!(painted, Tessellated);
            reused += buffers.iter().filter(|b| seen.contains(*b)).count();
            seen.extend(buffers);
        }
        assert!(reused >= 5 * 3, "{reused} meshes written into old buffers");
    }
}
