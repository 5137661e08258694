//! The record phase: the frame of the state after a tick — every present agent's sample with its
//! labelled forces, the overlaps, the tick's events and the debugged agents' constraints.

use glam::Vec2;
use rayon::prelude::*;

use super::decide::Decision;
use super::{AGENTS_PER_TASK, AgentMind, World};
use crate::record::{AgentSample, Contact, ContactWith, FLAG_ARRIVED, FLAG_COLLIDING, ForceSample, Frame};
use crate::sim::{Body, CONTACT_TOLERANCE};

impl World {
    /// Records every present agent; `decisions` (indexed like the bodies, possibly empty)
    /// supply the forces and preferred velocities of the tick just stepped. Agents are sampled
    /// in parallel straight into their places, their forces copied after them in order.
    pub(super) fn record(&self, decisions: &[Option<Decision>]) -> Frame {
        let decision = |i: usize| decisions.get(i).and_then(Option::as_ref);
        // The present agents' indices, in agent order.
        let present: Vec<usize> = (0..self.bodies.len())
            .filter(|&i| self.bodies[i].status.present())
            .collect();
        let mut frame = Frame {
            tick: self.tick,
            time: self.time(),
            events: self.events.clone(),
            agents: present
                .par_iter()
                .with_min_len(AGENTS_PER_TASK)
                .map(|&i| self.sample(&self.bodies[i], &self.minds[i], decision(i)))
                .collect(),
            ..Frame::default()
        };
        let mut force_start = 0;
        for a in &mut frame.agents {
            a.force_start = force_start;
            force_start += u32::from(a.force_count);
        }
        frame.forces.reserve_exact(force_start as usize);
        for d in present.iter().filter_map(|&i| decision(i)) {
            frame.forces.extend(d.steering.parts.iter().map(|p| ForceSample {
                label: p.label,
                force: p.force,
                kept: p.kept,
            }));
        }
        frame.debug = decisions.iter().flatten().filter_map(|d| d.debug.clone()).collect();
        frame.contacts = self.contacts();
        let mut colliding: Vec<u32> = frame
            .contacts
            .iter()
            .flat_map(|c| match c.with {
                ContactWith::Agent(other) => [Some(c.agent), Some(other)],
                ContactWith::Obstacle(_) => [Some(c.agent), None],
            })
            .flatten()
            .collect();
        colliding.sort_unstable();
        colliding.dedup();
        if !colliding.is_empty() {
            frame.agents.par_iter_mut().with_min_len(AGENTS_PER_TASK).for_each(|a| {
                if colliding.binary_search(&a.id).is_ok() {
                    a.flags |= FLAG_COLLIDING;
                }
            });
        }
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

    /// Every overlap deeper than [`CONTACT_TOLERANCE`] among present agents and obstacles, in
    /// agent order; blocks of agents are checked in parallel and joined in order, so the list is
    /// the same at any thread count.
    fn contacts(&self) -> Vec<Contact> {
        const BLOCK: usize = 256;
        self.bodies
            .par_chunks(BLOCK)
            .enumerate()
            .map(|(block, bodies)| {
                let mut contacts = Vec::new();
                let mut near = Vec::new();
                for (k, body) in bodies.iter().enumerate() {
                    self.contacts_of(block * BLOCK + k, body, &mut near, &mut contacts);
                }
                contacts
            })
            .collect::<Vec<_>>()
            .concat()
    }

    /// Appends the contacts of agent `i` (`body`) with agents after it (in agent order) and with
    /// obstacles; `near` is a reused buffer.
    fn contacts_of(&self, i: usize, body: &Body, near: &mut Vec<u32>, contacts: &mut Vec<Contact>) {
        if !body.status.present() {
            return;
        }
        let depth = |j: u32| {
            let other = &self.bodies[j as usize];
            body.radius + other.radius - body.position.distance(other.position)
        };
        // The neighbours in cell order, then only the few overlapping ones sorted.
        self.grid
            .query_in_cell_order(body.position, body.radius + self.max_radius, None, near);
        near.retain(|&j| j as usize > i && depth(j) > CONTACT_TOLERANCE);
        near.sort_unstable();
        for &j in near.iter() {
            contacts.push(Contact {
                agent: body.id,
                with: ContactWith::Agent(self.bodies[j as usize].id),
                depth: depth(j),
            });
        }
        for (k, depth) in self
            .statics
            .penetrations(body.position, body.radius, self.time(), CONTACT_TOLERANCE)
        {
            contacts.push(Contact {
                agent: body.id,
                with: ContactWith::Obstacle(k),
                depth,
            });
        }
    }
}
