//! The event strip under the time slider: a marker per event (arrivals, collisions, state
//! changes) in three rows, the loop range and the cursor; a click jumps to the nearest marker.

use eframe::egui;
use egui::{Color32, Pos2, Rect, Sense, Stroke, Ui};

use super::command::TimeCommand;
use super::control::TimeControl;
use super::source::Frames;
use crate::app::analysis::{EventKind, TimelineEvent};

/// Height of the event strip in pixels.
const STRIP_HEIGHT: f32 = 18.0;
/// How close (pixels) a click must be to a marker to jump to it.
const PICK_PIXELS: f32 = 5.0;

/// The marker colour of an event kind.
pub fn event_color(kind: EventKind) -> Color32 {
    match kind {
        EventKind::Arrived => Color32::from_rgb(60, 160, 70),
        EventKind::Collision => Color32::from_rgb(220, 40, 40),
        EventKind::StateChange(_) => Color32::from_rgb(120, 90, 200),
    }
}

/// A short description of an event for the marker's tooltip.
fn describe(event: &TimelineEvent, frames: &Frames) -> String {
    let what = match event.kind {
        EventKind::Arrived => "arrived".to_string(),
        EventKind::Collision => "collision began".to_string(),
        EventKind::StateChange(s) => format!("became {}", frames.header().state(s)),
    };
    format!("tick {}: agent {} {what}", event.tick, event.agent)
}

/// Draws the strip over the recorded ticks `first..=last`; a click asks to jump to the nearest
/// marker (or to the clicked tick when no marker is near).
pub fn show(ui: &mut Ui, time: &TimeControl, frames: &Frames, first: u64, last: u64) -> Option<TimeCommand> {
    let width = ui.available_width();
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, STRIP_HEIGHT), Sense::click());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    let span = (last - first).max(1) as f32;
    let x_of = |tick: u64| rect.left() + (tick.saturating_sub(first)) as f32 / span * rect.width();
    let tick_of = |x: f32| first + (((x - rect.left()) / rect.width()).clamp(0.0, 1.0) * span).round() as u64;
    let rows = |kind: EventKind| match kind {
        EventKind::Collision => 0.0,
        EventKind::Arrived => 1.0,
        EventKind::StateChange(_) => 2.0,
    };
    if let Some((start, end)) = time.loop_bounds(frames) {
        let band = Rect::from_x_y_ranges(x_of(start)..=x_of(end.min(last)), rect.y_range());
        painter.rect_filled(band, 0.0, ui.visuals().selection.bg_fill.gamma_multiply(0.4));
    }
    let row_height = rect.height() / 3.0;
    let mut last_x = [f32::NEG_INFINITY; 3];
    for e in frames.events() {
        let x = x_of(e.tick);
        let row = rows(e.kind);
        // Markers closer than a pixel are drawn once.
        if x - last_x[row as usize] < 1.0 {
            continue;
        }
        last_x[row as usize] = x;
        let top = rect.top() + row * row_height;
        painter.line_segment(
            [Pos2::new(x, top + 1.0), Pos2::new(x, top + row_height - 1.0)],
            Stroke::new(2.0, event_color(e.kind)),
        );
    }
    let cx = x_of(time.tick());
    painter.line_segment(
        [Pos2::new(cx, rect.top()), Pos2::new(cx, rect.bottom())],
        Stroke::new(1.5, ui.visuals().strong_text_color()),
    );
    let nearest = |pos: Pos2| {
        frames
            .events()
            .iter()
            .filter(|e| (x_of(e.tick) - pos.x).abs() <= PICK_PIXELS)
            .min_by(|a, b| (x_of(a.tick) - pos.x).abs().total_cmp(&(x_of(b.tick) - pos.x).abs()))
    };
    if let Some(pos) = response.hover_pos()
        && let Some(e) = nearest(pos)
    {
        response.clone().on_hover_text_at_pointer(describe(e, frames));
    }
    if frames.tick_range().is_none() || !response.clicked() {
        return None;
    }
    let pos = response.interact_pointer_pos()?;
    let tick = nearest(pos).map_or_else(|| tick_of(pos.x), |e| e.tick);
    Some(TimeCommand::SeekTo(tick))
}
