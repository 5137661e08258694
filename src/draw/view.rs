//! The one world ↔ screen transform, shared by the canvas, the editor's tools and the PNG
//! renderer (after egui's `RectTransform`: a world rectangle mapped onto a screen rectangle, y
//! flipped), and the one rule for fitting a scene into a viewport, so an exported frame is framed
//! like the canvas.

use glam::Vec2;

use crate::scene::Bounds;

/// Room left around the bounds when a view fits them, as a fraction of their size per side.
pub const FIT_MARGIN: f32 = 0.04;

/// Maps world metres to screen pixels: `center` appears in the middle of the `size` pixel
/// viewport whose top-left corner is at screen position `origin`, at `scale` pixels per metre;
/// screen y grows downward.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// World point at the viewport's centre.
    pub center: Vec2,
    /// Pixels per metre.
    pub scale: f32,
    /// Screen position of the viewport's top-left corner (0 for an image).
    pub origin: Vec2,
    /// Viewport size in pixels.
    pub size: Vec2,
}

impl View {
    /// A view of `size` pixels (origin 0) showing all of `bounds` with [`FIT_MARGIN`] around.
    pub fn fit(bounds: Bounds, size: Vec2) -> View {
        let extent = bounds.size().max(Vec2::splat(1e-3)) * (1.0 + 2.0 * FIT_MARGIN);
        View {
            scale: (size.x / extent.x).min(size.y / extent.y),
            ..View::fill(bounds, size)
        }
    }

    /// A view of `size` pixels (origin 0) in which `rect` just fits, without margin.
    pub fn fill(rect: Bounds, size: Vec2) -> View {
        let extent = rect.size().max(Vec2::splat(1e-3));
        View {
            center: rect.center(),
            scale: (size.x / extent.x).min(size.y / extent.y),
            origin: Vec2::ZERO,
            size,
        }
    }

    /// Screen position (pixels) of world point `p`.
    pub fn to_screen(&self, p: Vec2) -> Vec2 {
        let d = (p - self.center) * self.scale;
        self.origin + Vec2::new(self.size.x * 0.5 + d.x, self.size.y * 0.5 - d.y)
    }

    /// World point under screen position `s`.
    pub fn to_world(&self, s: Vec2) -> Vec2 {
        let s = s - self.origin;
        let d = Vec2::new(s.x - self.size.x * 0.5, self.size.y * 0.5 - s.y) / self.scale;
        self.center + d
    }

    /// The world rectangle the viewport shows.
    pub fn visible(&self) -> Bounds {
        let a = self.to_world(self.origin + Vec2::new(0.0, self.size.y));
        let b = self.to_world(self.origin + Vec2::new(self.size.x, 0.0));
        Bounds { min: a, max: b }
    }

    /// Zooms by `factor` keeping the world point under screen position `anchor` fixed.
    pub fn zoom_at(&mut self, anchor: Vec2, factor: f32) {
        let before = self.to_world(anchor);
        self.scale = (self.scale * factor).clamp(0.05, 5000.0);
        let after = self.to_world(anchor);
        self.center += before - after;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_origin_and_zoom_anchor() {
        let b = Bounds {
            min: Vec2::new(-10.0, -5.0),
            max: Vec2::new(10.0, 5.0),
        };
        let mut v = View::fit(b, Vec2::new(400.0, 200.0));
        assert_eq!(v.to_screen(Vec2::ZERO), Vec2::new(200.0, 100.0));
        let top_right = v.to_screen(Vec2::new(10.0, 5.0));
        assert!(top_right.x > 380.0 && top_right.y < 20.0, "y is flipped: {top_right}");
        assert!(top_right.x < 400.0 && top_right.y > 0.0, "with a margin: {top_right}");
        v.origin = Vec2::new(30.0, 40.0);
        assert_eq!(v.to_screen(Vec2::ZERO), Vec2::new(230.0, 140.0));
        let p = Vec2::new(3.0, -2.0);
        assert!((v.to_world(v.to_screen(p)) - p).length() < 1e-4);
        let seen = v.visible();
        assert!(seen.min.x < -10.0 && seen.max.y > 5.0, "{seen:?}");
        let anchor = Vec2::new(300.0, 50.0);
        let w = v.to_world(anchor);
        v.zoom_at(anchor, 2.0);
        assert!((v.to_world(anchor) - w).length() < 1e-4);
    }

    #[test]
    fn fill_fits_the_rectangle_exactly() {
        let r = Bounds {
            min: Vec2::new(0.0, 0.0),
            max: Vec2::new(20.0, 10.0),
        };
        let v = View::fill(r, Vec2::new(400.0, 400.0));
        assert_eq!(v.scale, 20.0);
        assert_eq!(v.to_screen(Vec2::new(0.0, 5.0)), Vec2::new(0.0, 200.0));
    }
}
