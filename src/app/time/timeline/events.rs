//! The timeline's event markers: one row per kind of event for the whole crowd (contacts,
//! arrivals, mind-state changes), a tick mark per event in the visible window, and the marker
//! nearest the pointer for tooltips and clicks.

use eframe::egui::{Color32, Painter, Pos2, Rect, Stroke};

use super::window::Mapping;
use crate::app::analysis::{EventKind, TimelineEvent};
use crate::record::RecordingHeader;

/// How close (pixels) the pointer must be to a marker to pick it.
pub const PICK_PIXELS: f32 = 5.0;

/// The crowd's event rows, top to bottom, with their names.
pub const ROWS: [(&str, EventKind); 3] = [
    ("contacts", EventKind::Collision),
    ("arrivals", EventKind::Arrived),
    ("states", EventKind::StateChange(0)),
];

/// The marker colour of an event kind.
pub fn event_color(kind: EventKind) -> Color32 {
    match kind {
        EventKind::Arrived => Color32::from_rgb(60, 160, 70),
        EventKind::Collision => Color32::from_rgb(220, 40, 40),
        EventKind::StateChange(_) => Color32::from_rgb(120, 90, 200),
    }
}

/// The row (index into [`ROWS`]) of an event kind.
pub fn row_of(kind: EventKind) -> usize {
    match kind {
        EventKind::Collision => 0,
        EventKind::Arrived => 1,
        EventKind::StateChange(_) => 2,
    }
}

/// A short description of an event for the marker's tooltip.
pub fn describe(event: &TimelineEvent, header: &RecordingHeader) -> String {
    let what = match event.kind {
        EventKind::Arrived => "arrived".to_string(),
        EventKind::Collision => "contact began".to_string(),
        EventKind::StateChange(s) => format!("became {}", header.state(s)),
    };
    format!(
        "t {:.2} s (tick {}): agent {} {what}",
        event.tick as f32 * header.dt,
        event.tick,
        event.agent
    )
}

/// The events (in tick order) that fall inside the window of `map`, give or take a pick distance.
pub fn visible<'a>(events: &'a [TimelineEvent], map: &Mapping) -> &'a [TimelineEvent] {
    let margin = map.ticks_per_pixel() * f64::from(PICK_PIXELS);
    let from = events.partition_point(|e| (e.tick as f64) < map.start - margin);
    let to = events.partition_point(|e| (e.tick as f64) <= map.end + margin);
    &events[from..to.max(from)]
}

/// Draws a marker per event into the row rectangles `rows` (one per [`ROWS`] entry); markers
/// closer than a pixel to the previous one in their row are drawn once.
pub fn paint(painter: &Painter, rows: &[Rect], events: &[TimelineEvent], map: &Mapping) {
    let mut last_x = vec![f32::NEG_INFINITY; rows.len()];
    for e in visible(events, map) {
        let row = row_of(e.kind).min(rows.len() - 1);
        let x = map.x_of(e.tick as f64);
        if x - last_x[row] < 1.0 {
            continue;
        }
        last_x[row] = x;
        let r = rows[row];
        painter.line_segment(
            [Pos2::new(x, r.top() + 1.0), Pos2::new(x, r.bottom() - 1.0)],
            Stroke::new(2.0, event_color(e.kind)),
        );
    }
}

/// The event nearest `x` within [`PICK_PIXELS`] among `events`, if any.
pub fn nearest<'a>(events: &'a [TimelineEvent], map: &Mapping, x: f32) -> Option<&'a TimelineEvent> {
    visible(events, map)
        .iter()
        .map(|e| (e, (map.x_of(e.tick as f64) - x).abs()))
        .filter(|(_, d)| *d <= PICK_PIXELS)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(e, _)| e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(tick: u64, kind: EventKind) -> TimelineEvent {
        TimelineEvent { tick, agent: 7, kind }
    }

    #[test]
    fn only_markers_in_the_window_are_considered_and_the_nearest_is_picked() {
        let events: Vec<_> = [10, 50, 52, 90, 400]
            .into_iter()
            .map(|t| event(t, EventKind::Arrived))
            .collect();
        // Ticks 40..=100 over 600 px: 10 px per tick.
        let map = Mapping {
            left: 0.0,
            width: 600.0,
            start: 40.0,
            end: 100.0,
        };
        let ticks: Vec<u64> = visible(&events, &map).iter().map(|e| e.tick).collect();
        assert_eq!(ticks, vec![50, 52, 90]);
        // x 115 is tick 51.5: tick 52 (5 px away) is nearer than 50 (15 px).
        assert_eq!(nearest(&events, &map, 115.0).map(|e| e.tick), Some(52));
        assert_eq!(nearest(&events, &map, 300.0), None, "nothing within 5 px of tick 70");
    }
}
