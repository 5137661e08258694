//! Hand-made samples and frames for the metric tests.

use glam::Vec2;

use crate::record::{AgentEvent, AgentSample, Contact, ContactWith, FLAG_ARRIVED, FLAG_COLLIDING, Frame};

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

/// Ids of the agents of [`jumbled_run`]: sparse, with both ends of the range.
const RUN_IDS: [u32; 10] = [0, 3, 5, 7, 12, 42, 64, 99, 1000, u32::MAX - 1];

/// A run of 40 frames (0.5 s apart) made up from `seed`, twice: with each frame's agents in id
/// order, as the simulator writes them, and in an order shuffled frame by frame. Agents come and
/// go, half of them stand still (long enough to be stuck now and then), some arrive, change state
/// or collide, and some arrive by event only.
pub fn jumbled_run(seed: u32) -> (Vec<Frame>, Vec<Frame>) {
    let mut r = crate::test_rng::unit_floats(seed);
    let (mut ordered, mut shuffled) = (Vec::new(), Vec::new());
    for tick in 0..40u64 {
        let mut agents = Vec::new();
        for (i, &id) in RUN_IDS.iter().enumerate() {
            let still = i % 2 == 0;
            if r() > if still { 0.97 } else { 0.8 } {
                continue;
            }
            let position = Vec2::new((r() * 20.0).floor(), (r() * 20.0).floor()) * 0.5;
            let velocity = if still {
                Vec2::ZERO
            } else {
                Vec2::new(r() - 0.5, r() - 0.5) * 2.0
            };
            let arrived = if r() < 0.05 { FLAG_ARRIVED } else { 0 };
            let colliding = if r() < 0.2 { FLAG_COLLIDING } else { 0 };
            let flags = arrived | colliding;
            let mut sample = moving(id, position, velocity, flags);
            sample.state = (r() * 3.0) as u16;
            agents.push(sample);
        }
        let mut contacts = Vec::new();
        for a in &agents {
            for b in &agents {
                if a.id != b.id && r() < 0.05 {
                    contacts.push(Contact {
                        agent: a.id,
                        with: ContactWith::Agent(b.id),
                        depth: r() * 0.1,
                    });
                }
            }
            if r() < 0.05 {
                contacts.push(Contact {
                    agent: a.id,
                    with: ContactWith::Obstacle((r() * 3.0) as u32),
                    depth: r() * 0.1,
                });
            }
        }
        let mut f = frame(tick, agents, contacts);
        let gone = RUN_IDS.iter().filter(|&&id| f.agent(id).is_none());
        f.events = gone
            .filter(|_| r() < 0.1)
            .map(|&agent| AgentEvent::Arrived { agent })
            .collect();
        let mut jumbled = f.clone();
        for i in (1..jumbled.agents.len()).rev() {
            let j = ((r() * (i + 1) as f32) as usize).min(i);
            jumbled.agents.swap(i, j);
        }
        ordered.push(f);
        shuffled.push(jumbled);
    }
    (ordered, shuffled)
}
