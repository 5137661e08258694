//! The bottom panel, like rerun's time panel: transport buttons (jump to start, tick back,
//! play/pause, tick forward, jump to end, loop), a slider scrubbing the recorded ticks with the
//! time read-out, and a strip of event markers (arrivals, collisions, state changes) that jumps
//! to the clicked event.

use eframe::egui;
use egui::{Button, Color32, Pos2, Sense, Slider, Stroke, Ui};

use super::analysis::{EventKind, TimelineEvent};
use super::command::Command;
use super::playback::Playback;

/// Height of the event strip in pixels.
const STRIP_HEIGHT: f32 = 18.0;
/// How close (pixels) a click must be to a marker to jump to it.
const PICK_PIXELS: f32 = 5.0;

/// Draws the timeline for `playback`; returns what the user asked for.
pub fn show(ui: &mut Ui, playback: &Playback) -> Vec<Command> {
    let mut commands = Vec::new();
    let range = playback.tick_range();
    let (first, last) = range.unwrap_or((0, 0));
    ui.horizontal(|ui| {
        let cursor = playback.cursor();
        let mut button = |ui: &mut Ui, text: &str, tip: &str, enabled: bool, command: Command| {
            if ui.add_enabled(enabled, Button::new(text)).on_hover_text(tip).clicked() {
                commands.push(command);
            }
        };
        let recorded = range.is_some();
        button(
            ui,
            "|<",
            "Jump to the first tick (Home)",
            recorded && cursor > first,
            Command::Seek(first),
        );
        button(
            ui,
            "<",
            "One tick back (Left arrow)",
            recorded && cursor > first,
            Command::StepBack,
        );
        if playback.is_playing() {
            button(ui, "Hold", "Pause the replay (Space)", true, Command::Pause);
        } else {
            let can = playback.can_advance() || playback.is_looping() && recorded;
            button(ui, "Play", "Play from the cursor (Space)", can, Command::Run);
        }
        button(
            ui,
            ">",
            "One tick forward (Right arrow)",
            playback.can_advance(),
            Command::Step,
        );
        button(
            ui,
            ">|",
            "Jump to the newest tick (End)",
            recorded && cursor < last,
            Command::Seek(last),
        );
        let mut looping = playback.is_looping();
        if ui.checkbox(&mut looping, "loop").changed() {
            commands.push(Command::SetLooping(looping));
        }
        ui.separator();

        let mut tick = cursor;
        ui.spacing_mut().slider_width = (ui.available_width() - 190.0).max(100.0);
        let slider = Slider::new(&mut tick, first..=last).text("tick").integer();
        if ui.add_enabled(recorded, slider).changed() && tick != cursor {
            commands.push(Command::Seek(tick));
        }
        let read_out = match range {
            Some(_) => format!(
                "{:.2} s of {:.2} s",
                playback.cursor_time(),
                last as f32 * playback.header().dt
            ),
            None => "nothing recorded yet".to_string(),
        };
        ui.label(read_out);
    });
    if let Some(command) = event_strip(ui, playback, first, last) {
        commands.push(command);
    }
    commands
}

/// The marker colour of an event kind.
pub fn event_color(kind: EventKind) -> Color32 {
    match kind {
        EventKind::Arrived => Color32::from_rgb(60, 160, 70),
        EventKind::Collision => Color32::from_rgb(220, 40, 40),
        EventKind::StateChange(_) => Color32::from_rgb(120, 90, 200),
    }
}

/// A short description of an event for the marker's tooltip.
fn describe(event: &TimelineEvent, playback: &Playback) -> String {
    let what = match event.kind {
        EventKind::Arrived => "arrived".to_string(),
        EventKind::Collision => "collision began".to_string(),
        EventKind::StateChange(s) => format!("became {}", playback.header().state(s)),
    };
    format!("tick {}: agent {} {what}", event.tick, event.agent)
}

/// The strip of event markers under the slider; a click jumps to the nearest marker (or to the
/// clicked tick when no marker is near).
fn event_strip(ui: &mut Ui, playback: &Playback, first: u64, last: u64) -> Option<Command> {
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
    let row_height = rect.height() / 3.0;
    let mut last_x = [f32::NEG_INFINITY; 3];
    for e in playback.events() {
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
    let cx = x_of(playback.cursor());
    painter.line_segment(
        [Pos2::new(cx, rect.top()), Pos2::new(cx, rect.bottom())],
        Stroke::new(1.5, ui.visuals().strong_text_color()),
    );
    let nearest = |pos: Pos2| {
        playback
            .events()
            .iter()
            .filter(|e| (x_of(e.tick) - pos.x).abs() <= PICK_PIXELS)
            .min_by(|a, b| (x_of(a.tick) - pos.x).abs().total_cmp(&(x_of(b.tick) - pos.x).abs()))
    };
    if let Some(pos) = response.hover_pos()
        && let Some(e) = nearest(pos)
    {
        response.clone().on_hover_text_at_pointer(describe(e, playback));
    }
    if playback.tick_range().is_none() || !response.clicked() {
        return None;
    }
    let pos = response.interact_pointer_pos()?;
    let tick = nearest(pos).map_or_else(|| tick_of(pos.x), |e| e.tick);
    Some(Command::Seek(tick))
}
