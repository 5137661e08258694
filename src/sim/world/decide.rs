//! The decide phase for one agent, computed from the immutable snapshot of the previous tick:
//! steering behaviours → combiner → avoidance → locomotion. Writes only the agent's own memory.

use glam::Vec2;

use super::{AgentMind, MindShown};
use crate::record::AvoidanceDebug;
use crate::scene::Scene;
use crate::scene::steering::Combiner;
use crate::scene::steering::human::PopelovaCombiner;
use crate::sim::avoid::{AvoidObstacles, Candidates, Neighbourhood, Snapshot};
use crate::sim::locomotion::{advance, preferred_velocity};
use crate::sim::mind::{MindEvent, Route};
use crate::sim::steer::human::steer_agent;
use crate::sim::steer::{
    AgentIndex, CombinedSteering, CombinerInput, KeptSums, SteeringContext, SteeringObstacles, TaggedMemo, stria,
};
use crate::sim::{Body, Neighbour, NeighbourGrid, ResolvedProfile, StaticGeometry, Status};

/// What one agent decided this tick.
#[derive(Default)]
pub(super) struct Decision {
    pub steering: CombinedSteering,
    pub preferred: Vec2,
    pub avoidance: Vec2,
    pub position: Vec2,
    pub velocity: Vec2,
    pub heading: Vec2,
    /// Boxed, so the decisions of the agents not debugged (all but one) stay small to move.
    pub debug: Option<Box<AvoidanceDebug>>,
    /// What the agent's mind reported after the move to `position` (filled in by the world
    /// once the decision is made).
    pub event: MindEvent,
    /// What the frame shows of the mind after the move (filled in with `event`).
    pub shown: MindShown,
}

/// Everything every agent's decision reads: the previous tick's bodies, the neighbour grid and
/// the static world, shared read-only by all worker threads.
pub(super) struct SnapshotView<'a> {
    pub scene: &'a Scene,
    pub profiles: &'a [ResolvedProfile],
    pub bodies: &'a [Body],
    pub non_reactive: &'a [bool],
    pub grid: &'a NeighbourGrid,
    pub statics: &'a StaticGeometry,
    pub steer_obstacles: &'a SteeringObstacles,
    pub avoid_obstacles: &'a AvoidObstacles,
    pub agents: &'a AgentIndex,
    pub max_radius: f32,
    pub time: f32,
    pub tick: u64,
    pub debug_agent: Option<u32>,
    /// The flock sums computed ahead for this tick, by body index (possibly empty).
    pub ahead: &'a [Option<KeptSums>],
}

/// One worker thread's reusable buffers.
#[derive(Default)]
pub(super) struct Scratch {
    neighbours: Vec<u32>,
    nearest: Vec<Neighbour>,
    /// The avoidance method's k nearest, when it takes them.
    avoided: Vec<u32>,
    avoidance: Neighbourhood,
}

/// Whom one agent's avoidance and stall check look at besides its behaviours' neighbours.
#[derive(Clone, Copy)]
struct Others<'a> {
    /// The agent's number in the snapshot.
    index: usize,
    /// The avoidance method's candidates.
    candidates: Candidates<'a>,
}

impl SnapshotView<'_> {
    /// Writes into `out` the decision of agent `body` (number `index` in the snapshot) with its
    /// own memory `mind`, all but the mind's `event` and `shown`; `out` is last tick's decision,
    /// whose memory for the steering's parts is reused (a decision written in place, not
    /// returned: it is over a hundred bytes, and each of thousands of agents would move it
    /// through the pipeline's calls and into its slot).
    pub fn decide(&self, index: usize, body: &Body, mind: &mut AgentMind, scratch: &mut Scratch, out: &mut Decision) {
        let profile = self.effective_profile(body, mind);
        self.neighbours_of(index, body, &profile, scratch);
        let others = Others {
            index,
            candidates: match profile.nearest {
                Some(_) => Candidates::Nearest(&scratch.avoided),
                None => Candidates::InRange(&scratch.neighbours),
            },
        };
        let ctx = SteeringContext {
            body,
            profile: &profile,
            goal: mind.mind.goal_point(),
            neighbours: &scratch.neighbours,
            grid: self.grid,
            index: index as u32,
            max_radius: self.max_radius,
            bodies: self.bodies,
            dt: self.scene.settings.dt,
            statics: self.statics,
            agents: self.agents,
            obstacles: self.steer_obstacles,
            time: self.time,
            path: match mind.mind.route() {
                Some(Route::Path { index, .. }) => Some(&self.scene.paths[*index]),
                _ => None,
            },
            memo: TaggedMemo::new(self.ahead.get(index).copied().flatten()),
        };
        match &profile.combiner {
            Combiner::Popelova(combiner) => {
                self.decide_human(&ctx, combiner, others, mind, &mut scratch.avoidance, out)
            }
            _ => self.decide_steering(&ctx, others, mind, &mut scratch.avoidance, out),
        }
    }

    /// The agent's profile, with the speed its mind asks for (panic makes agents run).
    fn effective_profile(&self, body: &Body, mind: &AgentMind) -> std::borrow::Cow<'_, ResolvedProfile> {
        let profile = &self.profiles[body.profile as usize];
        let factor = mind.mind.speed_factor(self.scene);
        if factor == 1.0 {
            std::borrow::Cow::Borrowed(profile)
        } else {
            std::borrow::Cow::Owned(profile.with_speed_factor(factor))
        }
    }

    /// Fills the scratch's lists of the other present agents the profile looks at: the
    /// avoidance method's k nearest when it takes them, and every agent within the behaviours'
    /// neighbour radius (plus the largest body radius) — within the avoidance method's too when
    /// it looks at everyone in range — in the grid's cell order (no reader depends on index order:
    /// avoidance and perception sort by distance, the flock sums add in this order).
    fn neighbours_of(&self, index: usize, body: &Body, profile: &ResolvedProfile, scratch: &mut Scratch) {
        scratch.avoided.clear();
        let radius = match profile.nearest {
            Some((distance, k)) => {
                self.grid
                    .nearest(body.position, distance, k, index as u32, &mut scratch.nearest);
                scratch.avoided.extend(scratch.nearest.iter().map(|n| n.agent()));
                profile.behaviour_radius
            }
            None => profile.neighbour_radius,
        };
        let out = &mut scratch.neighbours;
        out.clear();
        if profile.lists_neighbours && radius > 0.0 {
            let skip = Some(index as u32);
            self.grid
                .query_in_cell_order(body.position, radius + self.max_radius, skip, out);
        }
    }

    /// Buckland's and Stria's pipeline: behaviours through the combiner (its parts written into
    /// the memory of `out`'s), then avoidance and locomotion, written into `out`.
    fn decide_steering(
        &self,
        ctx: &SteeringContext,
        others: Others,
        mind: &mut AgentMind,
        scratch: &mut Neighbourhood,
        out: &mut Decision,
    ) {
        let parts = std::mem::take(&mut out.steering.parts);
        let profile = ctx.profile;
        let state = &mut mind.steer;
        let steering = if profile.combiner == Combiner::PrioritySelection {
            stria::select(ctx, &mut state.memory, &mut state.rng)
        } else {
            let input = CombinerInput {
                labels: &profile.labels,
                probabilities: &profile.probabilities,
                max_force: profile.max_force,
            };
            let memory = &mut state.memory;
            profile.combiner.combine(&input, &mut state.rng, parts, |i, rng| {
                let spec = &profile.behaviours[i];
                spec.behaviour.force(ctx, memory, rng) * spec.weight
            })
        };
        let preferred = profile.preferred_velocity.velocity(
            ctx.body,
            ctx.goal.map(|g| g.position),
            steering.force,
            profile,
            ctx.dt,
            self.scene.settings.seed,
            self.tick,
        );
        let preferred = self.unstuck(ctx, others, mind, preferred);
        out.steering = steering;
        self.avoid_and_move(ctx, others, scratch, preferred, None, out);
        if let Some(smoother) = &mut mind.steer.smoother {
            smoother.push(out.heading);
        }
    }

    /// Popelová's model: the combiner yields the next velocity directly; it is handed to
    /// locomotion as the force that produces it in one tick, and a stop may turn the agent to
    /// face a point. Written into `out`.
    fn decide_human(
        &self,
        ctx: &SteeringContext,
        combiner: &PopelovaCombiner,
        others: Others,
        mind: &mut AgentMind,
        scratch: &mut Neighbourhood,
        out: &mut Decision,
    ) {
        let profile = ctx.profile;
        let (parts, human) = steer_agent(ctx, combiner, &mut mind.human, &mut mind.steer.rng);
        let force = (human.velocity - ctx.velocity()) * (profile.mass / ctx.dt);
        let preferred = self.unstuck(ctx, others, mind, preferred_velocity(ctx.body, force, profile, ctx.dt));
        out.steering = CombinedSteering { force, parts };
        self.avoid_and_move(ctx, others, scratch, preferred, human.face, out);
    }

    /// The avoidance and locomotion layers after steering: the velocity avoidance chooses for
    /// `preferred`, the move it makes in one tick, and the agent turned to `face` when given,
    /// written into `out` (whose steering is set already; the mind's `event` and `shown` come
    /// later).
    fn avoid_and_move(
        &self,
        ctx: &SteeringContext,
        others: Others,
        scratch: &mut Neighbourhood,
        preferred: Vec2,
        face: Option<Vec2>,
        out: &mut Decision,
    ) {
        let (chosen, debug) = self.avoid(ctx, others.candidates, scratch, preferred);
        let (moved, velocity, heading) = advance(ctx.body, chosen, ctx.profile, ctx.dt);
        // Walls are solid: a move that would cross one stops short of it, at the speed made good.
        let position = self.statics.stop_at_walls(ctx.body.position, moved);
        let velocity = if position == moved {
            velocity
        } else {
            (position - ctx.body.position) / ctx.dt
        };
        out.heading = face.map_or(heading, |f| (f - position).try_normalize().unwrap_or(heading));
        out.preferred = preferred;
        out.avoidance = chosen - preferred;
        out.position = position;
        out.velocity = velocity;
        out.debug = debug;
    }

    /// The avoidance layer: the profile's method turns `preferred` into the chosen velocity,
    /// with the explanation when this agent is being debugged.
    fn avoid(
        &self,
        ctx: &SteeringContext,
        candidates: Candidates,
        scratch: &mut Neighbourhood,
        preferred: Vec2,
    ) -> (Vec2, Option<Box<AvoidanceDebug>>) {
        let mut debug = (self.debug_agent == Some(ctx.body.id))
            .then(|| Box::new(AvoidanceDebug::for_agent(ctx.body.id, ctx.body.position)));
        let snapshot = Snapshot {
            bodies: self.bodies,
            non_reactive: self.non_reactive,
            obstacles: self.avoid_obstacles,
            time: self.time,
        };
        let chosen = ctx.profile.avoidance.choose_velocity(
            ctx.body,
            ctx.profile.max_speed,
            preferred,
            candidates,
            &snapshot,
            ctx.dt,
            scratch,
            debug.as_deref_mut(),
        );
        (chosen, debug)
    }

    /// `preferred` after the profile's stuck-agent remedy: turned aside while the agent
    /// sidesteps; an agent that has just become stuck also re-plans its route. The agent stands
    /// still when neither it nor any agent the profile looks at moves: one waiting behind a
    /// moving queue is not stuck.
    fn unstuck(&self, ctx: &SteeringContext, others: Others, mind: &mut AgentMind, preferred: Vec2) -> Vec2 {
        let seeking = ctx.goal.is_some() && ctx.body.status == Status::Active;
        let moves = |speed: f32| ctx.body.velocity.length() >= speed || self.others_move(ctx, others, speed);
        let step = ctx.profile.unstick.sidestep(
            &mut mind.stall,
            preferred,
            moves,
            ctx.profile.preferred_speed,
            seeking,
            ctx.dt,
            &mut mind.steer.rng,
        );
        if step.replan {
            mind.mind.replan();
        }
        step.preferred
    }

    /// True when some agent the profile looks at moves at `speed` or faster: one of the
    /// avoidance method's k nearest when the behaviours are blind, otherwise one within the
    /// profile's whole neighbour radius (searched only now, as only a slow agent asks).
    fn others_move(&self, ctx: &SteeringContext, others: Others, speed: f32) -> bool {
        let fast = |j: u32| self.bodies[j as usize].velocity.length() >= speed;
        match others.candidates {
            Candidates::InRange(all) => all.iter().any(|&j| fast(j)),
            Candidates::Nearest(nearest) if ctx.profile.behaviour_radius == 0.0 => nearest.iter().any(|&j| fast(j)),
            Candidates::Nearest(_) => {
                self.grid
                    .any_within(ctx.body.position, ctx.profile.neighbour_radius + self.max_radius, |j| {
                        j as usize != others.index && fast(j)
                    })
            }
        }
    }
}
