//! The record phase: the frame of the state after a tick — every present agent's sample with its
//! labelled forces, the overlaps, the tick's events and the debugged agents' constraints.

use glam::Vec2;
use rayon::prelude::*;

use super::decide::Decision;
use super::{AGENTS_PER_TASK, AgentMind, World};
use crate::record::{AgentSample, Contact, ContactWith, FLAG_ARRIVED, FLAG_COLLIDING, ForceSample, Frame};
use crate::sim::{Body, CONTACT_TOLERANCE, ContactGrid};

/// What one block of agents adds to the frame.
#[derive(Default)]
struct Block {
    agents: Vec<AgentSample>,
    forces: Vec<ForceSample>,
    /// Every overlap deeper than [`CONTACT_TOLERANCE`] of the block's agents with later agents
    /// and with obstacles, in agent order.
    contacts: Vec<Contact>,
}

/// One part of every block, joined in block order.
fn joined<T: Copy>(blocks: &[Block], part: impl Fn(&Block) -> &Vec<T>) -> Vec<T> {
    let mut all = Vec::with_capacity(blocks.iter().map(|b| part(b).len()).sum());
    for b in blocks {
        all.extend_from_slice(part(b));
    }
    all
}

impl World {
    /// Records every present agent; `decisions` (indexed like the bodies, possibly empty)
    /// supply the forces and preferred velocities of the tick just stepped, `grid` indexes the
    /// present agents for the contact check. Blocks of agents are sampled and checked for
    /// contacts in parallel, each into vectors of its own, and joined in agent order, so the
    /// frame is the same at any thread count.
    pub(super) fn record(&self, decisions: &[Option<Decision>], grid: &ContactGrid) -> Frame {
        let decision = |i: usize| decisions.get(i).and_then(Option::as_ref);
        let blocks: Vec<Block> = self
            .bodies
            .par_chunks(AGENTS_PER_TASK)
            .zip(self.minds.par_chunks(AGENTS_PER_TASK))
            .enumerate()
            .map(|(block, (bodies, minds))| {
                let mut out = Block {
                    agents: Vec::with_capacity(bodies.len()),
                    ..Block::default()
                };
                let mut touching = Vec::new();
                for (k, (body, mind)) in bodies.iter().zip(minds).enumerate() {
                    if !body.status.present() {
                        continue;
                    }
                    let i = block * AGENTS_PER_TASK + k;
                    let decision = decision(i);
                    let mut sample = self.sample(body, mind, decision);
                    if self.contacts_of(i, body, grid, &mut touching, &mut out.contacts) {
                        sample.flags |= FLAG_COLLIDING;
                    }
                    out.agents.push(sample);
                    let parts = decision.map_or(&[][..], |d| &d.steering.parts[..]);
                    out.forces.extend(parts.iter().map(|p| ForceSample {
                        label: p.label,
                        force: p.force,
                        kept: p.kept,
                    }));
                }
                out
            })
            .collect();
        let mut frame = Frame {
            tick: self.tick,
            time: self.time(),
            events: self.events.clone(),
            agents: joined(&blocks, |b| &b.agents),
            forces: joined(&blocks, |b| &b.forces),
            contacts: joined(&blocks, |b| &b.contacts),
            ..Frame::default()
        };
        let mut force_start = 0;
        for a in &mut frame.agents {
            a.force_start = force_start;
            force_start += u32::from(a.force_count);
        }
        frame.debug = decisions
            .iter()
            .flatten()
            .filter_map(|d| d.debug.as_deref().cloned())
            .collect();
        frame
    }

    /// The sample of one present agent, with its forces counted but not yet placed
    /// (`force_start` is set when the samples are joined).
    fn sample(&self, body: &Body, mind: &AgentMind, decision: Option<&Decision>) -> AgentSample {
        let (steering, preferred, avoidance, forces) = match decision {
            Some(d) => (d.steering.force, d.preferred, d.avoidance, d.steering.parts.len()),
            None => (Vec2::ZERO, body.velocity, Vec2::ZERO, 0),
        };
        AgentSample {
            id: body.id,
            profile: body.profile,
            position: body.position,
            velocity: body.velocity,
            heading: mind.steer.display_heading(body.heading),
            preferred_velocity: preferred,
            steering,
            avoidance,
            state: mind.mind.state_index(),
            flags: if mind.mind.arrived() { FLAG_ARRIVED } else { 0 },
            force_start: 0,
            force_count: forces as u16,
        }
    }

    /// Appends the contacts of present agent `i` (`body`) with agents after it, found in
    /// `grid`, and with obstacles, and tells whether it touches anyone or anything (agents
    /// before it too); `touching` is a reused buffer.
    fn contacts_of(
        &self,
        i: usize,
        body: &Body,
        grid: &ContactGrid,
        touching: &mut Vec<(u32, f32)>,
        contacts: &mut Vec<Contact>,
    ) -> bool {
        touching.clear();
        let mut colliding = false;
        grid.around(body.position, |j, q| {
            if j as usize != i {
                // The same depth, to the bit, as the other agent's check finds.
                let depth = body.radius + self.bodies[j as usize].radius - body.position.distance(q);
                if depth > CONTACT_TOLERANCE {
                    colliding = true;
                    if j as usize > i {
                        touching.push((j, depth));
                    }
                }
            }
        });
        touching.sort_unstable_by_key(|&(j, _)| j);
        for &(j, depth) in touching.iter() {
            contacts.push(Contact {
                agent: body.id,
                with: ContactWith::Agent(self.bodies[j as usize].id),
                depth,
            });
        }
        for (k, depth) in self
            .statics
            .penetrations(body.position, body.radius, self.time(), CONTACT_TOLERANCE)
        {
            colliding = true;
            contacts.push(Contact {
                agent: body.id,
                with: ContactWith::Obstacle(k),
                depth,
            });
        }
        colliding
    }
}
