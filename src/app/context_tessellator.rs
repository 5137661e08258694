//! An epaint [`Tessellator`] that turns shapes into the very triangles the context's own makes
//! of them at the end of a frame: the same pixels per point, options and font atlas size, and
//! the same pre-rasterised discs (egui draws small filled circles as a quad of its font atlas).
//!
//! egui keeps its atlas's discs to itself, but lays them out first in every new atlas, in an
//! order and at places fixed by the atlas's width. So they are read off a new atlas of the same
//! size and text options, and checked by tessellating a disc of each size both ways; should a
//! later egui place them otherwise, the tessellator goes without (circles then become polygons:
//! more triangles, the same picture). The tessellator is made once per pixels per point, atlas
//! size and options, and kept in the context's memory.

use eframe::egui;
use egui::epaint::{ClippedPrimitive, ClippedShape, Primitive, TessellationOptions, Tessellator, TextureAtlas, Vertex};
use egui::{Color32, Context, Id, Pos2, Rect, Shape};

/// What the tessellator is made for.
#[derive(Clone, Copy, PartialEq)]
struct Made {
    pixels_per_point: f32,
    atlas_size: [usize; 2],
    options: TessellationOptions,
}

/// A tessellator that tessellates as `ctx` does now (see the module's documentation), culling
/// to `clip`.
pub fn context_tessellator(ctx: &Context, clip: Rect) -> Tessellator {
    let made = Made {
        pixels_per_point: ctx.pixels_per_point(),
        atlas_size: ctx.fonts(|f| f.font_image_size()),
        options: ctx.tessellation_options(|o| *o),
    };
    let id = Id::unique("crowdlab: the context's tessellator");
    let kept = ctx.data(|d| d.get_temp::<(Made, Tessellator)>(id));
    let mut tessellator = match kept {
        Some((for_what, tessellator)) if for_what == made => tessellator,
        _ => {
            let tessellator = new_tessellator(ctx, made);
            ctx.data_mut(|d| d.insert_temp(id, (made, tessellator.clone())));
            tessellator
        }
    };
    tessellator.set_clip_rect(clip);
    tessellator
}

/// The tessellator for `made`, with the atlas's discs when they check out.
fn new_tessellator(ctx: &Context, made: Made) -> Tessellator {
    let Made {
        pixels_per_point,
        atlas_size,
        options,
    } = made;
    let text_options = ctx.fonts(|f| *f.options());
    let discs = TextureAtlas::new(atlas_size, text_options).prepared_discs();
    let with_discs = Tessellator::new(pixels_per_point, options, atlas_size, discs);
    if tessellates_discs_as(ctx, with_discs.clone(), pixels_per_point) {
        with_discs
    } else {
        Tessellator::new(pixels_per_point, options, atlas_size, Vec::new())
    }
}

/// Whether `tessellator` turns a filled circle of every disc's size (and one larger than all)
/// into the same triangles as `ctx`.
fn tessellates_discs_as(ctx: &Context, mut tessellator: Tessellator, pixels_per_point: f32) -> bool {
    // egui picks the smallest disc whose radius (texels) reaches 2^¼ times the circle's; the
    // discs' radii are 2^(i/2 − 1) texels up to 8, so these circles pick each disc in turn.
    let circles: Vec<ClippedShape> = (0..11)
        .map(|i| {
            let radius = 0.8 * 2f32.powf(i as f32 * 0.5 - 1.25) / pixels_per_point;
            let center = Pos2::new(20.0 * i as f32, 0.0);
            ClippedShape::new(Rect::EVERYTHING, Shape::circle_filled(center, radius, Color32::WHITE))
        })
        .collect();
    let ours = tessellator.tessellate_shapes(circles.clone());
    let theirs = ctx.tessellate(circles, pixels_per_point);
    meshes(&ours) == meshes(&theirs)
}

/// The vertices and indices of each mesh of `primitives`.
fn meshes(primitives: &[ClippedPrimitive]) -> Vec<(&[Vertex], &[u32])> {
    primitives
        .iter()
        .filter_map(|p| match &p.primitive {
            Primitive::Mesh(mesh) => Some((&mesh.vertices[..], &mesh.indices[..])),
            Primitive::Callback(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use egui::RawInput;

    use super::*;

    #[test]
    fn the_atlas_discs_check_out_so_small_circles_are_quads() {
        let ctx = Context::default();
        // The fonts (and their atlas) come with the first frame.
        ctx.run_ui(RawInput::default(), |_| {}).textures_delta.clear();
        let mut tessellator = context_tessellator(&ctx, Rect::EVERYTHING);
        let mut mesh = egui::epaint::Mesh::default();
        tessellator.tessellate_shape(
            Shape::circle_filled(Pos2::new(50.0, 50.0), 3.0, Color32::RED),
            &mut mesh,
        );
        assert_eq!(mesh.vertices.len(), 4, "a quad of the atlas, as egui draws it");
        assert!(tessellates_discs_as(&ctx, tessellator, ctx.pixels_per_point()));
    }
}
