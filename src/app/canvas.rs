//! The canvas: paints the draw lists of the shown tick over an optional metre grid, pans (middle
//! or right drag, Space + drag, or any drag when the primary button is not needed for editing),
//! zooms to the cursor (wheel or pinch), fits on double-click (when not editing), and shows a
//! scale bar and the cursor position in metres.

use std::sync::Arc;

use eframe::egui;
use egui::{Align2, Color32, FontId, Key, PointerButton, Pos2, Rect, Response, Role, Sense, Stroke, Ui, WidgetInfo};
use glam::Vec2;

use super::canvas_meshes::CanvasMeshes;
use super::canvas_picture::CanvasPicture;
use super::gpu_canvas::GpuCanvas;
use super::grid;
use super::paint::{color32, pos2};
use crate::draw::{DrawList, View, palette};
use crate::scene::Bounds;

/// The canvas's layers, painted in order: the scene's static content, then the agents.
pub const LAYERS: usize = 2;

/// Shapes from which a layer is drawn on the CPU when the window's OpenGL draws in software: about
/// 60,000 vertices tessellated, which such a renderer takes some 25 ms to draw (see
/// [`CanvasPicture`]).
const CPU_PICTURE_MIN_SHAPES: usize = 2_500;

/// Length the scale bar aims for, in pixels.
const SCALE_BAR_PIXELS: f32 = 120.0;

/// The canvas's view, what the pointer is over and the meshes of the last draw lists; kept
/// between frames.
#[derive(Debug, Default)]
pub struct CanvasState {
    /// The world → screen view; `None` until the canvas has a size (then it fits the scene).
    view: Option<View>,
    /// World position under the pointer, while it is over the canvas.
    pointer: Option<Vec2>,
    /// The last draw list of each layer painted, tessellated: the scene's static content stays
    /// tessellated while the agents move over it.
    meshes: [CanvasMeshes; LAYERS],
    /// The whole canvas (background, grid lines and every layer) as one picture, when a large
    /// layer is drawn on the CPU.
    picture: CanvasPicture,
    /// A canvas with a large layer is drawn on the CPU, off the UI thread, as one opaque picture
    /// (the window's OpenGL draws in software, and each layer, the background and the grid
    /// lines drawn over the whole canvas cost it about as much as another frame's worth of
    /// panels: the shoal played at 21 frames a second with them all, 34 with none).
    large_layers_on_cpu: bool,
    /// Draws the layers from buffers on the GPU (under eframe's glow renderer).
    gpu: Option<GpuCanvas>,
    /// Whether the window's GL context has been looked at for `gpu`.
    gl_checked: bool,
}

/// How the canvas reacts this frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanvasOptions {
    /// A primary-button drag pans and a double-click fits (false while editing: tools use them).
    pub primary_pans: bool,
    /// Draw the metre grid under the scene.
    pub grid: bool,
}

impl CanvasState {
    /// Fits the whole scene on the next frame.
    pub fn fit(&mut self) {
        self.view = None;
    }

    /// Moves the view so world point `p` is in the middle (keeping the zoom).
    pub fn center_on(&mut self, p: Vec2) {
        if let Some(view) = &mut self.view {
            view.center = p;
        }
    }

    /// Draws the layers from buffers on the GPU from now on, when the window's GL context `gl`
    /// can (see [`GpuCanvas`]), and, when `gl` draws in software, a canvas with a large layer as
    /// one picture on the CPU (see [`CanvasPicture`]). The environment variable `CROWDLAB_CANVAS`
    /// chooses otherwise: `gpu` draws every layer on the GPU, `egui` hands every mesh to egui (as
    /// without a GL context).
    pub fn use_gl(&mut self, gl: &eframe::glow::Context) {
        if !self.gl_checked {
            self.gl_checked = true;
            let choice = std::env::var("CROWDLAB_CANVAS").unwrap_or_default();
            if choice != "egui" {
                self.gpu = GpuCanvas::for_context(gl);
            }
            self.large_layers_on_cpu = choice != "egui" && choice != "gpu" && GpuCanvas::renders_in_software(gl);
        }
    }

    /// True when the canvas's picture, when it is drawn on the CPU, shows the latest lists and
    /// view (a screenshot waits for this).
    pub fn picture_current(&self) -> bool {
        self.picture.is_current()
    }

    /// True while a picture of the canvas is being drawn on the CPU: lists built meanwhile would
    /// only wait for the next one.
    pub fn picture_drawing(&self) -> bool {
        self.picture.drawing()
    }

    /// The screen position of world point `p` in the last frame drawn, once the canvas has a size.
    pub fn to_screen(&self, p: Vec2) -> Option<Pos2> {
        self.view.map(|view| pos2(view.to_screen(p)))
    }
}

/// Draws the `layers`' lists, in order, over the whole available space; `caption` is shown in
/// the top-left corner.
/// Returns the canvas's response and view for the editor's tools.
pub fn show(
    ui: &mut Ui,
    state: &mut CanvasState,
    bounds: Bounds,
    layers: [Arc<DrawList>; LAYERS],
    caption: &str,
    options: CanvasOptions,
) -> (Response, View) {
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
    response.widget_info(|| WidgetInfo::labeled(Role::Canvas, true, "Scene canvas"));
    let rect = response.rect;
    let size = Vec2::new(rect.width(), rect.height());
    if options.primary_pans && response.double_clicked() {
        state.fit();
    }
    let view = state.view.get_or_insert_with(|| View::fit(bounds, size));
    view.size = size;
    view.origin = Vec2::new(rect.min.x, rect.min.y);

    let space = ui.input(|i| i.key_down(Key::Space));
    let pans = response.dragged_by(PointerButton::Middle)
        || response.dragged_by(PointerButton::Secondary)
        || ((options.primary_pans || space) && response.dragged_by(PointerButton::Primary));
    if pans {
        let d = response.drag_delta();
        view.center += Vec2::new(-d.x, d.y) / view.scale;
    }
    let local = |p: Pos2| Vec2::new(p.x, p.y);
    state.pointer = response.hover_pos().map(|hover| {
        let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = pinch * (scroll / 300.0).exp();
        if factor != 1.0 {
            view.zoom_at(local(hover), factor);
        }
        view.to_world(local(hover))
    });

    let pal = palette();
    // Under everything, filled once the rest is known (a picture that covers the canvas hides it).
    let backdrop = painter.add(egui::Shape::Noop);
    let grid_color = pal.text.with_alpha(pal.text.0[3] / 2);
    let large = layers.iter().any(|list| list.shapes.len() >= CPU_PICTURE_MIN_SHAPES);
    let gpu = state.gpu.as_ref().filter(|gpu| gpu.usable());
    let covered = if state.large_layers_on_cpu && large && !state.picture.failed() {
        let mut grid_lines = DrawList::default();
        if options.grid {
            grid::push_lines(&mut grid_lines, view, grid_color);
        }
        // The grid's lines and the scene's static layer stay drawn while the agents move.
        let lists = std::iter::once(Arc::new(grid_lines)).chain(layers).collect();
        let painted = state.picture.paint(&painter, view, lists, 2, pal.background, gpu);
        let slack = 1.0 / ui.ctx().pixels_per_point();
        painted.is_some_and(|painted| painted.expand(slack).contains_rect(rect))
    } else {
        state.picture.clear();
        if options.grid {
            grid::paint_lines(&painter, rect, view, grid_color);
        }
        for (meshes, list) in state.meshes.iter_mut().zip(layers) {
            meshes.paint(&painter, view, list, gpu);
        }
        false
    };
    if !covered {
        let background = color32(pal.background);
        let fill = match gpu {
            Some(gpu) => gpu.clear_shape(rect, background),
            None => egui::Shape::rect_filled(rect, 0.0, background),
        };
        painter.set(backdrop, fill);
    }
    if options.grid {
        grid::paint_labels(&painter, rect, view, grid_color);
    }

    let text = color32(pal.text);
    let font = FontId::proportional(13.0);
    painter.text(
        rect.left_top() + egui::vec2(10.0, 8.0),
        Align2::LEFT_TOP,
        caption,
        font.clone(),
        text,
    );
    scale_bar(&painter, rect, view.scale, text);
    if let Some(p) = state.pointer {
        let at = rect.right_bottom() - egui::vec2(10.0, 8.0);
        painter.text(
            at,
            Align2::RIGHT_BOTTOM,
            format!("x {:.2} m   y {:.2} m", p.x, p.y),
            font,
            text,
        );
    }
    let view = *view;
    (response, view)
}

/// The largest 1, 2 or 5 × 10^k metres not longer than `metres`.
fn nice_length(metres: f32) -> f32 {
    let decade = 10f32.powf(metres.log10().floor());
    [5.0, 2.0, 1.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|&l| l <= metres)
        .unwrap_or(decade)
}

/// A length in metres with as many decimals as it needs.
fn format_metres(metres: f32) -> String {
    let decimals = (-metres.log10().floor()).max(0.0) as usize;
    format!("{metres:.decimals$} m")
}

fn scale_bar(painter: &egui::Painter, rect: Rect, scale: f32, color: Color32) {
    let metres = nice_length(SCALE_BAR_PIXELS / scale);
    let length = metres * scale;
    let left = Pos2::new(rect.left() + 16.0, rect.bottom() - 16.0);
    let right = left + egui::vec2(length, 0.0);
    let stroke = Stroke::new(2.0, color);
    painter.line_segment([left, right], stroke);
    for end in [left, right] {
        painter.line_segment([end - egui::vec2(0.0, 5.0), end + egui::vec2(0.0, 1.0)], stroke);
    }
    painter.text(
        Pos2::new((left.x + right.x) * 0.5, left.y - 6.0),
        Align2::CENTER_BOTTOM,
        format_metres(metres),
        FontId::proportional(12.0),
        color,
    );
}

#[cfg(test)]
mod tests {
    use egui::{Context, RawInput, TextureId};

    use super::*;
    use crate::draw::{Color, Shape};

    /// `count` discs in a row.
    fn discs(count: usize) -> DrawList {
        let shapes = (0..count).map(|i| Shape::Circle {
            center: Vec2::new((i % 100) as f32 * 0.2 - 10.0, (i / 100) as f32 * 0.2 - 5.0),
            radius: 0.08,
            fill: Some(Color::rgb(60, 110, 200)),
            stroke: None,
        });
        DrawList {
            shapes: shapes.collect(),
        }
    }

    /// What the canvas's frame painted: the textures of its meshes (egui's font atlas for
    /// tessellated shapes, a texture of the canvas's own for a picture) and whether it filled
    /// the canvas with its background colour.
    fn painted(ctx: &Context, state: &mut CanvasState, layers: [DrawList; LAYERS]) -> (Vec<TextureId>, bool) {
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, egui::vec2(600.0, 400.0))),
            ..Default::default()
        };
        let bounds = Bounds {
            min: Vec2::new(-10.0, -6.0),
            max: Vec2::new(10.0, 6.0),
        };
        let mut layers = Some(layers);
        let options = CanvasOptions {
            grid: true,
            ..CanvasOptions::default()
        };
        let mut output = ctx.run_ui(input, |ui| {
            let layers = layers.take().expect("one pass");
            show(ui, state, bounds, layers.map(Arc::new), "", options);
        });
        output.textures_delta.clear();
        let background = color32(palette().background);
        let mut textures = Vec::new();
        let mut backdrop = false;
        for clipped in &output.shapes {
            match &clipped.shape {
                egui::Shape::Mesh(mesh) => textures.push(mesh.texture_id),
                egui::Shape::Rect(rect) => backdrop |= rect.fill == background,
                _ => {}
            }
        }
        textures.dedup();
        (textures, backdrop)
    }

    #[test]
    fn under_a_software_renderer_a_canvas_with_a_layer_of_thousands_of_shapes_is_one_opaque_picture() {
        let ctx = Context::default();
        let atlas = TextureId::default();
        let mut state = CanvasState {
            large_layers_on_cpu: true,
            ..CanvasState::default()
        };
        let (textures, backdrop) = painted(&ctx, &mut state, [discs(100), discs(CPU_PICTURE_MIN_SHAPES)]);
        assert_eq!(textures.len(), 1, "{textures:?}");
        assert_ne!(textures[0], atlas, "both layers and the grid's lines in one picture");
        assert!(!backdrop, "the picture covers the canvas: no background under it");
        assert!(state.picture_current(), "the first picture is waited for");

        let (textures, backdrop) = painted(&ctx, &mut state, [discs(100), discs(CPU_PICTURE_MIN_SHAPES - 1)]);
        assert_eq!(textures, [atlas], "below the threshold every layer is tessellated");
        assert!(backdrop, "over the background");

        let mut with_a_gpu = CanvasState::default();
        let big = discs(CPU_PICTURE_MIN_SHAPES * 2);
        let (textures, backdrop) = painted(&ctx, &mut with_a_gpu, [discs(100), big]);
        assert_eq!(textures, [atlas], "with a GPU every layer is tessellated");
        assert!(backdrop);
    }

    #[test]
    fn scale_bar_lengths_are_round() {
        for (metres, nice) in [(7.3, 5.0), (2.0, 2.0), (0.19, 0.1), (350.0, 200.0)] {
            assert!(
                (nice_length(metres) - nice).abs() < 1e-4,
                "{metres} -> {}",
                nice_length(metres)
            );
        }
        assert_eq!(format_metres(5.0), "5 m");
        assert_eq!(format_metres(0.2), "0.2 m");
        assert_eq!(format_metres(0.05), "0.05 m");
    }
}
