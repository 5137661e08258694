//! The whole canvas drawn on the CPU, away from the UI thread, by the PNG export's renderer, and
//! shown as one opaque texture: for windows whose OpenGL draws in software (Mesa's llvmpipe under
//! Xvfb, a machine without a GPU), when some layer of the canvas is large.
//!
//! There, drawing a crowd of 10,000 with its force arrows from its million vertices takes the
//! renderer 0.2–0.3 s, so every frame that shows a new tick stalls the window. The PNG export's
//! rasteriser (exact coverage for discs and segments, `draw::draw_over`) draws the same draw
//! list several times faster, and here it does so on a thread of its own: the window keeps
//! drawing at its own pace with the last finished picture, which follows the view (panned and
//! zoomed with it, resampled) until the picture for the new view arrives. Pictures are sampled at
//! the nearest pixel. A picture lies on the pixel grid it was drawn for except while a pan or a
//! zoom waits for the next one, so this shows exactly its pixels; a linear filter would only
//! smooth those moments, and under llvmpipe the shoal drew 13–19 % more frames per second without it.
//!
//! The picture holds the background, the grid's lines and every layer, so that the software
//! renderer fills the canvas's pixels once a frame rather than once for the background, once for
//! the grid and once for each layer. Being opaque, it is copied onto the screen with blending off
//! by a paint callback (`GpuCanvas::paint_opaque_picture`) rather than shaded and blended as an
//! egui image: the shoal's frames took about a tenth less CPU. The lists under the crowd are
//! kept drawn between pictures (see [`Framing`]).
//!
//! The picture looks like an exported frame, which matches the canvas to within the edge
//! shading of anti-aliasing (a one-pixel coverage ramp against egui's feathering).

use std::sync::Arc;
use std::thread::JoinHandle;

use eframe::egui;
use egui::{Color32, ColorImage, Context, Painter, Pos2, Rect, TextureHandle, TextureOptions};
use tiny_skia::Pixmap;

use super::gpu_canvas::GpuCanvas;
use super::picture_framing::{Framing, Underlay};
use crate::draw::{Color, DrawList, View};

/// A picture being drawn on its own thread.
struct Job {
    framing: Framing,
    /// The picture, and the underlay it was drawn from.
    thread: JoinHandle<(Option<Pixmap>, Option<Underlay>)>,
}

/// The canvas drawn on the CPU; kept between frames.
#[derive(Default)]
pub struct CanvasPicture {
    /// The last finished picture, and what it shows.
    shown: Option<(TextureHandle, Framing)>,
    /// The newest list and view the canvas asked for.
    wanted: Option<Framing>,
    job: Option<Job>,
    /// The last picture's pixels, to draw the next one into.
    spare: Option<Pixmap>,
    /// The last picture's underlay, to start the next one from.
    underlay: Option<Underlay>,
    /// A picture could not be drawn: the canvas's layers are tessellated from then on.
    failed: bool,
}

impl std::fmt::Debug for CanvasPicture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CanvasPicture {{ shown: {}, drawing: {} }}",
            self.shown.is_some(),
            self.job.is_some()
        )
    }
}

impl CanvasPicture {
    /// Paints the latest picture of `lists` (the first `under` of them kept drawn while they stay
    /// the same, see [`Framing`]) over `background` through `view` with `painter`, moved to where
    /// its world is under `view`, and starts drawing a picture of `lists` through `view` when none
    /// shows it yet and none is being drawn. The first picture is waited for. With `gpu` the
    /// opaque picture is copied onto the screen without blending, otherwise painted as an egui
    /// image. Returns the rectangle painted (none when no picture could be drawn).
    pub fn paint(
        &mut self,
        painter: &Painter,
        view: &View,
        lists: Vec<Arc<DrawList>>,
        under: usize,
        background: Color,
        gpu: Option<&GpuCanvas>,
    ) -> Option<Rect> {
        let ctx = painter.ctx();
        let pixels_per_point = ctx.pixels_per_point();
        if let Some(wanted) = Framing::follow(self.wanted.as_ref(), lists, under, background, view, pixels_per_point) {
            self.wanted = Some(wanted);
        }
        if self.job.as_ref().is_some_and(|job| job.thread.is_finished()) || self.shown.is_none() {
            self.finish(ctx);
        }
        if self.job.is_none() && !self.is_current() {
            self.start(ctx);
            if self.shown.is_none() {
                self.finish(ctx);
            }
        }
        let (texture, framing) = self.shown.as_ref()?;
        let (rect, uv) = (
            framing.rect_under(view),
            Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
        );
        match gpu {
            Some(gpu) => gpu.paint_opaque_picture(painter, rect, texture.id()),
            None => {
                painter.image(texture.id(), rect, uv, Color32::WHITE);
            }
        }
        Some(rect)
    }

    /// True when the picture shown is of the latest lists, view and background asked for (or when
    /// the canvas cannot be drawn on the CPU, see [`CanvasPicture::failed`]).
    pub fn is_current(&self) -> bool {
        if self.failed {
            return true;
        }
        match (&self.shown, &self.wanted) {
            (Some((_, shown)), Some(wanted)) => shown.same_picture(wanted),
            (_, None) => true,
            (None, Some(_)) => false,
        }
    }

    /// True while a picture is being drawn on its thread.
    pub fn drawing(&self) -> bool {
        self.job.as_ref().is_some_and(|job| !job.thread.is_finished())
    }

    /// True once a picture could not be drawn (the thread drawing it panicked, or its pixmap
    /// could not be made): the canvas then tessellates its layers instead.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// Forgets the pictures (the canvas is painted another way now), not that one failed.
    pub fn clear(&mut self) {
        *self = CanvasPicture {
            failed: self.failed,
            ..CanvasPicture::default()
        };
    }

    /// Starts drawing the wanted picture on a thread of its own (here, should no thread start).
    fn start(&mut self, ctx: &Context) {
        let Some(framing) = self.wanted.clone() else {
            return;
        };
        let (pixmap, underlay) = (self.spare.take(), self.underlay.take());
        let (job_framing, waker) = (framing.clone(), ctx.clone());
        let spawned = std::thread::Builder::new()
            .name("canvas picture".into())
            .spawn(move || {
                let drawn = job_framing.render(pixmap, underlay);
                waker.request_repaint();
                drawn
            });
        match spawned {
            Ok(thread) => self.job = Some(Job { framing, thread }),
            Err(error) => {
                eprintln!("crowdlab: cannot start a thread for the canvas's picture ({error}); drawing it here");
                let drawn = framing.render(None, None);
                self.show(ctx, framing, drawn);
            }
        }
    }

    /// Shows the job's picture, waiting for it if it is still being drawn.
    fn finish(&mut self, ctx: &Context) {
        if let Some(job) = self.job.take() {
            let drawn = job.thread.join().unwrap_or((None, None));
            self.show(ctx, job.framing, drawn);
        }
    }

    /// Shows `pixmap`, the picture of `framing`, and keeps `underlay` for the next one.
    fn show(&mut self, ctx: &Context, framing: Framing, (pixmap, underlay): (Option<Pixmap>, Option<Underlay>)) {
        self.underlay = underlay;
        let Some(pixmap) = pixmap else {
            eprintln!("crowdlab: the canvas's picture could not be drawn; its layers are tessellated from now on");
            self.failed = true;
            return;
        };
        let size = [pixmap.width() as usize, pixmap.height() as usize];
        let image = ColorImage::from_rgba_premultiplied(size, pixmap.data());
        match &mut self.shown {
            Some((texture, shown)) => {
                texture.set(image, TextureOptions::NEAREST);
                *shown = framing;
            }
            None => {
                let texture = ctx.load_texture("canvas picture", image, TextureOptions::NEAREST);
                self.shown = Some((texture, framing));
            }
        }
        self.spare = Some(pixmap);
    }
}

#[cfg(test)]
mod tests {
    use egui::epaint::ImageData;
    use egui::{FullOutput, RawInput, Shape as EguiShape, TextureId};

    use super::*;
    use crate::draw::{Color, Shape, Stroke};
    use crate::scene::Bounds;
    use glam::Vec2;

    /// A row of discs with arrows, moved `shift` metres to the right.
    fn crowd(shift: f32) -> DrawList {
        let mut list = DrawList::default();
        for i in 0..40 {
            let center = Vec2::new(i as f32 * 0.5 - 10.0 + shift, (i % 5) as f32);
            list.push(Shape::Circle {
                center,
                radius: 0.2,
                fill: Some(Color([60, 110, 200, 255])),
                stroke: Some(Stroke {
                    width: 1.0,
                    color: Color::rgb(20, 30, 60),
                }),
            });
            list.push(Shape::Arrow {
                from: center,
                to: center + Vec2::new(0.4, 0.3),
                stroke: Stroke {
                    width: 1.5,
                    color: Color([200, 40, 40, 220]),
                },
                head: 4.0,
            });
        }
        list
    }

    /// The canvas's background in these tests.
    const BACKGROUND: Color = Color::rgb(240, 235, 220);

    /// What a frame painted: the picture's rectangle (points) and the pixels uploaded, if any.
    struct Painted {
        rect: Rect,
        uploaded: Option<Vec<u8>>,
    }

    /// One frame in which `picture` paints `list` through `view`.
    fn frame(ctx: &Context, picture: &mut CanvasPicture, view: &View, list: DrawList) -> Painted {
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, egui::vec2(500.0, 400.0))),
            ..Default::default()
        };
        let mut list = Some(list);
        let mut output = ctx.run_ui(input, |ui| {
            let lists = vec![Arc::default(), Arc::new(list.take().expect("one pass"))];
            picture.paint(ui.painter(), view, lists, 1, BACKGROUND, None);
        });
        let painted = Painted {
            rect: picture_rect(&output),
            uploaded: uploaded(&output),
        };
        output.textures_delta.clear();
        painted
    }

    /// Where the frame painted the picture's texture, in points.
    fn picture_rect(output: &FullOutput) -> Rect {
        let rects: Vec<Rect> = output
            .shapes
            .iter()
            .filter_map(|clipped| match &clipped.shape {
                EguiShape::Mesh(mesh) if matches!(mesh.texture_id, TextureId::Managed(id) if id > 0) => {
                    Some(mesh.calc_bounds())
                }
                _ => None,
            })
            .collect();
        assert_eq!(rects.len(), 1, "one picture painted");
        rects[0]
    }

    /// The premultiplied pixels of the picture the frame uploaded, if it uploaded one.
    fn uploaded(output: &FullOutput) -> Option<Vec<u8>> {
        let (_, deltas) = output
            .textures_delta
            .set
            .iter()
            .find(|(id, _)| **id != TextureId::default())?;
        match &deltas.last()?.image {
            ImageData::Color(image) => Some(image.pixels.iter().flat_map(|c| c.to_array()).collect()),
        }
    }

    /// `list` drawn by the PNG export's renderer as the canvas's picture draws it at 1.5 pixels per
    /// point.
    fn exported(list: &DrawList, view: &View) -> Vec<u8> {
        let framing = Framing::follow(None, vec![list.clone().into()], 0, BACKGROUND, view, 1.5).expect("a framing");
        framing.render(None, None).0.expect("a picture").data().to_vec()
    }

    #[test]
    fn a_picture_that_cannot_be_drawn_hands_the_canvas_back_to_tessellation() {
        let ctx = Context::default();
        let too_large = View {
            origin: Vec2::ZERO,
            ..View::fill(
                Bounds {
                    min: Vec2::splat(-10.0),
                    max: Vec2::splat(10.0),
                },
                Vec2::new(1e9, 10.0),
            )
        };
        let mut layer = CanvasPicture::default();
        ctx.run_ui(RawInput::default(), |ui| {
            assert_eq!(
                layer.paint(ui.painter(), &too_large, vec![crowd(0.0).into()], 0, BACKGROUND, None),
                None
            );
        })
        .textures_delta
        .clear();
        assert!(layer.failed(), "no pixmap a billion pixels wide");
        assert!(layer.is_current(), "nothing for a screenshot to wait for");
        layer.clear();
        assert!(layer.failed(), "not tried again");
    }

    #[test]
    fn the_canvas_shows_the_export_renderers_picture_and_moves_it_with_the_view_until_the_next_one_is_drawn() {
        let ctx = Context::default();
        ctx.set_zoom_factor(1.5);
        let bounds = Bounds {
            min: Vec2::new(-12.0, -3.0),
            max: Vec2::new(12.0, 7.0),
        };
        let view = View {
            origin: Vec2::new(10.0, 20.5),
            ..View::fit(bounds, Vec2::new(400.0, 300.0))
        };
        let mut layer = CanvasPicture::default();
        // The first frame sets the scale; the first picture is waited for.
        frame(&ctx, &mut layer, &view, crowd(0.0));
        let first = frame(&ctx, &mut layer, &view, crowd(0.0));
        assert!(layer.is_current());
        let pixel_origin = Vec2::new(15.0, 31.0); // (10, 20.5) points × 1.5, rounded
        let canvas = Rect::from_min_size(Pos2::new(10.0, 62.0 / 3.0), egui::vec2(400.0, 300.0));
        let rect = first.rect;
        assert!(
            (rect.min - canvas.min).length() < 1e-3 && (rect.max - canvas.max).length() < 1e-3,
            "{rect:?} against {canvas:?}"
        );
        assert_eq!(layer.shown.as_ref().map(|(_, f)| f.pixel_origin), Some(pixel_origin));

        // A new tick under a panned view: the old picture moves with the world at once…
        let mut panned = view;
        panned.center.x += 2.0;
        let moved = frame(&ctx, &mut layer, &panned, crowd(0.5));
        assert!(!layer.is_current(), "the new picture is drawn on its thread");
        let shift = moved.rect.min.x - canvas.min.x;
        assert!((shift + 2.0 * view.scale).abs() < 1e-3, "moved {shift} points");
        // … until the new one arrives, drawn as the PNG export draws the list.
        let mut last = None;
        for _ in 0..200 {
            last = frame(&ctx, &mut layer, &panned, crowd(0.5)).uploaded.or(last);
            if layer.is_current() && last.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(layer.is_current(), "the picture caught up");
        let pixels = last.expect("the new picture uploaded");
        assert!(pixels == exported(&crowd(0.5), &panned), "the export renderer's pixels");
        assert!(pixels.chunks(4).all(|p| p[3] == 255), "an opaque picture");
        assert!(
            pixels.chunks(4).any(|p| p[..3] == BACKGROUND.0[..3]),
            "over the background"
        );
        assert!(pixels != exported(&crowd(0.0), &view));
        let settled = frame(&ctx, &mut layer, &panned, crowd(0.5));
        assert!((settled.rect.min - canvas.min).length() < 1e-3);
        assert!(settled.uploaded.is_none(), "a kept picture is not uploaded again");
    }
}
