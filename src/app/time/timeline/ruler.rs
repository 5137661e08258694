//! The timeline's ruler: run time in seconds over the visible window, with labelled marks at
//! round intervals and unlabelled ones between them.

use eframe::egui::{Align2, FontId, Painter, Pos2, Rect, Stroke, Visuals};

use super::window::{Mapping, ruler_label, ruler_step};

/// Pixels between two labelled marks, at least.
const LABEL_SPACING: f64 = 70.0;
/// Unlabelled marks between two labelled ones.
const MINOR_MARKS: u32 = 5;

/// Draws the ruler into `rect` for the ticks of `map`, one tick being `dt` seconds.
pub fn paint(painter: &Painter, rect: Rect, map: &Mapping, dt: f32, visuals: &Visuals) {
    let dt = f64::from(dt.max(1e-6));
    let pixels_per_second = 1.0 / (map.ticks_per_pixel() * dt);
    let step = ruler_step(pixels_per_second, LABEL_SPACING);
    let minor = step / f64::from(MINOR_MARKS);
    let (from, to) = (map.start * dt, map.end * dt);
    let color = visuals.weak_text_color();
    let font = FontId::proportional(10.0);
    let first = (from / minor).ceil() as i64;
    let last = (to / minor).floor() as i64;
    for n in first..=last {
        let seconds = n as f64 * minor;
        let x = map.x_of(seconds / dt);
        let labelled = n.rem_euclid(i64::from(MINOR_MARKS)) == 0;
        let height = if labelled { 7.0 } else { 3.0 };
        painter.line_segment(
            [Pos2::new(x, rect.bottom() - height), Pos2::new(x, rect.bottom())],
            Stroke::new(1.0, color),
        );
        if labelled {
            painter.text(
                Pos2::new(x + 2.0, rect.top() + 1.0),
                Align2::LEFT_TOP,
                ruler_label(seconds, step),
                font.clone(),
                visuals.text_color(),
            );
        }
    }
    painter.line_segment(
        [rect.left_bottom(), rect.right_bottom()],
        Stroke::new(1.0, visuals.widgets.noninteractive.bg_stroke.color),
    );
}
