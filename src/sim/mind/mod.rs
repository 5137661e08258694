//! The mind layer (action selection): decides where each agent heads, and when it leaves.
//!
//! Three drivers: a scene goal followed directly ([`Route`]: a target or a path), Stria's goal
//! stack ([`GoalStack`]: exits, random walk, disjunction, conjunction, target cycles, across
//! regions and portals), or an agent type's state machine ([`Machine`], Oblak). Whatever the
//! driver, a [`Navigator`] turns its destination into the waypoint the steering behaviours seek.
//! Minds update in parallel from the previous tick's snapshot (bodies and [`Signals`]); their
//! effects on the world (arrival, leaving, conversion) are applied in agent order.

mod goals;
mod machine;
mod navigator;
mod route;
mod senses;
mod spawn;
mod world_map;

pub use goals::{GoalStack, StackEvent, StackGoal};
pub use machine::{Machine, MachineEvent, State};
pub use navigator::{Destination, Navigator};
pub use route::{Route, RouteProgress};
pub use senses::{Senses, Signals, exit_loads};
pub use spawn::{SpawnedAgent, gate_slots_near, spawn_schedule};
pub use world_map::{Rect, WorldMap};

use glam::Vec2;
use rand::SeedableRng;
use rand_pcg::Pcg32;

use crate::scene::{Goal, Scene};
use crate::sim::nav::SearchScratch;
use crate::sim::steer::GoalPoint;

/// Names of the recorded mind states, indexed by `AgentSample::state`.
pub const STATE_NAMES: [&str; 9] = [
    "walking", "arrived", "idle", "wander", "move", "search", "flee", "chase", "caught",
];

/// Who drives an agent's choices.
#[derive(Clone, Debug)]
enum Driver {
    Route(Route, RouteProgress),
    Stack(GoalStack),
    Machine(Box<Machine>),
}

/// What the world must do after an agent moved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MindEvent {
    /// Nothing.
    #[default]
    None,
    /// The agent reached the end of its goal.
    Arrived,
    /// The agent left the world (through a gate or to an exit).
    Left,
    /// The agent turned into another type and takes on this profile index.
    Converted(Option<usize>),
}

/// One agent's mind.
#[derive(Clone, Debug)]
pub struct Mind {
    driver: Driver,
    navigator: Navigator,
    rng: Pcg32,
    /// Simulation time (s) at which the agent appears.
    pub start_time: f32,
    /// Simulation time (s) at which the agent is removed, if any.
    pub end_time: Option<f32>,
    arrived: bool,
    /// The agent reached an exit (escaped).
    pub escaped: bool,
    /// The exit it escaped through (index into `Scene::evacuation.exits`).
    pub exit_used: Option<usize>,
    /// The agent was converted to another type.
    pub converted: bool,
    /// The gate the agent left by, if it left through one.
    pub left_by: Option<usize>,
}

impl Mind {
    /// The mind of an agent with `goal` and optional type index, seeded from scene seed and id.
    pub fn new(id: u32, goal: &Goal, agent_type: Option<usize>, scene: &Scene, map: &WorldMap) -> Mind {
        let mut rng = Pcg32::seed_from_u64(scene.settings.seed ^ (u64::from(id) << 32) ^ 0x6d69_6e64);
        let driver = match (agent_type, goal) {
            (Some(kind), _) => {
                let goal_point = match goal {
                    Goal::Target(id) => scene.target(id).map(|t| t.position),
                    _ => None,
                };
                let t = &scene.agent_types[kind];
                Driver::Machine(Box::new(Machine::new(kind, t, goal_point, map.exits.len(), &mut rng)))
            }
            (None, Goal::None | Goal::Target(_) | Goal::Path(_)) => {
                Driver::Route(Route::new(goal, scene), RouteProgress::default())
            }
            (None, goal) => Driver::Stack(GoalStack::new(goal.clone())),
        };
        Mind {
            driver,
            navigator: Navigator::default(),
            rng,
            start_time: 0.0,
            end_time: None,
            arrived: false,
            escaped: false,
            exit_used: None,
            converted: false,
            left_by: None,
        }
    }

    /// The same mind with path waypoints reached within `distance` instead of half the path
    /// width (Buckland's FollowPath waypoint seek distance); only a route-driven mind changes.
    pub fn with_waypoint_reach(mut self, distance: Option<f32>) -> Mind {
        if let Driver::Route(route, _) = &mut self.driver {
            *route = route.clone().with_waypoint_reach(distance);
        }
        self
    }

    /// Decides this tick's destination from the snapshot and updates the path toward it.
    pub fn think(&mut self, senses: &Senses, scratch: &mut SearchScratch) {
        let position = senses.position();
        let destination = match &mut self.driver {
            Driver::Route(route, progress) => route.goal_point(*progress, senses.scene).map(|g| Destination {
                point: g.position,
                is_final: g.is_final,
            }),
            Driver::Stack(stack) => stack.destination(position, senses.scene, senses.map, &mut self.rng),
            Driver::Machine(machine) => {
                machine.think(&senses.scene.agent_types[machine.kind], senses, &mut self.rng);
                machine.destination()
            }
        };
        let id = senses.body().id;
        self.navigator
            .update(destination, position, id, senses.tick, senses.map, scratch);
    }

    /// Plans the path afresh on the next planning tick (the agent is stuck).
    pub fn replan(&mut self) {
        self.navigator.replan();
    }

    /// The point the steering behaviours head for.
    pub fn goal_point(&self) -> Option<GoalPoint> {
        self.navigator.goal_point()
    }

    /// The remaining path waypoints (for drawing).
    pub fn path(&self) -> &[Vec2] {
        self.navigator.remaining()
    }

    /// Updates progress after the agent moved to `position`; `sees(a, b)` tells whether no
    /// obstacle stands between two points.
    pub fn after_move(
        &mut self,
        position: Vec2,
        scene: &Scene,
        map: &WorldMap,
        sees: &dyn Fn(Vec2, Vec2) -> bool,
    ) -> MindEvent {
        match &mut self.driver {
            Driver::Route(route, progress) => {
                *progress = route.advance(*progress, position, scene, sees);
                if progress.done && !self.arrived {
                    self.arrived = true;
                    return MindEvent::Arrived;
                }
            }
            Driver::Stack(stack) => match stack.after_move(position, map, &mut self.rng) {
                StackEvent::Busy => {}
                StackEvent::Arrived => {
                    self.arrived = true;
                    return MindEvent::Arrived;
                }
                StackEvent::Left(gate) => {
                    self.left_by = Some(gate);
                    return MindEvent::Left;
                }
            },
            Driver::Machine(machine) => match machine.after_move(position, &map.exits) {
                MachineEvent::None => {}
                MachineEvent::Escaped(exit) => {
                    self.escaped = true;
                    self.exit_used = Some(exit);
                    return MindEvent::Left;
                }
                MachineEvent::Converted(kind) => {
                    let t = &scene.agent_types[kind];
                    **machine = Machine::new(kind, t, None, map.exits.len(), &mut self.rng);
                    self.converted = true;
                    return MindEvent::Converted(
                        t.profile
                            .as_ref()
                            .and_then(|p| scene.profiles.iter().position(|x| &x.name == p)),
                    );
                }
            },
        }
        MindEvent::None
    }

    /// True once the end of the goal was reached.
    pub fn arrived(&self) -> bool {
        self.arrived
    }

    /// Index into [`STATE_NAMES`] of what the mind did this tick.
    pub fn state_index(&self) -> u16 {
        match &self.driver {
            Driver::Machine(m) => 2 + m.state() as u16,
            _ => u16::from(self.arrived),
        }
    }

    /// The state machine, if a type drives the agent.
    pub fn machine(&self) -> Option<&Machine> {
        match &self.driver {
            Driver::Machine(m) => Some(m),
            _ => None,
        }
    }

    /// The scene route, if the agent follows its goal directly.
    pub fn route(&self) -> Option<&Route> {
        match &self.driver {
            Driver::Route(route, _) => Some(route),
            _ => None,
        }
    }

    /// The goal stack, if one drives the agent.
    pub fn goal_stack(&self) -> Option<&GoalStack> {
        match &self.driver {
            Driver::Stack(s) => Some(s),
            _ => None,
        }
    }

    /// Max and preferred speed multiplier from panic (1 without panic).
    pub fn speed_factor(&self, scene: &Scene) -> f32 {
        self.machine()
            .map_or(1.0, |m| 1.0 + scene.agent_types[m.kind].panic_speed_gain * m.panic())
    }

    /// What the other agents can perceive of this one at `time`.
    pub fn signals(&self, scene: &Scene, time: f32) -> Signals {
        match self.machine() {
            Some(m) => {
                let t = &scene.agent_types[m.kind];
                let (panic, exits) = m.shared(t, time);
                Signals {
                    role: Some(t.role),
                    panic,
                    exits,
                    caught: m.caught(),
                }
            }
            None => Signals::default(),
        }
    }
}
