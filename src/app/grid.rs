//! The canvas grid: lines every round number of metres (1, 2 or 5 × 10^k, at least
//! [`MIN_STEP_PIXELS`] apart), stronger every fifth line, which carries a metre label. The
//! editor snaps to the same step. The lines are painted by egui or added to a draw list (when
//! the canvas is drawn as a picture); the labels are painted by egui over the canvas.

use eframe::egui::{Align2, FontId, Painter, Pos2, Rect, Stroke};
use glam::Vec2;

use super::paint::color32;
use crate::draw::{Color, DrawList, Shape, Stroke as DrawStroke, View};
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

/// One line of the grid: `k` steps from 0 along x (a vertical line) or along y.
struct Line {
    vertical: bool,
    k: i64,
}

impl Line {
    /// Every fifth line is stronger and carries a label.
    fn is_major(&self) -> bool {
        self.k % 5 == 0
    }
}

/// The grid's lines that `view` shows, vertical ones first, and their step in metres.
fn lines(view: &View) -> (f32, impl Iterator<Item = Line>) {
    let step = step(view.scale);
    let Bounds { min: lo, max: hi } = view.visible();
    let range = |lo: f32, hi: f32| (lo / step).ceil() as i64..=(hi / step).floor() as i64;
    let vertical = range(lo.x, hi.x).map(|k| Line { vertical: true, k });
    let horizontal = range(lo.y, hi.y).map(|k| Line { vertical: false, k });
    (step, vertical.chain(horizontal))
}

/// The colour of a minor and of a major line of a grid drawn in `color`.
fn line_colors(color: Color) -> [Color; 2] {
    let alpha = |share: f32| (f32::from(color.0[3]) * share).round() as u8;
    [color.with_alpha(alpha(0.25)), color.with_alpha(alpha(0.6))]
}

/// Paints the lines of the grid of `view` in `color` into `rect` (the canvas the view covers).
pub fn paint_lines(painter: &Painter, rect: Rect, view: &View, color: Color) {
    let (step, lines) = lines(view);
    let strokes = line_colors(color).map(|c| Stroke::new(1.0, color32(c)));
    for line in lines {
        let at = view.to_screen(Vec2::splat(line.k as f32 * step));
        let ends = if line.vertical {
            [Pos2::new(at.x, rect.top()), Pos2::new(at.x, rect.bottom())]
        } else {
            [Pos2::new(rect.left(), at.y), Pos2::new(rect.right(), at.y)]
        };
        painter.line_segment(ends, strokes[usize::from(line.is_major())]);
    }
}

/// Paints the metre labels of the grid of `view` in `color` into `rect`, without its lines.
pub fn paint_labels(painter: &Painter, rect: Rect, view: &View, color: Color) {
    let (step, lines) = lines(view);
    let font = FontId::proportional(10.0);
    let label_color = color32(color).gamma_multiply(1.5);
    for line in lines.filter(Line::is_major) {
        let at = view.to_screen(Vec2::splat(line.k as f32 * step));
        let text = format_metres(line.k as f32 * step);
        let (position, anchor) = if line.vertical {
            (Pos2::new(at.x + 2.0, rect.top() + 24.0), Align2::LEFT_TOP)
        } else {
            (Pos2::new(rect.left() + 2.0, at.y - 1.0), Align2::LEFT_BOTTOM)
        };
        painter.text(position, anchor, text, font.clone(), label_color);
    }
}

/// Appends the lines of the grid of `view` in `color` to `list`, in world coordinates, one
/// pixel wide and reaching past the edges of the view (a list is drawn clipped to its canvas).
pub fn push_lines(list: &mut DrawList, view: &View, color: Color) {
    let (step, lines) = lines(view);
    let colors = line_colors(color);
    let Bounds { min: lo, max: hi } = view.visible();
    let margin = 2.0 / view.scale;
    for line in lines {
        let at = line.k as f32 * step;
        let (from, to) = if line.vertical {
            (Vec2::new(at, lo.y - margin), Vec2::new(at, hi.y + margin))
        } else {
            (Vec2::new(lo.x - margin, at), Vec2::new(hi.x + margin, at))
        };
        let stroke = DrawStroke {
            width: 1.0,
            color: colors[usize::from(line.is_major())],
        };
        list.push(Shape::Segment { from, to, stroke });
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

    #[test]
    fn the_lines_added_to_a_draw_list_lie_where_egui_paints_them_and_span_the_view() {
        let bounds = Bounds {
            min: Vec2::new(-3.0, -2.0),
            max: Vec2::new(17.0, 9.0),
        };
        let view = View::fit(bounds, Vec2::new(400.0, 250.0));
        let color = Color([20, 30, 40, 128]);
        let mut list = DrawList::default();
        push_lines(&mut list, &view, color);
        let (step, lines) = lines(&view);
        let lines: Vec<Line> = lines.collect();
        assert_eq!(list.shapes.len(), lines.len());
        let visible = view.visible();
        for (shape, line) in list.shapes.iter().zip(&lines) {
            let Shape::Segment { from, to, stroke } = shape else {
                panic!("{shape:?}");
            };
            let at = line.k as f32 * step;
            let (from_screen, to_screen) = (view.to_screen(*from), view.to_screen(*to));
            let on_screen = view.to_screen(Vec2::splat(at));
            if line.vertical {
                assert_eq!((from.x, to.x), (at, at));
                assert!((from_screen.x - on_screen.x).abs() < 1e-3);
                assert!(from.y < visible.min.y && to.y > visible.max.y, "{from} {to}");
            } else {
                assert_eq!((from.y, to.y), (at, at));
                assert!((to_screen.y - on_screen.y).abs() < 1e-3);
                assert!(from.x < visible.min.x && to.x > visible.max.x, "{from} {to}");
            }
            let alpha = if line.k % 5 == 0 { 77 } else { 32 };
            assert_eq!(stroke.color, color.with_alpha(alpha), "line {}", line.k);
            assert_eq!(stroke.width, 1.0);
        }
        assert!(lines.iter().any(|l| l.vertical && l.k % 5 == 0) && lines.iter().any(|l| !l.vertical));
    }
}
