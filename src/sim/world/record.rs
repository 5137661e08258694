//! The record phase: the frame of the state after a tick — every present agent's sample with its
//! labelled forces, the overlaps, the tick's events and the debugged agents' constraints.

use glam::Vec2;
use rayon::prelude::*;

use super::decide::Decision;
use super::{AGENTS_PER_TASK, AgentMind, MindShown};
use crate::keep_awake::join_keeping_awake;
use crate::record::{AgentEvent, AgentSample, Contact, ContactWith, FLAG_ARRIVED, FLAG_COLLIDING, ForceSample, Frame};
use crate::sim::steer::{KeptSums, LabelledForce};
use crate::sim::{Body, CONTACT_TOLERANCE, ContactGrid, NeighbourGrid, ResolvedProfile, StaticGeometry};

/// What the record phase reads of the world after a tick: everything but the neighbour index,
/// which may be rebuilt for the next tick meanwhile.
pub(super) struct Recorder<'a> {
    /// Every agent's body after the tick.
    pub bodies: &'a [Body],
    /// Every agent's mind, read only for an agent without a decision this tick.
    pub minds: &'a [AgentMind],
    /// The profiles, by index: an agent's tells which flock sums to compute ahead.
    pub profiles: &'a [ResolvedProfile],
    /// The obstacles whose penetrations are contacts.
    pub statics: &'a StaticGeometry,
    /// What happened to agents in the tick.
    pub events: &'a [AgentEvent],
    /// The tick the frame ends.
    pub tick: u64,
    /// The simulation time at that tick (seconds).
    pub time: f32,
    /// The body index of the agent whose avoidance is being explained: only its decision
    /// carries an explanation, so the others' are not read for one.
    pub debugged: Option<usize>,
}

/// The most blocks of the frame one worker takes at a time. Left to itself, rayon stops cutting
/// the blocks after a split or two unless a piece is stolen, so a worker may run 20 blocks (a
/// quarter of the 10,000-fish shoal's frame) that the other, done with its own, cannot take; on
/// two threads the shoal's frame then took a fifth longer than half its 1-thread time. Pieces of
/// two measured best, ahead of pieces of one and of four (see `docs/performance.md`, "The frame's
/// blocks in small pieces", also for what is not understood about it).
const BLOCKS_PER_PIECE: usize = 2;

/// Where the frame's contact check finds the agents that may touch an agent.
pub(super) enum ContactIndex<'g> {
    /// The contact check's own index, with cells as wide as two of the largest bodies.
    Hashed(&'g ContactGrid),
    /// The neighbour grid, sorted into its cells for the next tick anyway, and `max_radius`,
    /// the largest body radius. An agent whose behaviours read the flock sums has its contacts
    /// found by the scan of the grid that computes its sums for the next tick.
    Cells(&'g NeighbourGrid, f32),
}

/// `all` cut into consecutive pieces beginning at `starts` (ascending, the first 0).
fn split_at_starts<T>(mut all: &mut [T], starts: impl Iterator<Item = usize>) -> impl Iterator<Item = &mut [T]> {
    let mut starts = starts.peekable();
    std::iter::from_fn(move || {
        let start = starts.next()?;
        let end = starts.peek().copied().unwrap_or(start + all.len());
        let (piece, rest) = std::mem::take(&mut all).split_at_mut(end - start);
        all = rest;
        Some(piece)
    })
}

/// `reused` (a spent frame's vector, possibly empty) made `len` long, the values past its old
/// length defaults written in parallel (the frame's samples and forces take a megabyte or more in
/// a large crowd, which one thread would take a good part of the phase to clear). The values kept
/// are stale: the frame's blocks overwrite every one.
fn sized<T: Clone + Default + Send>(mut reused: Vec<T>, len: usize) -> Vec<T> {
    reused.truncate(len);
    let more = len - reused.len();
    reused.par_extend(rayon::iter::repeat_n(T::default(), more).with_min_len(4096));
    reused
}

/// A frame's vectors of samples and forces, of the right length, and each block's first sample
/// and force in them.
struct Layout {
    /// Each block's first sample and first force.
    starts: Vec<(usize, usize)>,
    /// A sample per present agent (a default or a spent frame's).
    agents: Vec<AgentSample>,
    /// A force per labelled force of the present agents (a default or a spent frame's).
    forces: Vec<ForceSample>,
}

/// The labelled forces of agent `i`'s decision in `decisions` (none without one).
fn parts_of(decisions: &[Option<Decision>], i: usize) -> &[LabelledForce] {
    decisions
        .get(i)
        .and_then(Option::as_ref)
        .map_or(&[], |d| &d.steering.parts)
}

impl Recorder<'_> {
    /// Records every present agent; `decisions` (indexed like the bodies, possibly empty)
    /// supply the forces and preferred velocities of the tick just stepped, `contact_index`
    /// indexes the present agents for the contact check (built while the frame is laid out, the
    /// worker that lays it out staying on for the index's parallel work: [`join_keeping_awake`]), and
    /// the samples and forces are written into the memory of `spent`, a frame nobody reads any
    /// more (or an empty one).
    /// Blocks of agents are sampled and checked for contacts in parallel, each writing its
    /// samples and forces into its own part of the frame's vectors, so the frame is the same at
    /// any thread count.
    /// With `ahead`, the contact check on the neighbour grid's cells also computes the flock
    /// sums of the next tick and writes them there, indexed like the bodies (`None` for an agent
    /// without them); it is emptied when the contact check has its own index.
    pub(super) fn record<'g>(
        &self,
        decisions: &[Option<Decision>],
        spent: Frame,
        contact_index: impl FnOnce() -> ContactIndex<'g> + Send,
        ahead: Option<&mut Vec<Option<KeptSums>>>,
    ) -> Frame {
        let decision = |i: usize| decisions.get(i).and_then(Option::as_ref);
        let (index, layout) = join_keeping_awake(contact_index, || self.layout(decisions, spent));
        let Layout {
            starts,
            mut agents,
            mut forces,
        } = layout;
        let pieces = split_at_starts(&mut agents, starts.iter().map(|s| s.0))
            .zip(split_at_starts(&mut forces, starts.iter().map(|s| s.1)))
            .collect::<Vec<_>>();
        // Every block overwrites its part of `ahead` (it keeps its length from tick to tick).
        let aheads: Vec<&mut [Option<KeptSums>]> = match (ahead, &index) {
            (Some(ahead), ContactIndex::Cells(..)) => {
                ahead.resize(self.bodies.len(), None);
                ahead.chunks_mut(AGENTS_PER_TASK).collect()
            }
            (ahead, _) => {
                if let Some(ahead) = ahead {
                    ahead.clear();
                }
                starts.iter().map(|_| &mut [][..]).collect()
            }
        };
        let contacts: Vec<Vec<Contact>> = self
            .bodies
            .par_chunks(AGENTS_PER_TASK)
            .zip(self.minds.par_chunks(AGENTS_PER_TASK))
            .zip(pieces)
            .zip(aheads)
            .enumerate()
            .with_max_len(BLOCKS_PER_PIECE)
            .map(|(block, (((bodies, minds), (samples, forces)), ahead))| {
                let (mut contacts, mut touching) = (Vec::new(), Vec::new());
                let mut force_start = starts[block].1;
                ahead.fill(None);
                let present = bodies
                    .iter()
                    .zip(minds)
                    .enumerate()
                    .filter(|(_, (b, _))| b.status.present());
                let mut forces = forces.iter_mut();
                for ((k, (body, mind)), slot) in present.zip(samples) {
                    let i = block * AGENTS_PER_TASK + k;
                    *slot = self.sample(body, mind, decision(i), force_start as u32);
                    if self.contacts_of(i, body, &index, &mut touching, &mut contacts, ahead.get_mut(k)) {
                        slot.flags |= FLAG_COLLIDING;
                    }
                    let parts = parts_of(decisions, i);
                    for (p, out) in parts.iter().zip(forces.by_ref()) {
                        *out = ForceSample {
                            label: p.label,
                            force: p.force,
                            kept: p.kept,
                        };
                    }
                    force_start += parts.len();
                }
                contacts
            })
            .collect();
        Frame {
            tick: self.tick,
            time: self.time,
            events: self.events.to_vec(),
            agents,
            forces,
            contacts: contacts.concat(),
            debug: self
                .debugged
                .and_then(decision)
                .and_then(|d| d.debug.as_deref().cloned())
                .into_iter()
                .collect(),
        }
    }

    /// The frame's vectors, in the memory of the `spent` frame's, and where each block of agents
    /// starts in them: how many samples and forces each block holds is counted in parallel.
    fn layout(&self, decisions: &[Option<Decision>], spent: Frame) -> Layout {
        let counts: Vec<(usize, usize)> = self
            .bodies
            .par_chunks(AGENTS_PER_TASK)
            .enumerate()
            .map(|(block, bodies)| {
                let present = bodies.iter().enumerate().filter(|(_, b)| b.status.present());
                present.fold((0, 0), |(samples, forces), (k, _)| {
                    (
                        samples + 1,
                        forces + parts_of(decisions, block * AGENTS_PER_TASK + k).len(),
                    )
                })
            })
            .collect();
        let mut starts = Vec::with_capacity(counts.len());
        let (mut sample_count, mut force_count) = (0, 0);
        for (samples, forces) in counts {
            starts.push((sample_count, force_count));
            (sample_count, force_count) = (sample_count + samples, force_count + forces);
        }
        Layout {
            starts,
            agents: sized(spent.agents, sample_count),
            forces: sized(spent.forces, force_count),
        }
    }

    /// The sample of one present agent whose forces start at `force_start` in the frame; what
    /// it shows of the mind comes from the decision when there is one (the mind is not read).
    fn sample(&self, body: &Body, mind: &AgentMind, decision: Option<&Decision>, force_start: u32) -> AgentSample {
        let (steering, preferred, avoidance, forces, shown) = match decision {
            Some(d) => (
                d.steering.force,
                d.preferred,
                d.avoidance,
                d.steering.parts.len(),
                d.shown,
            ),
            None => (
                Vec2::ZERO,
                body.velocity,
                Vec2::ZERO,
                0,
                MindShown::of(mind, body.heading),
            ),
        };
        AgentSample {
            id: body.id,
            profile: body.profile,
            position: body.position,
            velocity: body.velocity,
            heading: shown.heading,
            preferred_velocity: preferred,
            steering,
            avoidance,
            state: shown.state,
            flags: if shown.arrived { FLAG_ARRIVED } else { 0 },
            force_start,
            force_count: forces as u16,
        }
    }

    /// Appends the contacts of present agent `i` (`body`) with agents after it, found in
    /// `index`, and with obstacles, and tells whether it touches anyone or anything (agents
    /// before it too); writes into `ahead`, when given, the agent's flock sums for the next tick
    /// if the same scan found them. `touching` is a reused buffer.
    fn contacts_of(
        &self,
        i: usize,
        body: &Body,
        index: &ContactIndex,
        touching: &mut Vec<(u32, f32)>,
        contacts: &mut Vec<Contact>,
        ahead: Option<&mut Option<KeptSums>>,
    ) -> bool {
        touching.clear();
        let mut colliding = false;
        let check = |j: u32, q: Vec2, radius: f32| {
            if j as usize != i {
                // The same depth, to the bit, as the other agent's check finds.
                let depth = body.radius + radius - body.position.distance(q);
                if depth > CONTACT_TOLERANCE {
                    colliding = true;
                    if j as usize > i {
                        touching.push((j, depth));
                    }
                }
            }
        };
        match *index {
            ContactIndex::Hashed(grid) => grid.around(body.position, check),
            ContactIndex::Cells(grid, max_radius) => {
                // Every centre that can be deep enough lies within the two radii, so within
                // the reach (the margin covers the rounding of its square), and only for those
                // few is the other's radius read (from the flock's lanes when the grid keeps
                // them, otherwise from its body). When the agent's flock view reaches as far,
                // the scan that computes its next tick's sums finds them.
                let reach = (body.radius + max_radius) * (1.0 + 1e-6);
                let flock_view = self.profiles[body.profile as usize].flock_view;
                let view = flock_view.filter(|view| reach <= view.radius + max_radius);
                match ahead.zip(view) {
                    Some((ahead, view)) => {
                        let touch = Some((reach, check));
                        let (p, heading) = (body.position, body.heading);
                        let sums = grid.flock_sums_touching(p, heading, view, i as u32, max_radius, touch);
                        *ahead = Some((view, sums));
                    }
                    None => grid.for_each_disc_within(body.position, reach, |j| self.bodies[j as usize].radius, check),
                }
            }
        }
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
            .penetrations(body.position, body.radius, self.time, CONTACT_TOLERANCE)
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
