//! The run inspector: everything recorded for the selected agent at the cursor tick (position,
//! velocities, steering, each behaviour's force with the share the combiner kept, mind state,
//! flags, contacts, neighbours) and the agent's full parameters from its profile.

use eframe::egui;
use egui::{CollapsingHeader, Grid, Ui};
use glam::Vec2;

use super::paint::color32;
use crate::draw::{force_color, sensing_radius};
use crate::record::{AgentSample, ContactWith, Frame, RecordingHeader};
use crate::scene::Scene;

fn vec(v: Vec2) -> String {
    format!("({:.3}, {:.3})", v.x, v.y)
}

/// Draws the inspector of agent `id` at `frame` (a hint when nothing is selected or the agent is
/// not present at this tick).
pub fn show(ui: &mut Ui, header: &RecordingHeader, frame: Option<&Frame>, id: Option<u32>) {
    ui.heading("Agent");
    let Some(id) = id else {
        ui.label("Click an agent on the canvas to inspect it.");
        return;
    };
    let scene = &header.scene;
    let entry = header.agents.agent(id);
    let profile = frame
        .and_then(|f| f.agent(id))
        .map(|a| a.profile)
        .or(entry.map(|e| e.profile));
    ui.label(format!(
        "agent {id}, profile {}{}{}",
        profile.map_or("?", |p| header.agents.profile_name(p)),
        entry
            .and_then(|e| e.agent_type.as_deref())
            .map(|t| format!(", type {t}"))
            .unwrap_or_default(),
        if entry.is_some_and(|e| e.spawned) {
            ", spawned"
        } else {
            ""
        },
    ));
    let Some((frame, a)) = frame.and_then(|f| f.agent(id).map(|a| (f, a))) else {
        ui.label("Not present at this tick.");
        return;
    };
    Grid::new("agent values").num_columns(2).striped(true).show(ui, |ui| {
        let mut row = |name: &str, value: String| {
            ui.label(name);
            ui.monospace(value);
            ui.end_row();
        };
        row("tick", frame.tick.to_string());
        row("position", vec(a.position));
        row("velocity", vec(a.velocity));
        row("speed", format!("{:.3} m/s", a.velocity.length()));
        row("heading", vec(a.heading));
        row("preferred velocity", vec(a.preferred_velocity));
        row(
            "steering",
            format!("{} |{:.3}| N", vec(a.steering), a.steering.length()),
        );
        row("avoidance", vec(a.avoidance));
        row("state", header.state(a.state).to_string());
        row("arrived", a.arrived().to_string());
        row("colliding", a.colliding().to_string());
    });
    ui.label("Forces by behaviour");
    Grid::new("agent forces").num_columns(4).striped(true).show(ui, |ui| {
        ui.strong("behaviour");
        ui.strong("force");
        ui.strong("|N|");
        ui.strong("kept");
        ui.end_row();
        for f in frame.forces_of(a) {
            let label = header.label(f.label);
            ui.colored_label(color32(force_color(label)), label);
            ui.monospace(vec(f.force));
            ui.monospace(format!("{:.3}", f.force.length()));
            ui.monospace(format!("{:.0} %", f.kept * 100.0));
            ui.end_row();
        }
    });
    contacts_and_neighbours(ui, header, frame, a);
    parameters(ui, scene, header.agents.profile_name(a.profile));
}

fn contacts_and_neighbours(ui: &mut Ui, header: &RecordingHeader, frame: &Frame, a: &AgentSample) {
    let (id, at) = (a.id, a.position);
    let contacts: Vec<String> = frame
        .contacts
        .iter()
        .filter_map(|c| match c.with {
            ContactWith::Agent(other) if c.agent == id => Some(format!("agent {other} ({:.3} m)", c.depth)),
            ContactWith::Agent(other) if other == id => Some(format!("agent {} ({:.3} m)", c.agent, c.depth)),
            ContactWith::Obstacle(o) if c.agent == id => Some(format!("obstacle {o} ({:.3} m)", c.depth)),
            _ => None,
        })
        .collect();
    ui.label(format!(
        "Contacts: {}",
        if contacts.is_empty() {
            "none".to_string()
        } else {
            contacts.join(", ")
        }
    ));
    let radius = sensing_radius(header, a);
    let mut near: Vec<(u32, f32)> = frame
        .agents
        .iter()
        .filter(|b| b.id != id)
        .map(|b| (b.id, b.position.distance(at)))
        .filter(|(_, d)| *d <= radius)
        .collect();
    near.sort_by(|a, b| a.1.total_cmp(&b.1));
    let list: Vec<String> = near.iter().take(20).map(|(n, d)| format!("{n} ({d:.2} m)")).collect();
    ui.label(format!(
        "Neighbours within {radius:.1} m: {}",
        if list.is_empty() {
            "none".to_string()
        } else {
            list.join(", ")
        }
    ));
}

fn parameters(ui: &mut Ui, scene: &Scene, profile: &str) {
    let Some(p) = scene.profile(profile) else {
        return;
    };
    CollapsingHeader::new("Parameters").default_open(false).show(ui, |ui| {
        Grid::new("agent parameters").num_columns(2).show(ui, |ui| {
            let mut row = |name: &str, value: String| {
                ui.label(name);
                ui.monospace(value);
                ui.end_row();
            };
            row("radius", format!("{} m", p.radius));
            row("mass", format!("{} kg", p.mass));
            row("max speed", format!("{} m/s", p.max_speed));
            row("preferred speed", format!("{} m/s", p.preferred_speed));
            row("max force", format!("{} N", p.max_force));
            row("max turn rate", format!("{} deg/s", p.max_turn_rate_deg));
            row("combiner", format!("{:?}", p.combiner));
        });
        for b in &p.behaviours {
            ui.monospace(format!("{} x {:?}", b.weight, b.behaviour));
        }
    });
}
