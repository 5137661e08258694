//! The world → screen transform shared by the canvas and the PNG renderer (y flipped).

use glam::Vec2;

use crate::scene::Bounds;

/// Maps world metres to screen pixels: `center` appears in the middle of a `size` pixel
/// viewport at `scale` pixels per metre; screen y grows downward.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// World point at the viewport's centre.
    pub center: Vec2,
    /// Pixels per metre.
    pub scale: f32,
    /// Viewport size in pixels.
    pub size: Vec2,
}

impl View {
    /// A view of `size` pixels showing all of `bounds` with a small margin.
    pub fn fit(bounds: Bounds, size: Vec2) -> View {
        let extent = bounds.size().max(Vec2::splat(1e-3));
        let scale = (size.x / extent.x).min(size.y / extent.y) * 0.95;
        View {
            center: bounds.center(),
            scale,
            size,
        }
    }

    /// Screen position (pixels from the top-left) of world point `p`.
    pub fn to_screen(&self, p: Vec2) -> Vec2 {
        let d = (p - self.center) * self.scale;
        Vec2::new(self.size.x * 0.5 + d.x, self.size.y * 0.5 - d.y)
    }

    /// World point under screen position `s`.
    pub fn to_world(&self, s: Vec2) -> Vec2 {
        let d = Vec2::new(s.x - self.size.x * 0.5, self.size.y * 0.5 - s.y) / self.scale;
        self.center + d
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
    fn round_trip_and_zoom_anchor() {
        let b = Bounds {
            min: Vec2::new(-10.0, -5.0),
            max: Vec2::new(10.0, 5.0),
        };
        let mut v = View::fit(b, Vec2::new(400.0, 200.0));
        assert_eq!(v.to_screen(Vec2::ZERO), Vec2::new(200.0, 100.0));
        let top_right = v.to_screen(Vec2::new(10.0, 5.0));
        assert!(top_right.x > 380.0 && top_right.y < 20.0, "y is flipped: {top_right}");
        let p = Vec2::new(3.0, -2.0);
        assert!((v.to_world(v.to_screen(p)) - p).length() < 1e-4);
        let anchor = Vec2::new(300.0, 50.0);
        let w = v.to_world(anchor);
        v.zoom_at(anchor, 2.0);
        assert!((v.to_world(anchor) - w).length() < 1e-4);
    }
}
