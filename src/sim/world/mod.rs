//! The World: a running simulation built from a scene, advanced in fixed ticks.
//!
//! One tick reads top to bottom like RVO2's `doStep` ([`World::step`]):
//! 1. **begin**: under the remove policy, agents that arrived last tick leave;
//! 2. **think**: every present agent's mind picks its goal point, from the snapshot;
//! 3. **decide**: every present agent steers, combines, avoids and integrates, **from the
//!    immutable snapshot of the previous tick** ([`decide`]), and its mind takes in where the
//!    move ends (route progress); phases 2 and 3 run in parallel in one pass ([`decide_all`]),
//!    each agent thinking just before it decides (no agent reads another agent's mind), and
//!    the pass writes each agent's moved body beside the snapshot;
//! 4. **apply**: the moved bodies take the snapshot's place; what the minds reported
//!    (arrival, exit, conversion) is applied in agent order, then presence;
//! 5. **index and record**: the neighbour grid is rebuilt for the next tick while the frame of
//!    the new state is recorded, with contacts and the tick's events ([`record`]), agents
//!    sampled in parallel and joined in order; non-penetration, when on, first pushes agents
//!    apart on the rebuilt grid.
//!
//! Phases 2 and 3 read only the snapshot and write only their own agent, phase 4 swaps the
//! bodies before its ordered reports, and phase 5 writes only the index while it
//! records, so the outcome is bit-identical at any thread count.

mod arrivals;
mod decide;
mod decide_all;
mod population;
mod record;

use std::sync::Arc;

use crate::record::{AgentEvent, AgentTable, Frame};
use crate::scene::{ArrivalPolicy, Scene};
use crate::sim::avoid::{AvoidObstacles, StallMemory};
use crate::sim::body::present;
use crate::sim::mind::{Mind, MindEvent, WorldMap};
use crate::sim::steer::human::HumanMemory;
use crate::sim::steer::{AgentIndex, KeptSums, SteerState, SteeringObstacles};
use crate::sim::{Body, ContactGrid, NeighbourGrid, ResolvedProfile, StaticGeometry, Status, non_penetration};
use arrivals::Arrivals;
use decide::Decision;
use record::{ContactIndex, Recorder};

/// Overlaps shallower than this (metres) are not contacts (1 mm).
pub const CONTACT_TOLERANCE: f32 = 1e-3;

pub use crate::sim::mind::STATE_NAMES;

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
    /// How long the agent has stood still short of its goal, and its sidestep.
    stall: StallMemory,
}

/// What a frame shows of an agent's mind after its move: the heading drawn (smoothed when the
/// profile smooths it), the state's index and whether the agent has arrived.
#[derive(Clone, Copy, Debug, Default)]
struct MindShown {
    heading: glam::Vec2,
    state: u16,
    arrived: bool,
}

impl MindShown {
    /// What `mind` shows of an agent whose body faces `heading`.
    fn of(mind: &AgentMind, heading: glam::Vec2) -> MindShown {
        MindShown {
            heading: mind.steer.display_heading(heading),
            state: mind.mind.state_index(),
            arrived: mind.mind.arrived(),
        }
    }
}

/// A simulation in progress.
pub struct World {
    scene: Arc<Scene>,
    profiles: Vec<ResolvedProfile>,
    labels: Vec<String>,
    table: AgentTable,
    bodies: Vec<Body>,
    minds: Vec<AgentMind>,
    arrivals: Arrivals,
    map: WorldMap,
    statics: StaticGeometry,
    steer_obstacles: SteeringObstacles,
    agent_index: AgentIndex,
    grid: NeighbourGrid,
    /// The index of the frame's contact check, rebuilt in place every tick.
    contacts: ContactGrid,
    max_radius: f32,
    /// True when some profile's behaviours or avoidance read the neighbour grid's cells every
    /// tick.
    cells_every_tick: bool,
    /// True when the frame's contact check finds its agents in the neighbour grid's cells
    /// rather than in its own index: the cells are sorted every tick and no coarser than
    /// [`CONTACT_CELLS_LIMIT`] contact reaches.
    contacts_on_cells: bool,
    /// True when some agent's type drives it with a state machine: the only minds that read
    /// the others' signals.
    machines: bool,
    tick: u64,
    avoid_obstacles: AvoidObstacles,
    non_reactive: Vec<bool>,
    debug_agent: Option<u32>,
    /// A frame the caller is done with ([`World::recycle`]), whose memory the next frame reuses.
    spent: Frame,
    /// What happened to agents in the last tick (or, at tick 0, who is present from the start).
    events: Vec<AgentEvent>,
    /// The last tick's decisions, kept so the next tick reuses their memory.
    decisions: Vec<Option<Decision>>,
    /// The earliest time at which some agent may appear or leave by its times
    /// ([`World::update_presence`]): the least start time of the waiting agents and end time of
    /// the present placed ones (infinite when there are none).
    presence_due: f32,
    /// The bodies as the decide phase moves them, written beside the snapshot it reads; they
    /// take the snapshot's place once every agent has decided, and the snapshot's memory holds
    /// the next tick's moves.
    moved: Vec<Body>,
    /// Each agent's flock sums for the next tick (indexed like the bodies), computed ahead by
    /// the frame's contact check in the scan of the neighbour grid that the sums make anyway
    /// ([`ContactIndex::Cells`]); empty when the contact check had its own index, and emptied
    /// whenever the grid is rebuilt otherwise, as the sums hold only for the grid they read.
    ahead: Vec<Option<KeptSums>>,
}

/// Fewest agents per parallel task of the record phase: enough to outweigh a task's
/// cost, few enough that two threads share the agents evenly.
const AGENTS_PER_TASK: usize = 128;

/// How many contact reaches (twice the largest body radius) wide the neighbour grid's cells may
/// be for the contact check to find its agents there instead of in its own index: measured
/// faster at 3.3 (walkers of radius 0.3 in 2 m cells) and 5 (the 10,000-fish shoal, 0.2 in 2 m),
/// where its own index costs a hashed lookup of 3 runs of cells per agent and a rebuild.
const CONTACT_CELLS_LIMIT: f32 = 5.0;

/// The index, position and radius of every present agent among `bodies`, in order.
fn present_discs(bodies: &[Body]) -> impl Iterator<Item = (u32, glam::Vec2, f32)> + '_ {
    present(bodies).map(|(i, b)| (i, b.position, b.radius))
}

/// The scene's neighbour index, with the k-d tree when some profile asks for its k nearest and
/// the flock's lanes when some profile flocks.
fn neighbour_grid(scene: &Scene, profiles: &[ResolvedProfile]) -> NeighbourGrid {
    let mut grid = NeighbourGrid::new(scene.settings.neighbour_index, scene.bounds);
    if profiles.iter().any(|p| p.nearest.is_some()) {
        grid = grid.with_nearest_tree();
    }
    if profiles.iter().any(|p| p.flock_view.is_some()) {
        grid = grid.with_flock_lanes();
    }
    grid
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
        let max_radius = profiles.iter().map(|p| p.radius).fold(0.0, f32::max);
        let (bodies, minds, table, arrivals) = population::populate(&scene, &map, &profiles, max_radius);
        let cells_every_tick = profiles
            .iter()
            .any(|p| p.behaviour_radius > 0.0 || (p.nearest.is_none() && p.neighbour_radius > 0.0));
        let grid = neighbour_grid(&scene, &profiles);
        let contacts_on_cells = cells_every_tick && grid.cell_size() <= CONTACT_CELLS_LIMIT * 2.0 * max_radius;
        let mut world = World {
            statics: StaticGeometry::new(&scene.obstacles),
            avoid_obstacles: AvoidObstacles::new(&scene.obstacles),
            non_reactive: scene.profiles.iter().map(|p| p.non_reactive).collect(),
            debug_agent: None,
            spent: Frame::default(),
            steer_obstacles: SteeringObstacles::new(&scene.obstacles),
            agent_index: AgentIndex::new(bodies.iter().map(|b| b.id)),
            grid,
            contacts: ContactGrid::default(),
            max_radius,
            cells_every_tick,
            contacts_on_cells,
            machines: minds.iter().any(|m| m.mind.machine().is_some()),
            scene,
            profiles,
            labels,
            table,
            bodies,
            minds,
            arrivals,
            map,
            tick: 0,
            events: Vec::new(),
            decisions: Vec::new(),
            moved: Vec::new(),
            ahead: Vec::new(),
            presence_due: f32::NEG_INFINITY,
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

    /// Every agent that can appear in the run and the compiled profiles (the recording's
    /// agent table).
    pub fn agent_table(&self) -> &AgentTable {
        &self.table
    }

    /// Ticks stepped so far.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Simulation time in seconds.
    pub fn time(&self) -> f32 {
        self.time_at(self.tick)
    }

    /// Simulation time in seconds at `tick`.
    fn time_at(&self, tick: u64) -> f32 {
        tick as f32 * self.scene.settings.dt
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

    /// Placed agents whose start time has come appear and those past their end time leave;
    /// then spawned agents whose start time has come appear where they touch nobody
    /// ([`arrivals`]). Nothing is read before [`World::presence_due`], since nothing can change
    /// then: the loop over every agent would run alone on one thread between the parallel phases,
    /// reading bodies the other threads wrote.
    fn update_presence(&mut self) {
        let t = self.time();
        if t < self.presence_due {
            return;
        }
        let placed = self.arrivals.first();
        // The next time a placed agent appears or leaves, gathered on the way.
        let mut due = f32::INFINITY;
        for (body, mind) in self.bodies[..placed].iter_mut().zip(&self.minds) {
            if body.status == Status::Waiting && t >= mind.mind.start_time {
                body.status = Status::Active;
                self.events.push(AgentEvent::Appeared { agent: body.id });
            }
            if body.status.present() && mind.mind.end_time.is_some_and(|end| t >= end) {
                body.status = Status::Removed;
                self.events.push(AgentEvent::Left { agent: body.id });
            }
            due = due.min(match body.status {
                Status::Waiting => mind.mind.start_time,
                status if status.present() => mind.mind.end_time.unwrap_or(f32::INFINITY),
                _ => f32::INFINITY,
            });
        }
        let spawned_due = self.arrivals.admit(
            t,
            &mut self.bodies,
            &self.minds,
            &self.scene,
            &self.map,
            &mut self.events,
        );
        self.presence_due = due.min(spawned_due);
    }

    fn rebuild_grid(&mut self) {
        self.ahead.clear();
        self.grid.rebuild_bodies(&self.bodies);
    }

    /// Takes back `frame`, a frame of this world's that the caller has done with: the next step
    /// writes its agents' samples and forces into that frame's memory instead of fresh memory
    /// (1.3 MB for 10,000 agents with four forces each, otherwise written twice a tick). The
    /// frames stepped are the same either way.
    pub fn recycle(&mut self, frame: Frame) {
        self.spent = frame;
    }

    /// Advances one tick and returns the recorded frame of its end state.
    pub fn step(&mut self) -> Frame {
        self.events.clear();
        self.remove_arrived();
        let mut decisions = std::mem::take(&mut self.decisions);
        let reported = self.think_and_decide_all(&mut decisions);
        self.apply_all(&decisions, reported);
        let frame = self.index_and_record(&decisions);
        self.decisions = decisions;
        frame
    }

    /// Applies the decisions and moves the clock on: the bodies the decide phase moved take the
    /// snapshot's place, then, when some mind `reported` an event of its move, the events are
    /// applied in agent order ([`World::react`]), and who is present is updated.
    fn apply_all(&mut self, decisions: &[Option<Decision>], reported: bool) {
        self.tick += 1;
        std::mem::swap(&mut self.bodies, &mut self.moved);
        if reported {
            for (i, decision) in decisions.iter().enumerate() {
                if let Some(d) = decision
                    && d.event != MindEvent::None
                {
                    self.react(i, d.event);
                }
            }
        }
        self.update_presence();
    }

    /// Rebuilds the neighbour index for the next tick and records the frame of the tick's end
    /// state ([`Recorder::record`]) with `decisions`' forces. Non-penetration first pushes agents
    /// apart on the index; without it the bodies are final, so the index is rebuilt (its cells
    /// sorted too when the next tick reads them) while the frame is recorded — or, when its cells
    /// serve the contact check too ([`CONTACT_CELLS_LIMIT`]), while the frame is laid out.
    fn index_and_record(&mut self, decisions: &[Option<Decision>]) -> Frame {
        let spent = std::mem::take(&mut self.spent);
        if self.scene.settings.non_penetration {
            self.rebuild_grid();
            non_penetration::enforce(&mut self.bodies, &mut self.grid, self.max_radius, &self.statics);
            self.contacts.rebuild(self.max_radius, present_discs(&self.bodies));
            return self
                .recorder()
                .record(decisions, spent, || ContactIndex::Hashed(&self.contacts), None);
        }
        let time = self.time();
        let debugged = self.debugged();
        let World {
            grid,
            contacts,
            bodies,
            minds,
            statics,
            events,
            tick,
            max_radius,
            cells_every_tick,
            contacts_on_cells,
            profiles,
            ahead,
            ..
        } = self;
        let bodies: &[Body] = bodies;
        let recorder = Recorder {
            bodies,
            minds,
            profiles,
            statics,
            events,
            tick: *tick,
            time,
            debugged,
        };
        if *contacts_on_cells {
            // One index for both: the neighbour grid, rebuilt and sorted for the next tick while
            // the frame is laid out, finds the contacts too.
            let max_radius = *max_radius;
            let index_neighbours = move || {
                // The grid taken by value, so that the closure can hand out what it rebuilt.
                let grid = grid;
                grid.rebuild_bodies(bodies);
                grid.sort_cells();
                ContactIndex::Cells(&*grid, max_radius)
            };
            return recorder.record(decisions, spent, index_neighbours, Some(ahead));
        }
        // The calling thread rebuilds the index, the other builds the contact check's index;
        // whichever is done first lays the frame out, then both sample its blocks.
        let index_neighbours = || {
            grid.rebuild_bodies(bodies);
            if *cells_every_tick {
                grid.sort_cells();
            }
        };
        let index_contacts = move || {
            // The index taken by value, so that the closure can hand out what it rebuilt.
            let contacts = contacts;
            contacts.rebuild(*max_radius, present_discs(bodies));
            ContactIndex::Hashed(&*contacts)
        };
        let record = || recorder.record(decisions, spent, index_contacts, Some(ahead));
        rayon::join(index_neighbours, record).1
    }

    /// What agent `i`'s mind reported after its move, applied: arrival, exit or conversion.
    fn react(&mut self, i: usize, event: MindEvent) {
        let body = &mut self.bodies[i];
        match event {
            MindEvent::None => {}
            MindEvent::Arrived => {
                if body.status == Status::Active {
                    body.status = Status::Arrived;
                    self.events.push(AgentEvent::Arrived { agent: body.id });
                }
            }
            MindEvent::Left => {
                // Out through its gate or exit: the end of its goal, then gone.
                body.status = Status::Removed;
                self.events.push(AgentEvent::Arrived { agent: body.id });
                self.events.push(AgentEvent::Left { agent: body.id });
            }
            MindEvent::Converted(profile) => {
                if let Some(p) = profile.filter(|&p| p as u32 != body.profile) {
                    self.events.push(AgentEvent::ProfileChanged {
                        agent: body.id,
                        from: body.profile,
                        to: p as u32,
                    });
                    body.profile = p as u32;
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
            self.events.push(AgentEvent::Left { agent: body.id });
            changed = true;
        }
        if changed {
            self.rebuild_grid();
        }
    }

    /// The frame of the current state without stepping (tick 0 of a recording): no forces,
    /// and the events of the last tick (at tick 0, the agents present from the start).
    pub fn snapshot_frame(&self) -> Frame {
        let contacts = ContactGrid::new(self.max_radius, present_discs(&self.bodies));
        self.recorder()
            .record(&[], Frame::default(), || ContactIndex::Hashed(&contacts), None)
    }

    /// The record phase's view of the world as it is.
    fn recorder(&self) -> Recorder<'_> {
        Recorder {
            bodies: &self.bodies,
            minds: &self.minds,
            profiles: &self.profiles,
            statics: &self.statics,
            events: &self.events,
            tick: self.tick,
            time: self.time(),
            debugged: self.debugged(),
        }
    }

    /// The body index of the agent whose avoidance is being explained, if it is in the scene.
    fn debugged(&self) -> Option<usize> {
        self.debug_agent.and_then(|id| self.agent_index.get(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::steering::{Behaviour, BehaviourSpec, FlockPreset};
    use crate::scene::{Agent, Goal, default_scene};

    /// 400 walkers of two sizes (0.3 and 0.5 m) packed into the default scene's 24 m × 20 m and
    /// a metre past its bounds (clamped into the border cells), its 2 m cells within the
    /// contact check's limit; with `flocking`, their one behaviour is a flock with that
    /// neighbourhood radius.
    fn packed_walkers(flocking: Option<f32>) -> World {
        let mut scene = default_scene();
        if let Some(view_radius) = flocking {
            let flock = Behaviour::Flocking {
                preset: FlockPreset::Reynolds,
                view_radius,
                fov_deg: 270.0,
            };
            scene.profiles[0].behaviours = vec![BehaviourSpec::new(flock, 1.0)];
        }
        let mut big = scene.profiles[0].clone();
        big.name = "big".into();
        big.radius = 0.5;
        scene.profiles.push(big);
        let mut next = crate::test_rng::unit_floats(99);
        let walker = scene.agents[0].clone();
        scene.agents = (0..400)
            .map(|i| Agent {
                id: i,
                profile: if i % 3 == 0 { "big" } else { "walker" }.into(),
                position: glam::Vec2::new(next() * 26.0 - 13.0, next() * 22.0 - 11.0),
                goal: Goal::None,
                ..walker.clone()
            })
            .collect();
        let world = World::new(Arc::new(scene));
        assert!(world.contacts_on_cells);
        world.grid.sort_cells();
        world
    }

    /// A frame's contacts, depths to the bit, and its agents' flags.
    fn contacts_and_flags(f: &Frame) -> (Vec<(u32, String, u32)>, Vec<u8>) {
        let contacts = f.contacts.iter();
        let contacts = contacts.map(|c| (c.agent, format!("{:?}", c.with), c.depth.to_bits()));
        (contacts.collect(), f.agents.iter().map(|a| a.flags).collect())
    }

    #[test]
    fn contacts_found_in_the_neighbour_cells_are_those_of_the_contact_index() {
        // Both indexes find the same contacts, depths to the bit, and the same colliding flags.
        let world = packed_walkers(None);
        let own_index = ContactGrid::new(world.max_radius, present_discs(&world.bodies));
        let hashed = world
            .recorder()
            .record(&[], Frame::default(), || ContactIndex::Hashed(&own_index), None);
        let cells = || ContactIndex::Cells(&world.grid, world.max_radius);
        let on_cells = world.recorder().record(&[], Frame::default(), cells, None);
        assert!(hashed.contacts.len() > 200, "{} contacts", hashed.contacts.len());
        assert_eq!(contacts_and_flags(&hashed), contacts_and_flags(&on_cells));
    }

    #[test]
    fn the_contact_check_computes_the_flock_sums_the_next_tick_would() {
        // Walkers flocking with a neighbourhood of 0.4 m: the small ones (0.3 m) reach no
        // farther for contacts (0.3 + 0.5) than their flock's scan (0.4 + 0.5), so that scan
        // finds their contacts and their sums; the big ones (1 m) are checked apart.
        let world = packed_walkers(Some(0.4));
        let cells = || ContactIndex::Cells(&world.grid, world.max_radius);
        let plain = world.recorder().record(&[], Frame::default(), cells, None);
        let mut ahead = vec![None; 3];
        let fused = world.recorder().record(&[], Frame::default(), cells, Some(&mut ahead));
        assert_eq!(contacts_and_flags(&plain), contacts_and_flags(&fused));
        assert_eq!(ahead.len(), world.bodies.len());
        for (i, (body, kept)) in world.bodies.iter().zip(&ahead).enumerate() {
            let view = world.profiles[body.profile as usize]
                .flock_view
                .expect("every profile flocks");
            if body.radius > 0.3 {
                assert_eq!(*kept, None, "agent {i}");
                continue;
            }
            let (p, heading) = (body.position, body.heading);
            let sums = world.grid.flock_sums(p, heading, view, i as u32, world.max_radius);
            assert_eq!(*kept, Some((view, sums)), "agent {i}");
        }
        assert!(ahead.iter().flatten().any(|(_, sums)| sums.count > 0));
        // An index of its own finds no sums, and leaves none from before.
        let own_index = ContactGrid::new(world.max_radius, present_discs(&world.bodies));
        let hashed = || ContactIndex::Hashed(&own_index);
        world.recorder().record(&[], Frame::default(), hashed, Some(&mut ahead));
        assert!(ahead.is_empty());
    }

    #[test]
    fn the_frame_explains_the_avoidance_of_the_debugged_agent_alone() {
        // The default scene's walkers renumbered 109 down to 101, no id equal to a place, so
        // that the frame must find the debugged agent's decision by its id.
        let mut scene = default_scene();
        let count = scene.agents.len() as u32;
        for (place, agent) in scene.agents.iter_mut().enumerate() {
            agent.id = 100 + count - place as u32;
        }
        let mut world = World::new(Arc::new(scene));
        let explained = |frame: Frame| frame.debug.iter().map(|d| d.agent).collect::<Vec<_>>();
        for id in [100 + count, 103, 101] {
            world.set_debug_agent(Some(id));
            assert_eq!(explained(world.step()), vec![id]);
        }
        world.set_debug_agent(Some(7));
        assert_eq!(explained(world.step()), Vec::<u32>::new(), "no agent has id 7");
        world.set_debug_agent(None);
        assert_eq!(explained(world.step()), Vec::<u32>::new());
    }

    /// The default scene with its walkers starting `start_step` seconds apart (the first at 0)
    /// and ending `end_step` apart (the first at `first_end`).
    fn staggered_scene(start_step: f32, first_end: f32, end_step: f32) -> Arc<Scene> {
        let mut scene = default_scene();
        for (place, agent) in scene.agents.iter_mut().enumerate() {
            agent.start_time = start_step * place as f32;
            agent.end_time = Some(first_end + end_step * place as f32);
        }
        Arc::new(scene)
    }

    #[test]
    fn agents_appear_and_leave_at_the_first_tick_their_times_have_come() {
        // Placed walkers starting and ending at times on and between ticks; presence is read
        // only when some time is due, and each still appears and leaves at the first tick
        // whose time has reached its own.
        let scene = staggered_scene(0.25, 1.0, 0.35);
        let mut world = World::new(Arc::clone(&scene));
        let mut happened: Vec<(u64, AgentEvent)> = world.events.iter().map(|e| (0, *e)).collect();
        while world.presence_due.is_finite() {
            assert!(world.tick < 1000, "presence still due at {}", world.presence_due);
            let frame = world.step();
            happened.extend(frame.events.iter().map(|e| (frame.tick, *e)));
        }
        let first_tick_at = |time: f32| (0..).find(|&k| world.time_at(k) >= time).unwrap();
        for agent in &scene.agents {
            let id = agent.id;
            let appeared = happened
                .iter()
                .find(|(_, e)| *e == AgentEvent::Appeared { agent: id })
                .map(|&(k, _)| k);
            let left = happened
                .iter()
                .find(|(_, e)| *e == AgentEvent::Left { agent: id })
                .map(|&(k, _)| k);
            assert_eq!(appeared, Some(first_tick_at(agent.start_time)), "agent {id} appeared");
            assert_eq!(left, Some(first_tick_at(agent.end_time.unwrap())), "agent {id} left");
        }
        assert_eq!(world.presence_due, f32::INFINITY);
    }

    #[test]
    fn a_world_stepping_into_spent_frames_steps_the_same_frames() {
        // Walkers that start late (the crowd grows) and leave early (it shrinks), so that the
        // spent frame is in turn shorter and longer than the next.
        let scene = staggered_scene(0.3, 2.0, 0.2);
        let (mut fresh, mut recycling) = (World::new(Arc::clone(&scene)), World::new(scene));
        let mut counts = Vec::new();
        for _ in 0..40 {
            let frame = fresh.step();
            let reused = recycling.step();
            assert_eq!(frame, reused, "tick {}", frame.tick);
            counts.push(frame.agents.len());
            recycling.recycle(reused);
        }
        let (most, last) = (counts.iter().max().copied(), counts.last().copied());
        assert!(
            counts[0] < 3 && most > Some(5) && last < most,
            "agents present: {counts:?}"
        );
    }
}
