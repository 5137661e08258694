//! The time panel at the bottom of the window, after rerun's `time_control_ui.rs`: the whole
//! transport in one row (jump to start, step back, Play/Pause, step, jump to end, loop, speed,
//! Reset) with the read-out of tick, time, step cost and status; then the
//! slider scrubbing the ticks of the timeline's window and, under it on the same track, the
//! timeline. Each control is one small function that draws it and returns the command it raises;
//! only the timeline's zoom (view state) changes, inside the timeline.

use eframe::egui;
use egui::{Align2, Button, ComboBox, DragValue, FontId, Sense, Slider, Ui, vec2};

use super::command::{Loop, Speed, TimeCommand};
use super::control::{PlayState, TimeControl};
use super::source::Frames;
use super::timeline::{self, Timeline};
use crate::app::command::Command;
use crate::app::plots::AgentSeries;

/// Draws the time panel for the cursor `time` over `frames`, with the timeline (and `agent`'s
/// row when an agent is selected); returns what the user asked for.
pub fn show(
    ui: &mut Ui,
    time: &TimeControl,
    frames: &Frames,
    line: &mut Timeline,
    agent: Option<&AgentSeries>,
) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.horizontal_wrapped(|ui| {
        commands.extend(jump_to_start_button_ui(ui, time, frames));
        commands.extend(step_back_button_ui(ui, time, frames));
        commands.extend(play_button_ui(ui, time, frames));
        commands.extend(step_forward_button_ui(ui, time, frames));
        commands.extend(jump_to_end_button_ui(ui, time, frames));
        ui.separator();
        commands.extend(loop_ui(ui, time, frames));
        commands.extend(speed_ui(ui, time));
        ui.separator();
        commands.extend(reset_button_ui(ui, frames));
        ui.separator();
        readout_ui(ui, time, frames);
    });
    let track = timeline::track_width(ui);
    ui.horizontal(|ui| commands.extend(slider_ui(ui, time, frames, line, track)));
    commands.extend(line.show(ui, time, frames, agent, track).into_iter().map(Command::Time));
    ui.add_space(4.0);
    commands
}

/// A transport button; true when clicked.
fn button(ui: &mut Ui, text: &str, tip: &str, enabled: bool) -> bool {
    ui.add_enabled(enabled, Button::new(text)).on_hover_text(tip).clicked()
}

/// `|<`: jump to the first recorded tick.
fn jump_to_start_button_ui(ui: &mut Ui, time: &TimeControl, frames: &Frames) -> Option<Command> {
    let enabled = time.can_step_back(frames);
    button(ui, "|<", "Jump to the first tick (Home)", enabled).then_some(Command::Time(TimeCommand::JumpToStart))
}

/// `Step back`: one recorded tick back.
fn step_back_button_ui(ui: &mut Ui, time: &TimeControl, frames: &Frames) -> Option<Command> {
    let enabled = time.can_step_back(frames);
    button(ui, "Step back", "One recorded tick back (Left arrow)", enabled)
        .then_some(Command::Time(TimeCommand::StepBack))
}

/// `Play` / `Pause`: the one play toggle.
fn play_button_ui(ui: &mut Ui, time: &TimeControl, frames: &Frames) -> Option<Command> {
    let clicked = if time.is_playing() {
        button(ui, "Pause", "Stop playing (Space)", true)
    } else {
        let tip = if frames.is_live() {
            "Play from the cursor: replay the recorded ticks, then simulate new ones (Space)"
        } else {
            "Replay from the cursor (Space)"
        };
        button(ui, "Play", tip, time.can_play(frames))
    };
    clicked.then_some(Command::Time(TimeCommand::TogglePlay))
}

/// `Step`: one tick forward, simulated at the newest tick of a live run.
fn step_forward_button_ui(ui: &mut Ui, time: &TimeControl, frames: &Frames) -> Option<Command> {
    let tip = "One tick forward, simulated when at the newest tick (Right arrow)";
    button(ui, "Step", tip, time.can_step_forward(frames)).then_some(Command::Time(TimeCommand::StepForward))
}

/// `>|`: jump to the newest tick (and follow it while playing).
fn jump_to_end_button_ui(ui: &mut Ui, time: &TimeControl, frames: &Frames) -> Option<Command> {
    let enabled = frames.tick_range().is_some_and(|(_, newest)| time.tick() < newest);
    let tip = "Jump to the newest tick; while playing, follow the simulation (End)";
    button(ui, ">|", tip, enabled).then_some(Command::Time(TimeCommand::JumpToEnd))
}

/// `loop` switch and, while looping, the loop range (the whole run until a range is chosen).
fn loop_ui(ui: &mut Ui, time: &TimeControl, frames: &Frames) -> Option<Command> {
    let looping = time.looping();
    let mut on = looping.is_on();
    let tip = "At the end, play again from the start (of the loop range)";
    if ui.checkbox(&mut on, "loop").on_hover_text(tip).changed() {
        let looping = if on { Loop::All } else { Loop::Off };
        return Some(Command::Time(TimeCommand::SetLoop(looping)));
    }
    let (first, newest) = frames.tick_range().filter(|_| on)?;
    let (mut start, mut end) = match looping {
        Loop::Range { start, end } => (start, end),
        _ => (first, newest),
    };
    let from = ui.add(DragValue::new(&mut start).range(first..=newest).prefix("from "));
    let to = ui.add(DragValue::new(&mut end).range(first..=newest).prefix("to "));
    if from.changed() || to.changed() {
        return Some(Command::Time(TimeCommand::SetLoop(Loop::Range { start, end })));
    }
    let whole = matches!(looping, Loop::Range { .. }) && ui.button("whole run").clicked();
    whole.then_some(Command::Time(TimeCommand::SetLoop(Loop::All)))
}

/// The speed menu.
fn speed_ui(ui: &mut Ui, time: &TimeControl) -> Option<Command> {
    let mut speed = time.speed();
    ComboBox::from_label("speed")
        .selected_text(speed.name())
        .show_ui(ui, |ui| {
            for s in Speed::ALL {
                ui.selectable_value(&mut speed, s, s.name());
            }
        });
    (speed != time.speed()).then_some(Command::Time(TimeCommand::SetSpeed(speed)))
}

/// `Reset`: discard the live run (the app asks first) and go back to the start points.
fn reset_button_ui(ui: &mut Ui, frames: &Frames) -> Option<Command> {
    let enabled = frames.is_live() && frames.tick_range().is_some();
    let tip = "Discard the run and go back to the start points";
    button(ui, "Reset", tip, enabled).then_some(Command::Reset)
}

/// The tick and time under the cursor, the cost of a simulated tick and what the cursor does.
fn readout_ui(ui: &mut Ui, time: &TimeControl, frames: &Frames) {
    ui.monospace(format!("tick {}", time.tick()));
    ui.monospace(format!("t {:.2} s", time.tick() as f32 * frames.header().dt));
    if let Some(ms) = frames.step_ms() {
        ui.monospace(format!("{ms:.2} ms/tick"));
    }
    ui.label(status(time, frames));
}

/// A word on what the cursor is doing, with the real rate when the simulation sets the pace.
fn status(time: &TimeControl, frames: &Frames) -> String {
    match time.state() {
        PlayState::Following => match time.measured_speed() {
            Some(rate) if time.is_simulation_bound() => format!("running {rate:.1}× — simulation-bound"),
            Some(rate) if time.speed() == Speed::Fastest => format!("running {rate:.1}×"),
            _ => "running".into(),
        },
        PlayState::Playing => "replaying".into(),
        PlayState::Paused if frames.tick_range().is_none() => "not started".into(),
        PlayState::Paused if time.at_end(frames) && frames.is_live() => "finished".into(),
        PlayState::Paused if time.at_end(frames) => "end of recording".into(),
        PlayState::Paused => "paused".into(),
    }
}

/// The slider scrubbing the ticks of the timeline's window, `track` pixels wide after the name
/// column, with the time of the cursor and of the newest tick.
fn slider_ui(ui: &mut Ui, time: &TimeControl, frames: &Frames, line: &Timeline, track: f32) -> Option<Command> {
    let range = frames.tick_range();
    let (first, last) = range.map_or((0, 0), |(first, last)| line.slider_range(first, last));
    let mut tick = time.tick();
    let (name, _) = ui.allocate_exact_size(vec2(timeline::NAME_WIDTH, ui.spacing().interact_size.y), Sense::hover());
    let color = ui.visuals().weak_text_color();
    ui.painter().text(
        name.left_center(),
        Align2::LEFT_CENTER,
        "cursor",
        FontId::proportional(10.0),
        color,
    );
    ui.spacing_mut().slider_width = track;
    // A tick between recorded frames is snapped back by the cursor.
    let slider = Slider::new(&mut tick, first..=last)
        .text("tick")
        .integer()
        .show_value(false);
    let scrubbed = ui.add_enabled(range.is_some(), slider).changed() && tick != time.tick();
    let dt = frames.header().dt;
    ui.label(match range {
        Some((_, newest)) => format!("{:.2} s of {:.2} s", time.tick() as f32 * dt, newest as f32 * dt),
        None => "nothing recorded yet".to_string(),
    });
    scrubbed.then_some(Command::Time(TimeCommand::SeekTo(tick)))
}
