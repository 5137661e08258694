//! The canvas grid: lines every round number of metres (1, 2 or 5 × 10^k, at least
//! [`MIN_STEP_PIXELS`] apart), stronger every fifth line, which carries a metre label. The
//! editor snaps to the same step.

use eframe::egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Stroke};
use glam::Vec2;

use crate::draw::View;
use crate::scene::Bounds;

/// Closest spacing of grid lines on screen, pixels.
pub const MIN_STEP_PIXELS: f32 = 16.0;

/// The grid step in metres at `scale` pixels per metre.
pub fn step(scale: f32) -> f32 {
    round_up_1_2_5(f64::from(MIN_STEP_PIXELS / scale)) as f32
}

/// The smallest round number (1, 2 or 5 × 10^k) at least `x` (> 0): the spacing of grid lines
/// and ruler marks.
pub fn round_up_1_2_5(x: f64) -> f64 {
    let decade = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|&s| s >= x)
        .unwrap_or(10.0 * decade)
}

/// Paints the grid of `view` into `rect` (the canvas the view covers).
pub fn paint(painter: &Painter, rect: Rect, view: &View, color: Color32) {
    let step = step(view.scale);
    let Bounds { min: lo, max: hi } = view.visible();
    let minor = Stroke::new(1.0, color.gamma_multiply(0.25));
    let major = Stroke::new(1.0, color.gamma_multiply(0.6));
    let font = FontId::proportional(10.0);
    let label_color = color.gamma_multiply(1.5);
    let to_screen = |p: Vec2| view.to_screen(p);
    let text = |k: i64| format_metres(k as f32 * step);
    for k in (lo.x / step).ceil() as i64..=(hi.x / step).floor() as i64 {
        let x = to_screen(Vec2::new(k as f32 * step, 0.0)).x;
        let is_major = k % 5 == 0;
        painter.line_segment(
            [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
            if is_major { major } else { minor },
        );
        if is_major {
            painter.text(
                Pos2::new(x + 2.0, rect.top() + 24.0),
                Align2::LEFT_TOP,
                text(k),
                font.clone(),
                label_color,
            );
        }
    }
    for k in (lo.y / step).ceil() as i64..=(hi.y / step).floor() as i64 {
        let y = to_screen(Vec2::new(0.0, k as f32 * step)).y;
        let is_major = k % 5 == 0;
        painter.line_segment(
            [Pos2::new(rect.left(), y), Pos2::new(rect.right(), y)],
            if is_major { major } else { minor },
        );
        if is_major {
            painter.text(
                Pos2::new(rect.left() + 2.0, y - 1.0),
                Align2::LEFT_BOTTOM,
                text(k),
                font.clone(),
                label_color,
            );
        }
    }
}

/// A grid coordinate in metres with no more decimals than the step needs.
fn format_metres(metres: f32) -> String {
    let s = format!("{metres:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{} m", if s == "-0" { "0" } else { s })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_is_round_and_wide_enough() {
        assert_eq!(step(16.0), 1.0);
        assert_eq!(step(20.0), 1.0);
        assert_eq!(step(10.0), 2.0);
        assert_eq!(step(100.0), 0.2);
        assert_eq!(format_metres(2.5), "2.5 m");
        assert_eq!(format_metres(-10.0), "-10 m");
    }
}
