//! Hand-made samples and frames for the metric tests.

use glam::Vec2;

use crate::record::{AgentSample, Contact, Frame};

/// A sample of agent `id` at `position` moving with `velocity`, facing along it (or +x when still).
pub fn moving(id: u32, position: Vec2, velocity: Vec2, flags: u8) -> AgentSample {
    AgentSample {
        id,
        profile: 0,
        position,
        velocity,
        heading: velocity.try_normalize().unwrap_or(Vec2::X),
        preferred_velocity: velocity,
        steering: Vec2::ZERO,
        avoidance: Vec2::ZERO,
        state: 0,
        flags,
        force_start: 0,
        force_count: 0,
    }
}

/// A frame of tick `tick` with `dt` = 0.5 s.
pub fn frame(tick: u64, agents: Vec<AgentSample>, contacts: Vec<Contact>) -> Frame {
    Frame {
        tick,
        time: tick as f32 * 0.5,
        agents,
        forces: vec![],
        contacts,
        debug: vec![],
        events: vec![],
    }
}
