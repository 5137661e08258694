//! Text for the tiny-skia backend: labels rasterised with `ab_glyph` in the canvas's font
//! (Ubuntu Light, egui's proportional font; Ubuntu Font Licence 1.0, see
//! `assets/fonts/Ubuntu-Light-LICENCE.txt`), embedded in the binary.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use glam::Vec2;
use tiny_skia::{Pixmap, PremultipliedColorU8};

use super::list::Color;

static FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/Ubuntu-Light.ttf");

fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_BYTES).expect("embedded font is a valid TrueType file"))
}

/// Blends `color` at `coverage` (0–1) over the premultiplied pixel `dst` (source-over).
fn blend(dst: PremultipliedColorU8, color: Color, coverage: f32) -> PremultipliedColorU8 {
    let [r, g, b, a] = color.0;
    let sa = coverage.clamp(0.0, 1.0) * a as f32 / 255.0;
    let keep = 1.0 - sa;
    let out_a = (sa * 255.0 + dst.alpha() as f32 * keep).round().min(255.0) as u8;
    let channel = |src: u8, dst: u8| ((src as f32 * sa + dst as f32 * keep).round() as u8).min(out_a);
    PremultipliedColorU8::from_rgba(
        channel(r, dst.red()),
        channel(g, dst.green()),
        channel(b, dst.blue()),
        out_a,
    )
    .expect("channels clamped to alpha")
}

/// Draws `text` centred on the screen point `center`, `size` pixels high, in `color`.
pub fn draw_text(pixmap: &mut Pixmap, text: &str, center: Vec2, size: f32, color: Color) {
    let font = font();
    let scaled = font.as_scaled(PxScale::from(size));
    let glyphs: Vec<_> = text.chars().map(|c| font.glyph_id(c)).collect();
    let width: f32 = glyphs.iter().map(|g| scaled.h_advance(*g)).sum::<f32>()
        + glyphs.windows(2).map(|w| scaled.kern(w[0], w[1])).sum::<f32>();
    let baseline = center.y + (scaled.ascent() + scaled.descent()) * 0.5;
    let mut x = center.x - width * 0.5;
    let (w, h) = (pixmap.width() as i32, pixmap.height() as i32);
    let stride = pixmap.width() as usize;
    let pixels = pixmap.pixels_mut();
    for (i, id) in glyphs.iter().enumerate() {
        if i > 0 {
            x += scaled.kern(glyphs[i - 1], *id);
        }
        let glyph = id.with_scale_and_position(size, point(x, baseline));
        x += scaled.h_advance(*id);
        let Some(outline) = font.outline_glyph(glyph) else {
            continue;
        };
        let bounds = outline.px_bounds();
        outline.draw(|gx, gy, coverage| {
            let px = bounds.min.x as i32 + gx as i32;
            let py = bounds.min.y as i32 + gy as i32;
            if coverage > 0.0 && (0..w).contains(&px) && (0..h).contains(&py) {
                let p = &mut pixels[py as usize * stride + px as usize];
                *p = blend(*p, color, coverage);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_inked_around_the_centre() {
        let mut pixmap = Pixmap::new(40, 20).unwrap();
        draw_text(&mut pixmap, "42", Vec2::new(20.0, 10.0), 12.0, Color::rgb(0, 0, 0));
        let inked: Vec<(usize, usize)> = pixmap
            .pixels()
            .iter()
            .enumerate()
            .filter(|(_, p)| p.alpha() > 128)
            .map(|(i, _)| (i % 40, i / 40))
            .collect();
        assert!(inked.len() > 10, "{} pixels inked", inked.len());
        let (sx, sy) = inked.iter().fold((0, 0), |(x, y), p| (x + p.0, y + p.1));
        let (cx, cy) = (sx as f32 / inked.len() as f32, sy as f32 / inked.len() as f32);
        assert!(
            (cx - 20.0).abs() < 2.5 && (cy - 10.0).abs() < 2.5,
            "centroid ({cx}, {cy})"
        );
    }

    #[test]
    fn blending_over_opaque_and_transparent() {
        let white = PremultipliedColorU8::from_rgba(255, 255, 255, 255).unwrap();
        let out = blend(white, Color::rgb(0, 0, 0), 1.0);
        assert_eq!((out.red(), out.alpha()), (0, 255));
        let clear = PremultipliedColorU8::from_rgba(0, 0, 0, 0).unwrap();
        let half = blend(clear, Color::rgb(255, 0, 0), 0.5);
        assert_eq!((half.red(), half.alpha()), (128, 128));
    }
}
