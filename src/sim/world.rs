//! The World: a running simulation built from a scene, advanced in fixed ticks.
//!
//! One tick, top to bottom (DESIGN.md's pipeline):
//! 1. agents whose start time has come appear, those past their end time leave;
//! 2. for every present agent, **in parallel, from the immutable snapshot of the previous tick**:
//!    mind (goal point) → steering behaviours → combiner → avoidance → locomotion;
//! 3. the decisions are applied in agent order (positions, route progress, arrival);
//! 4. the neighbour index is rebuilt and contacts (overlaps) are detected for the recording.
//!
//! Step 2 reads only the snapshot and writes only its own result, and step 3 is sequential,
//! so the outcome is bit-identical at any thread count.

use std::sync::Arc;

use glam::Vec2;
use rayon::prelude::*;

use crate::record::{
    AgentSample, AvoidanceDebug, Contact, ContactWith, FLAG_ARRIVED, FLAG_COLLIDING, ForceSample, Frame,
};
use crate::scene::steering::Combiner;
use crate::scene::{ArrivalPolicy, Scene};
use crate::sim::avoid::{AvoidObstacles, Neighbourhood, Snapshot};
use crate::sim::locomotion::{advance, preferred_velocity};
use crate::sim::mind::{Mind, MindEvent, Route, Senses, Signals, WorldMap, exit_loads, spawn_schedule};
use crate::sim::nav::SearchScratch;
use crate::sim::steer::human::{HumanMemory, steer_agent};
use crate::sim::steer::{
    AgentIndex, CombinedSteering, CombinerInput, SteerState, SteeringContext, SteeringObstacles, stria,
};
use crate::sim::{Body, NeighbourGrid, ResolvedProfile, StaticGeometry, Status, non_penetration};

/// Overlaps shallower than this (metres) are not contacts (1 mm).
pub const CONTACT_TOLERANCE: f32 = 1e-3;

pub use crate::sim::mind::STATE_NAMES;

thread_local! {
    /// Each worker thread's A* memory, reused across ticks (Stria's per-simulator pool).
    static SCRATCH: std::cell::RefCell<SearchScratch> = std::cell::RefCell::new(SearchScratch::default());
}

/// Per-agent goal following, owned by the agent (not part of the shared snapshot).
#[derive(Clone, Debug)]
struct AgentMind {
    /// Goals, state machine and path (the mind layer).
    mind: Mind,
    /// The agent's own generator (seeded from scene seed and agent id), wander target and
    /// heading smoother: mutated only by this agent's decision.
    steer: SteerState,
    /// Memory of each human steering of the profile (path edge, wall state, leader memory).
    human: Vec<HumanMemory>,
}

/// What one agent decided this tick, computed from the snapshot.
struct Decision {
    steering: CombinedSteering,
    preferred: Vec2,
    avoidance: Vec2,
    position: Vec2,
    velocity: Vec2,
    heading: Vec2,
    debug: Option<AvoidanceDebug>,
}

/// What the avoidance layer reads besides the steering context: the same snapshot's other
/// agents and obstacles, and what seeds the agent's random generator.
struct AvoidInputs<'a> {
    snapshot: Snapshot<'a>,
    seed: u64,
    tick: u64,
    debug_agent: Option<u32>,
}

/// A simulation in progress.
pub struct World {
    scene: Arc<Scene>,
    profiles: Vec<ResolvedProfile>,
    labels: Vec<String>,
    bodies: Vec<Body>,
    minds: Vec<AgentMind>,
    map: WorldMap,
    statics: StaticGeometry,
    steer_obstacles: SteeringObstacles,
    agent_index: AgentIndex,
    grid: NeighbourGrid,
    max_radius: f32,
    tick: u64,
    avoid_obstacles: AvoidObstacles,
    non_reactive: Vec<bool>,
    debug_agent: Option<u32>,
}

impl World {
    /// Builds the initial state (tick 0) from a valid scene.
    pub fn new(scene: Arc<Scene>) -> World {
        let mut labels = Vec::new();
        let profiles: Vec<ResolvedProfile> = scene
            .profiles
            .iter()
            .map(|p| ResolvedProfile::new(p, &mut labels))
            .collect();
        let map = WorldMap::new(&scene);
        let mut bodies = Vec::with_capacity(scene.agents.len());
        let mut minds = Vec::with_capacity(scene.agents.len());
        let type_of = |name: &Option<String>| {
            name.as_ref()
                .and_then(|n| scene.agent_types.iter().position(|t| &t.name == n))
        };
        let seed = scene.settings.seed;
        for agent in &scene.agents {
            let profile = scene
                .profiles
                .iter()
                .position(|p| p.name == agent.profile)
                .expect("validated scene");
            let heading = Vec2::from_angle(agent.heading_deg.to_radians());
            bodies.push(Body {
                id: agent.id,
                profile: profile as u16,
                position: agent.position,
                velocity: Vec2::ZERO,
                heading,
                radius: profiles[profile].radius,
                status: Status::Waiting,
            });
            let mut mind = Mind::new(agent.id, &agent.goal, type_of(&agent.agent_type), &scene, &map);
            mind.start_time = agent.start_time;
            mind.end_time = agent.end_time;
            minds.push(AgentMind {
                mind: mind.with_waypoint_reach(profiles[profile].waypoint_seek_distance),
                steer: SteerState::new(seed, agent.id, heading, profiles[profile].heading_smoothing),
                human: Vec::new(),
            });
        }
        let first_id = scene.agents.iter().map(|a| a.id + 1).max().unwrap_or(0);
        for spawned in spawn_schedule(&scene, &map, first_id) {
            let heading = Vec2::from_angle(spawned.heading);
            bodies.push(Body {
                id: spawned.id,
                profile: spawned.profile as u16,
                position: spawned.position,
                velocity: Vec2::ZERO,
                heading,
                radius: profiles[spawned.profile].radius,
                status: Status::Waiting,
            });
            let mut mind = Mind::new(spawned.id, &spawned.goal, spawned.agent_type, &scene, &map);
            mind.start_time = spawned.start_time;
            minds.push(AgentMind {
                steer: SteerState::new(seed, spawned.id, heading, profiles[spawned.profile].heading_smoothing),
                mind: mind.with_waypoint_reach(profiles[spawned.profile].waypoint_seek_distance),
                human: Vec::new(),
            });
        }
        let max_radius = profiles.iter().map(|p| p.radius).fold(0.0, f32::max);
        let mut world = World {
            statics: StaticGeometry::new(&scene.obstacles),
            avoid_obstacles: AvoidObstacles::new(&scene.obstacles),
            non_reactive: scene.profiles.iter().map(|p| p.non_reactive).collect(),
            debug_agent: None,
            steer_obstacles: SteeringObstacles::new(&scene.obstacles),
            agent_index: AgentIndex::new(bodies.iter().map(|b| b.id)),
            grid: NeighbourGrid::new(scene.settings.neighbour_index, scene.bounds),
            scene,
            profiles,
            labels,
            bodies,
            minds,
            map,
            max_radius,
            tick: 0,
        };
        world.update_presence();
        world.rebuild_grid();
        world
    }

    /// Records the avoidance constraints of agent `id` in every frame from now on (`None` stops).
    pub fn set_debug_agent(&mut self, id: Option<u32>) {
        self.debug_agent = id;
    }

    /// The scene this world was built from.
    pub fn scene(&self) -> &Arc<Scene> {
        &self.scene
    }

    /// Labels of the recorded behaviour forces (index = `ForceSample::label`).
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Ticks stepped so far.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Simulation time in seconds.
    pub fn time(&self) -> f32 {
        self.tick as f32 * self.scene.settings.dt
    }

    /// Every agent's body, in scene order (spawned agents after the placed ones).
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// Every agent's mind, indexed like [`World::bodies`].
    pub fn minds(&self) -> impl Iterator<Item = &Mind> {
        self.minds.iter().map(|m| &m.mind)
    }

    /// The static navigation map shared by the minds.
    pub fn world_map(&self) -> &WorldMap {
        &self.map
    }

    /// True when no agent can change any more: every agent has left, or (under the stop policy)
    /// arrived at the end of its route. Agents without a goal or on a closed path are never done.
    pub fn all_done(&self) -> bool {
        self.bodies.iter().all(|b| match b.status {
            Status::Removed => true,
            Status::Arrived => self.scene.settings.on_arrival == ArrivalPolicy::Stop,
            Status::Waiting | Status::Active => false,
        })
    }

    /// True once the scene's duration has been simulated.
    pub fn duration_reached(&self) -> bool {
        self.time() >= self.scene.settings.duration - self.scene.settings.dt * 0.5
    }

    fn update_presence(&mut self) {
        let t = self.time();
        for (body, mind) in self.bodies.iter_mut().zip(&self.minds) {
            if body.status == Status::Waiting && t >= mind.mind.start_time {
                body.status = Status::Active;
            }
            if body.status.present() && mind.mind.end_time.is_some_and(|end| t >= end) {
                body.status = Status::Removed;
            }
        }
    }

    fn rebuild_grid(&mut self) {
        let bodies = &self.bodies;
        self.grid.rebuild(
            bodies
                .iter()
                .enumerate()
                .filter(|(_, b)| b.status.present())
                .map(|(i, b)| (i as u32, b.position)),
        );
    }

    /// Advances one tick and returns the recorded frame of its end state.
    pub fn step(&mut self) -> Frame {
        self.remove_arrived();
        self.think();
        let dt = self.scene.settings.dt;
        let time = self.time();
        let decisions: Vec<Option<Decision>> = {
            let (bodies, minds, profiles, grid, scene, statics) = (
                &self.bodies,
                &mut self.minds,
                &self.profiles,
                &self.grid,
                &*self.scene,
                &self.statics,
            );
            let (agents, obstacles) = (&self.agent_index, &self.steer_obstacles);
            let max_radius = self.max_radius;
            let avoid = AvoidInputs {
                snapshot: Snapshot {
                    bodies,
                    non_reactive: &self.non_reactive,
                    obstacles: &self.avoid_obstacles,
                    time,
                },
                seed: scene.settings.seed,
                tick: self.tick,
                debug_agent: self.debug_agent,
            };
            bodies
                .par_iter()
                .zip(minds.par_iter_mut())
                .map_init(
                    || (Vec::new(), Neighbourhood::default()),
                    |(neighbours, scratch), (body, mind)| {
                        body.status.present().then(|| {
                            let boosted;
                            let mut profile = &profiles[body.profile as usize];
                            let factor = mind.mind.speed_factor(scene);
                            if factor != 1.0 {
                                boosted = profile.with_speed_factor(factor);
                                profile = &boosted;
                            }
                            if profile.neighbour_radius > 0.0 {
                                grid.query(body.position, profile.neighbour_radius + max_radius, neighbours);
                                neighbours.retain(|&j| bodies[j as usize].id != body.id);
                            } else {
                                neighbours.clear();
                            }
                            let ctx = SteeringContext {
                                body,
                                profile,
                                goal: mind.mind.goal_point(),
                                neighbours,
                                bodies,
                                dt,
                                statics,
                                agents,
                                obstacles,
                                time,
                                path: match mind.mind.route() {
                                    Some(Route::Path { index, .. }) => Some(&scene.paths[*index]),
                                    _ => None,
                                },
                            };
                            decide(&ctx, mind, &avoid, scratch)
                        })
                    },
                )
                .collect()
        };
        self.tick += 1;
        for (i, decision) in decisions.iter().enumerate() {
            if let Some(d) = decision {
                self.apply(i, d);
            }
        }
        self.update_presence();
        self.rebuild_grid();
        if self.scene.settings.non_penetration {
            non_penetration::enforce(&mut self.bodies, &mut self.grid, self.max_radius);
        }
        self.frame(&decisions)
    }

    /// Every present agent's mind decides its destination, in parallel from the snapshot of
    /// the previous tick (bodies and signals); each mind writes only itself.
    fn think(&mut self) {
        let time = self.time();
        let scene = &*self.scene;
        let signals: Vec<Signals> = self.minds.iter().map(|m| m.mind.signals(scene, time)).collect();
        let radius = scene.evacuation.balancing.as_ref().map_or(0.0, |b| b.crowd_radius);
        let exit_load = exit_loads(&self.map, &self.bodies, radius);
        let (bodies, grid, map) = (&self.bodies, &self.grid, &self.map);
        let (tick, dt) = (self.tick, scene.settings.dt);
        self.minds.par_iter_mut().enumerate().for_each(|(index, agent)| {
            if !bodies[index].status.present() {
                return;
            }
            let senses = Senses {
                index,
                bodies,
                signals: &signals,
                neighbours: grid,
                map,
                scene,
                exit_load: &exit_load,
                time,
                tick,
                dt,
            };
            SCRATCH.with(|scratch| agent.mind.think(&senses, &mut scratch.borrow_mut()));
        });
    }

    fn apply(&mut self, i: usize, d: &Decision) {
        let body = &mut self.bodies[i];
        let mind = &mut self.minds[i].mind;
        body.position = d.position;
        body.velocity = d.velocity;
        body.heading = d.heading;
        match mind.after_move(body.position, &self.scene, &self.map) {
            MindEvent::None => {}
            MindEvent::Arrived => {
                if body.status == Status::Active {
                    body.status = Status::Arrived;
                }
            }
            MindEvent::Left => body.status = Status::Removed,
            MindEvent::Converted(profile) => {
                if let Some(p) = profile {
                    body.profile = p as u16;
                    body.radius = self.profiles[p].radius;
                }
            }
        }
    }

    /// Under the remove policy, agents that arrived in the previous tick (and were recorded
    /// there as arrived) leave before this tick is computed.
    fn remove_arrived(&mut self) {
        if self.scene.settings.on_arrival != ArrivalPolicy::Remove {
            return;
        }
        let mut changed = false;
        for body in self.bodies.iter_mut().filter(|b| b.status == Status::Arrived) {
            body.status = Status::Removed;
            changed = true;
        }
        if changed {
            self.rebuild_grid();
        }
    }

    /// The frame of the current state without stepping (tick 0 of a recording).
    pub fn snapshot_frame(&self) -> Frame {
        self.frame(&[])
    }

    /// Records every present agent; `decisions` (indexed like the bodies, possibly empty)
    /// supply the forces and preferred velocities of the tick just stepped.
    fn frame(&self, decisions: &[Option<Decision>]) -> Frame {
        let mut frame = Frame {
            tick: self.tick,
            time: self.time(),
            ..Frame::default()
        };
        for (i, (body, mind)) in self.bodies.iter().zip(&self.minds).enumerate() {
            if !body.status.present() {
                continue;
            }
            let decision = decisions.get(i).and_then(Option::as_ref);
            let force_start = frame.forces.len() as u32;
            let (steering, preferred, avoidance) = match decision {
                Some(d) => {
                    frame.forces.extend(d.steering.parts.iter().map(|p| ForceSample {
                        label: p.label,
                        force: p.force,
                        kept: p.kept,
                    }));
                    (d.steering.force, d.preferred, d.avoidance)
                }
                None => (Vec2::ZERO, body.velocity, Vec2::ZERO),
            };
            frame.agents.push(AgentSample {
                id: body.id,
                position: body.position,
                velocity: body.velocity,
                heading: mind.steer.display_heading(body.heading),
                preferred_velocity: preferred,
                steering,
                avoidance,
                state: mind.mind.state_index(),
                flags: if mind.mind.arrived() { FLAG_ARRIVED } else { 0 },
                force_start,
                force_count: (frame.forces.len() as u32 - force_start) as u16,
            });
        }
        frame.debug = decisions.iter().flatten().filter_map(|d| d.debug.clone()).collect();
        frame.contacts = self.contacts();
        let mut colliding = std::collections::HashSet::new();
        for c in &frame.contacts {
            colliding.insert(c.agent);
            if let ContactWith::Agent(other) = c.with {
                colliding.insert(other);
            }
        }
        for a in &mut frame.agents {
            if colliding.contains(&a.id) {
                a.flags |= FLAG_COLLIDING;
            }
        }
        frame
    }

    /// Every overlap deeper than [`CONTACT_TOLERANCE`] among present agents and obstacles.
    fn contacts(&self) -> Vec<Contact> {
        let t = self.time();
        let mut contacts = Vec::new();
        let mut near = Vec::new();
        for (i, body) in self.bodies.iter().enumerate().filter(|(_, b)| b.status.present()) {
            self.grid.query(body.position, body.radius + self.max_radius, &mut near);
            for &j in near.iter().filter(|&&j| j as usize > i) {
                let other = &self.bodies[j as usize];
                let depth = body.radius + other.radius - body.position.distance(other.position);
                if depth > CONTACT_TOLERANCE {
                    contacts.push(Contact {
                        agent: body.id,
                        with: ContactWith::Agent(other.id),
                        depth,
                    });
                }
            }
            for (k, depth) in self
                .statics
                .penetrations(body.position, body.radius, t, CONTACT_TOLERANCE)
            {
                contacts.push(Contact {
                    agent: body.id,
                    with: ContactWith::Obstacle(k),
                    depth,
                });
            }
        }
        contacts
    }
}

/// Steering → combiner → avoidance → locomotion for one agent (its mind's memory is its own).
fn decide(ctx: &SteeringContext, mind: &mut AgentMind, avoid: &AvoidInputs, scratch: &mut Neighbourhood) -> Decision {
    let profile = ctx.profile;
    if let Combiner::Popelova(combiner) = &profile.combiner {
        return decide_human(ctx, combiner, mind, avoid, scratch);
    }
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
        profile.combiner.combine(&input, &mut state.rng, |i, rng| {
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
        avoid.seed,
        avoid.tick,
    );
    let (chosen, debug) = avoid_velocity(ctx, avoid, scratch, preferred);
    let (position, velocity, heading) = advance(ctx.body, chosen, profile, ctx.dt);
    if let Some(smoother) = &mut state.smoother {
        smoother.push(heading);
    }
    Decision {
        steering,
        preferred,
        avoidance: chosen - preferred,
        position,
        velocity,
        heading,
        debug,
    }
}

/// The avoidance layer: the profile's method turns `preferred` into the chosen velocity, with
/// the explanation when this agent is being debugged.
fn avoid_velocity(
    ctx: &SteeringContext,
    avoid: &AvoidInputs,
    scratch: &mut Neighbourhood,
    preferred: Vec2,
) -> (Vec2, Option<AvoidanceDebug>) {
    let mut debug =
        (avoid.debug_agent == Some(ctx.body.id)).then(|| AvoidanceDebug::for_agent(ctx.body.id, ctx.body.position));
    let chosen = ctx.profile.avoidance.choose_velocity(
        ctx.body,
        ctx.profile.max_speed,
        preferred,
        ctx.neighbours,
        &avoid.snapshot,
        ctx.dt,
        scratch,
        debug.as_mut(),
    );
    (chosen, debug)
}

/// Popelová's model: the combiner yields the next velocity directly; it is handed to locomotion
/// as the force that produces it in one tick, and a stop may turn the agent to face a point.
fn decide_human(
    ctx: &SteeringContext,
    combiner: &crate::scene::steering::human::PopelovaCombiner,
    mind: &mut AgentMind,
    avoid: &AvoidInputs,
    scratch: &mut Neighbourhood,
) -> Decision {
    let profile = ctx.profile;
    let (parts, human) = steer_agent(ctx, combiner, &mut mind.human, &mut mind.steer.rng);
    let force = (human.velocity - ctx.velocity()) * (profile.mass / ctx.dt);
    let preferred = preferred_velocity(ctx.body, force, profile, ctx.dt);
    let (chosen, debug) = avoid_velocity(ctx, avoid, scratch, preferred);
    let (position, velocity, mut heading) = advance(ctx.body, chosen, profile, ctx.dt);
    if let Some(face) = human.face {
        heading = (face - position).try_normalize().unwrap_or(heading);
    }
    Decision {
        steering: CombinedSteering { force, parts },
        preferred,
        avoidance: chosen - preferred,
        position,
        velocity,
        heading,
        debug,
    }
}
