//! The timeline under the time slider, after rerun's time panel: a ruler in seconds over the
//! visible window of the run, the crowd's event rows (contacts, arrivals, state changes) and the
//! selected agent's row (its mind states over time, its contacts and arrival), with the cursor
//! and the loop range drawn across them. The timeline and the slider share one horizontal track,
//! so a marker stands exactly under the slider's handle at its tick.
//!
//! Using it:
//! - click or drag on the rows to move the cursor (a click near a marker jumps to it);
//! - drag on the ruler to select a loop / export range;
//! - scroll (or Ctrl+scroll, or pinch) to zoom about the pointer, Shift+scroll or drag with the
//!   right or middle button to pan, double-click to show the whole run again.
//!
//! The zoomed window ([`TimeWindow`]) is view state kept by the app; everything that moves the
//! cursor or the loop is returned as a [`TimeCommand`].

mod agent_row;
mod events;
mod ruler;
mod window;

use eframe::egui::{
    Align, Align2, Button, Color32, FontId, Layout, PointerButton, Pos2, Rect, Role, Sense, Stroke, TextStyle, Ui,
    UiBuilder, WidgetInfo, vec2,
};

pub use events::event_color;
pub use window::TimeWindow;

use super::command::{Loop, TimeCommand};
use super::control::TimeControl;
use super::source::Frames;
use crate::app::analysis::TimelineEvent;
use crate::app::plots::AgentSeries;
use window::Mapping;

/// Width of the row names left of the track (pixels).
pub const NAME_WIDTH: f32 = 64.0;
/// Width kept right of the track for the slider's read-out (pixels).
pub const SIDE_WIDTH: f32 = 190.0;
/// Height of the ruler.
const RULER_HEIGHT: f32 = 18.0;
/// Height of each crowd event row.
const EVENT_ROW_HEIGHT: f32 = 8.0;
/// Height of the selected agent's row.
const AGENT_ROW_HEIGHT: f32 = 14.0;
/// Scroll (points) that zooms by a factor of e.
const SCROLL_PER_E: f32 = 200.0;

/// The accessible label of the timeline.
pub const LABEL: &str = "timeline";

/// What the timeline remembers between frames: its zoomed window and a range being dragged.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timeline {
    /// The visible stretch of the run.
    pub window: TimeWindow,
    /// The tick a range selection on the ruler started at, while dragging.
    selecting_from: Option<u64>,
}

/// The width of the track (pixels) in a row of `ui`: what is left after the names and the
/// read-out column.
pub fn track_width(ui: &Ui) -> f32 {
    (ui.available_width() - NAME_WIDTH - SIDE_WIDTH - 2.0 * ui.spacing().item_spacing.x).max(80.0)
}

/// How far in from each end of the track tick positions start: egui's slider keeps its handle
/// centre one handle radius (the rail's thickness / 2.5) from the ends, and the timeline does the
/// same so both put a tick at the same x.
pub fn handle_inset(ui: &Ui) -> f32 {
    ui.text_style_height(&TextStyle::Body).max(ui.spacing().interact_size.y) / 2.5
}

/// Paints a row name at `left`, level with `row`.
fn paint_name(ui: &Ui, left: f32, row: Rect, name: &str, color: Color32) {
    ui.painter().text(
        Pos2::new(left, row.center().y),
        Align2::LEFT_CENTER,
        name,
        FontId::proportional(10.0),
        color,
    );
}

/// Where the parts of the timeline are on screen.
struct Places {
    map: Mapping,
    ruler: Rect,
    rows: Vec<Rect>,
    agent: Rect,
}

impl Timeline {
    /// The first and last tick the slider shows for a run over `first..=last` (the window).
    pub fn slider_range(&self, first: u64, last: u64) -> (u64, u64) {
        let (start, end) = self.window.visible(first, last);
        (start.ceil() as u64, (end.floor() as u64).clamp(first, last.max(first)))
    }

    /// Draws the timeline for the cursor `time` over `frames` with `agent`'s row when an agent
    /// is selected, `track` pixels wide; returns what the user asked of the cursor and loop.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        time: &TimeControl,
        frames: &Frames,
        agent: Option<&AgentSeries>,
        track: f32,
    ) -> Vec<TimeCommand> {
        let range = frames.tick_range();
        let (first, last) = range.unwrap_or((0, 0));
        if time.is_playing() {
            self.window.keep_in_view(time.tick(), first, last);
        }
        // The agent's row is always there (empty without a selection), so selecting an agent
        // never moves the canvas.
        let height = RULER_HEIGHT + 3.0 * EVENT_ROW_HEIGHT + AGENT_ROW_HEIGHT + 2.0;
        let (rect, response) = ui.allocate_exact_size(vec2(ui.available_width(), height), Sense::click_and_drag());
        response.widget_info(|| WidgetInfo::labeled(Role::Canvas, range.is_some(), LABEL));
        let track_left = rect.left() + NAME_WIDTH + ui.spacing().item_spacing.x;
        let track_rect = Rect::from_x_y_ranges(track_left..=track_left + track, rect.y_range());
        let inset = handle_inset(ui);
        let (start, end) = self.window.visible(first, last);
        let map = Mapping {
            left: track_left + inset,
            width: track - 2.0 * inset,
            start,
            end,
        };
        let ruler = Rect::from_x_y_ranges(track_rect.x_range(), rect.top()..=rect.top() + RULER_HEIGHT);
        let row = |i: usize| {
            let top = ruler.bottom() + i as f32 * EVENT_ROW_HEIGHT;
            Rect::from_x_y_ranges(track_rect.x_range(), top..=top + EVENT_ROW_HEIGHT)
        };
        let rows: Vec<Rect> = (0..events::ROWS.len()).map(row).collect();
        let agent_rect = Rect::from_x_y_ranges(
            track_rect.x_range(),
            row(2).bottom() + 2.0..=row(2).bottom() + 2.0 + AGENT_ROW_HEIGHT,
        );

        let visuals = ui.visuals().clone();
        let painter = ui.painter_at(rect);
        painter.rect_filled(track_rect, 2.0, visuals.extreme_bg_color);
        let name_color = visuals.weak_text_color();
        paint_name(
            ui,
            rect.left(),
            ruler,
            if self.window.is_zoomed() {
                "time (zoomed)"
            } else {
                "time"
            },
            name_color,
        );
        for ((name, kind), r) in events::ROWS.iter().zip(&rows) {
            paint_name(ui, rect.left(), *r, name, event_color(*kind));
        }
        let header = frames.header();
        let track_painter = ui.painter_at(track_rect);
        let band = |from: u64, to: u64, color: Color32| {
            let x = map.x_of(from as f64)..=map.x_of(to as f64).max(map.x_of(from as f64) + 1.0);
            track_painter.rect_filled(Rect::from_x_y_ranges(x, track_rect.y_range()), 0.0, color);
        };
        if let Some((from, to)) = time.loop_bounds(frames) {
            band(from, to.min(last), visuals.selection.bg_fill.gamma_multiply(0.35));
        }
        if range.is_some() {
            ruler::paint(&track_painter, ruler, &map, header.dt, &visuals);
        } else {
            let hint = "the run's events appear here as it is simulated";
            let font = FontId::proportional(10.0);
            track_painter.text(track_rect.center(), Align2::CENTER_CENTER, hint, font, name_color);
        }
        events::paint(&track_painter, &rows, frames.events(), &map);
        if let Some(series) = agent {
            paint_name(
                ui,
                rect.left(),
                agent_rect,
                &format!("agent {}", series.agent),
                visuals.text_color(),
            );
            agent_row::paint(&track_painter, agent_rect, header, series, frames.events(), &map);
        } else {
            paint_name(ui, rect.left(), agent_rect, "agent", name_color);
        }
        let side = Rect::from_x_y_ranges(
            track_rect.right() + ui.spacing().item_spacing.x..=rect.right(),
            ruler.y_range(),
        );
        self.zoom_buttons(ui, side, range);

        let commands = self.interact(ui, &response, &map, ruler, range, frames.events());
        if let (Some(from), Some(pos)) = (self.selecting_from, response.interact_pointer_pos()) {
            let to = map.tick_at(pos.x).round().clamp(first as f64, last as f64) as u64;
            band(
                from.min(to),
                from.max(to),
                visuals.selection.bg_fill.gamma_multiply(0.6),
            );
        }
        if range.is_some() {
            let x = map.x_of(time.tick() as f64);
            let color = visuals.strong_text_color();
            track_painter.line_segment(
                [Pos2::new(x, track_rect.top()), Pos2::new(x, track_rect.bottom())],
                Stroke::new(1.5, color),
            );
            let tip = ruler.bottom();
            track_painter.add(eframe::egui::Shape::convex_polygon(
                vec![
                    Pos2::new(x - 5.0, tip - 7.0),
                    Pos2::new(x + 5.0, tip - 7.0),
                    Pos2::new(x, tip),
                ],
                color,
                Stroke::NONE,
            ));
        }
        if let Some(pos) = response.hover_pos() {
            let places = Places {
                map,
                ruler,
                rows,
                agent: agent_rect,
            };
            let text = self.hover_text(pos, &places, frames, agent);
            response.on_hover_text_at_pointer(text);
        }
        commands
    }

    /// Zoom, pan, range selection and seeking from the pointer over the timeline.
    fn interact(
        &mut self,
        ui: &Ui,
        response: &eframe::egui::Response,
        map: &Mapping,
        ruler: Rect,
        range: Option<(u64, u64)>,
        events: &[TimelineEvent],
    ) -> Vec<TimeCommand> {
        let Some((first, last)) = range else {
            self.selecting_from = None;
            return Vec::new();
        };
        let tick_at = |x: f32| map.tick_at(x).round().clamp(first as f64, last as f64) as u64;
        let mut commands = Vec::new();
        if response.double_clicked() {
            self.window.fit();
        }
        if response.dragged_by(PointerButton::Secondary) || response.dragged_by(PointerButton::Middle) {
            let ticks = -f64::from(response.drag_delta().x) * map.ticks_per_pixel();
            self.window.pan(ticks, first, last);
        }
        if let Some(pos) = response.hover_pos() {
            let (scroll, zoom) = ui.input(|i| (i.smooth_scroll_delta(), i.zoom_delta()));
            let about = map.tick_at(pos.x);
            let factor = zoom * (scroll.y / SCROLL_PER_E).exp();
            if factor != 1.0 {
                self.window.zoom(f64::from(factor), about, first, last);
            }
            if scroll.x != 0.0 {
                self.window
                    .pan(-f64::from(scroll.x) * map.ticks_per_pixel(), first, last);
            }
        }
        let origin = ui.input(|i| i.pointer.press_origin());
        let on_ruler = origin.is_some_and(|p| p.y <= ruler.bottom());
        if response.drag_started_by(PointerButton::Primary) && on_ruler {
            self.selecting_from = origin.map(|p| tick_at(p.x));
        }
        if let Some(from) = self.selecting_from {
            if response.drag_stopped() {
                self.selecting_from = None;
                if let Some(pos) = response.interact_pointer_pos() {
                    let to = tick_at(pos.x);
                    if to != from {
                        let (start, end) = (from.min(to), from.max(to));
                        commands.push(TimeCommand::SetLoop(Loop::Range { start, end }));
                    }
                }
            }
            return commands;
        }
        let primary = ui.input(|i| i.pointer.primary_down());
        let pressed = (primary && response.is_pointer_button_down_on()) || response.clicked();
        if let Some(pos) = response.interact_pointer_pos().filter(|_| pressed) {
            // A click near a marker jumps to its tick; pressing and dragging scrubs.
            let marker = response
                .clicked()
                .then(|| events::nearest(events, map, pos.x))
                .flatten();
            commands.push(TimeCommand::SeekTo(marker.map_or_else(|| tick_at(pos.x), |e| e.tick)));
        }
        commands
    }

    /// What the pointer at `pos` is over: the time on the ruler, the nearest marker or row name
    /// on the event rows, the agent's state on its row.
    fn hover_text(&self, pos: Pos2, places: &Places, frames: &Frames, agent: Option<&AgentSeries>) -> String {
        let Places {
            map,
            ruler,
            rows,
            agent: agent_rect,
        } = places;
        let header = frames.header();
        let tick = map.tick_at(pos.x).max(0.0);
        let seconds = tick * f64::from(header.dt);
        let at = format!("t {seconds:.2} s (tick {})", tick.round() as u64);
        if pos.y <= ruler.bottom() {
            return format!(
                "{at}\nDrag to select a loop range; scroll to zoom, Shift+scroll or right-drag to pan; \
                 double-click for the whole run"
            );
        }
        if let Some(row) = rows.iter().position(|r| r.y_range().contains(pos.y)) {
            let kind = events::ROWS[row].1;
            let in_row = |e: &&TimelineEvent| events::row_of(e.kind) == events::row_of(kind);
            let near: Vec<TimelineEvent> = frames.events().iter().filter(in_row).copied().collect();
            return match events::nearest(&near, map, pos.x) {
                Some(e) => events::describe(e, header),
                None => format!("{at}: {}", events::ROWS[row].0),
            };
        }
        match agent.filter(|_| agent_rect.y_range().contains(pos.y)) {
            Some(series) => {
                let half_tick = f64::from(header.dt) / 2.0;
                match agent_row::span_at(series, seconds, half_tick) {
                    Some(span) => format!("{at}: agent {} is {}", series.agent, header.state(span.state)),
                    None => format!("{at}: agent {} is not present", series.agent),
                }
            }
            None if agent_rect.y_range().contains(pos.y) => format!("{at}: select an agent to see its row"),
            None => at,
        }
    }

    /// The zoom buttons beside the ruler, in `side`: in and out about the centre of the window,
    /// and back to the whole run (enabled once something is recorded).
    fn zoom_buttons(&mut self, ui: &mut Ui, side: Rect, range: Option<(u64, u64)>) {
        let layout = Layout::left_to_right(Align::Center);
        let mut buttons = ui.new_child(UiBuilder::new().max_rect(side).layout(layout));
        buttons.spacing_mut().button_padding.y = 0.0;
        let enabled = range.is_some();
        let (first, last) = range.unwrap_or((0, 0));
        let (start, end) = self.window.visible(first, last);
        let centre = (start + end) / 2.0;
        let zoom_in = buttons.add_enabled(enabled, Button::new("+").small());
        if zoom_in
            .on_hover_text("Zoom the timeline in (or scroll over it)")
            .clicked()
        {
            self.window.zoom(2.0, centre, first, last);
        }
        let zoom_out = buttons.add_enabled(enabled, Button::new("-").small());
        if zoom_out.on_hover_text("Zoom the timeline out").clicked() {
            self.window.zoom(0.5, centre, first, last);
        }
        let whole = buttons.add_enabled(self.window.is_zoomed(), Button::new("whole run").small());
        if whole
            .on_hover_text("Show the whole run (or double-click the timeline)")
            .clicked()
        {
            self.window.fit();
        }
    }
}
