//! The selected agent's row on the timeline: a band over the time it was present, coloured by its
//! mind state (the canvas's "colour by state" colours), with its own contacts and arrival marked.

use eframe::egui::{Color32, CornerRadius, Painter, Pos2, Rect, Stroke};

use super::events::event_color;
use super::window::Mapping;
use crate::app::analysis::{EventKind, TimelineEvent};
use crate::app::paint::color32;
use crate::app::plots::{AgentSeries, StateSpan};
use crate::draw::force_color;
use crate::record::RecordingHeader;

/// The colour of mind state `state` (as on the canvas when colouring by state).
pub fn state_color(header: &RecordingHeader, state: u16) -> Color32 {
    color32(force_color(header.state(state)))
}

/// Draws `series`' state spans and `events` of that agent into `row`.
pub fn paint(
    painter: &Painter,
    row: Rect,
    header: &RecordingHeader,
    series: &AgentSeries,
    events: &[TimelineEvent],
    map: &Mapping,
) {
    let dt = f64::from(header.dt.max(1e-6));
    let band = row.shrink2(eframe::egui::vec2(0.0, 2.0));
    for span in &series.states {
        let (left, right) = (map.x_of(span.from / dt), map.x_of(span.to / dt));
        if right < row.left() || left > row.right() {
            continue;
        }
        let x = left.max(row.left())..=right.max(left + 1.0).min(row.right());
        let rect = Rect::from_x_y_ranges(x, band.y_range());
        painter.rect_filled(
            rect,
            CornerRadius::same(2),
            state_color(header, span.state).gamma_multiply(0.75),
        );
    }
    let own = |e: &&TimelineEvent| e.agent == series.agent && !matches!(e.kind, EventKind::StateChange(_));
    for e in events.iter().filter(own) {
        let x = map.x_of(e.tick as f64);
        if (row.left()..=row.right()).contains(&x) {
            painter.line_segment(
                [Pos2::new(x, row.top()), Pos2::new(x, row.bottom())],
                Stroke::new(2.5, event_color(e.kind)),
            );
        }
    }
}

/// The state span covering `seconds`, if the agent was present then.
pub fn span_at(series: &AgentSeries, seconds: f64, half_tick: f64) -> Option<&StateSpan> {
    series
        .states
        .iter()
        .find(|s| s.from - half_tick <= seconds && seconds <= s.to + half_tick)
}
