//! The scene model: everything a user authors, exactly as stored in a `.ron` scene file.
//!
//! Units: metres, seconds; angles in *degrees* (fields end in `_deg`) because people type them.
//! Saving leaves out fields equal to their defaults (see `save_format`); load → save → load gives the same scene.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use super::avoidance::{Avoidance, PreferredVelocity, Unstick};
use super::extras::IndAlgoKeep;
use super::navigation::{AgentType, Evacuation, Gate, Hazard, Navigation, Portal, Region, SpawnGroup};
use super::steering::{BehaviourSpec, Combiner};

/// The scene file format version this build reads and writes.
pub const SCENE_VERSION: u32 = 1;

/// A complete scene: world bounds, simulation settings, agent profiles, agents and static content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// File format version, always [`SCENE_VERSION`].
    pub version: u32,
    /// Short human-readable name shown in the title bar and reports.
    #[serde(default)]
    pub name: String,
    /// What the scene demonstrates and what a user should expect to see.
    #[serde(default)]
    pub description: String,
    /// The world rectangle (metres) that the canvas fits and agents live in.
    pub bounds: Bounds,
    /// Tick length, seed, duration and end-of-goal policy.
    pub settings: SimSettings,
    /// Named agent profiles (physical parameters and behaviours).
    pub profiles: Vec<Profile>,
    /// Individually placed agents.
    pub agents: Vec<Agent>,
    /// Named target points agents can head for.
    #[serde(default)]
    pub targets: Vec<Target>,
    /// Named polylines agents can follow.
    #[serde(default)]
    pub paths: Vec<Path>,
    /// Static and moving non-reactive obstacles.
    #[serde(default)]
    pub obstacles: Vec<Obstacle>,
    /// IndAlgoTest settings kept from an import for the export back (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indalgo: Option<IndAlgoKeep>,
    /// Global path planning settings.
    #[serde(default)]
    pub navigation: Navigation,
    /// Stria's rectangular regions (empty = the whole world is one region).
    #[serde(default)]
    pub regions: Vec<Region>,
    /// Passages between regions.
    #[serde(default)]
    pub portals: Vec<Portal>,
    /// Entry and exit gates on the world's edge.
    #[serde(default)]
    pub gates: Vec<Gate>,
    /// Groups of agents created at gates or over areas.
    #[serde(default)]
    pub spawns: Vec<SpawnGroup>,
    /// Agent types with their state machine parameters.
    #[serde(default)]
    pub agent_types: Vec<AgentType>,
    /// Point threats (fires).
    #[serde(default)]
    pub hazards: Vec<Hazard>,
    /// Exits, alarm and exit balancing.
    #[serde(default)]
    pub evacuation: Evacuation,
    /// Rectangles in which density and mean speed are measured (fundamental diagram points).
    #[serde(default)]
    pub measurement_areas: Vec<MeasurementArea>,
    /// Lines across which the flow of agents is counted.
    #[serde(default)]
    pub measurement_lines: Vec<MeasurementLine>,
}

/// An axis-aligned world rectangle in metres.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
}

impl Bounds {
    /// Width and height of the rectangle.
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// Centre of the rectangle.
    pub fn center(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }
}

/// What happens to an agent once it has reached the end of its goal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ArrivalPolicy {
    /// The agent stays where it arrived, still an obstacle to others.
    #[default]
    Stop,
    /// The agent leaves the simulation.
    Remove,
}

/// How agents find their neighbours each tick.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum NeighbourIndex {
    /// Uniform grid rebuilt every tick, with square cells of `cell_size` metres.
    Grid { cell_size: f32 },
    /// Compare every pair (for measuring the grid against).
    BruteForce,
}

impl Default for NeighbourIndex {
    fn default() -> Self {
        NeighbourIndex::Grid { cell_size: 2.0 }
    }
}

/// Simulation settings of a scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimSettings {
    /// Fixed tick length in seconds (default 0.1).
    pub dt: f32,
    /// Seed of every random decision; per-agent generators derive from it.
    pub seed: u64,
    /// Longest simulated time in seconds; a run stops earlier once every agent is done.
    pub duration: f32,
    /// What happens to an agent that has reached its goal.
    #[serde(default)]
    pub on_arrival: ArrivalPolicy,
    /// Neighbour search structure.
    #[serde(default)]
    pub neighbour_index: NeighbourIndex,
    /// Buckland's non-penetration constraint: after each tick, agents that overlap are pushed
    /// apart so they only touch (default false).
    #[serde(default)]
    pub non_penetration: bool,
    /// Every how many ticks a frame is recorded (default 1 = every tick; larger for long runs).
    #[serde(default = "every_tick", skip_serializing_if = "is_every_tick")]
    pub record_every: u32,
}

fn every_tick() -> u32 {
    1
}

fn is_every_tick(k: &u32) -> bool {
    *k == 1
}

impl Default for SimSettings {
    fn default() -> Self {
        SimSettings {
            dt: 0.1,
            seed: 1,
            duration: 60.0,
            on_arrival: ArrivalPolicy::Stop,
            neighbour_index: NeighbourIndex::default(),
            non_penetration: false,
            record_every: 1,
        }
    }
}

/// Physical parameters and steering set shared by a class of agents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Unique name agents refer to.
    pub name: String,
    /// Body radius in metres.
    pub radius: f32,
    /// Mass in kilograms (force / mass = acceleration).
    pub mass: f32,
    /// Speed cap in m/s.
    pub max_speed: f32,
    /// Cruising speed in m/s that seek/arrive aim for (≤ `max_speed`).
    pub preferred_speed: f32,
    /// Cap on the combined steering force in newtons.
    pub max_force: f32,
    /// Cap on the rate of change of heading, degrees per second.
    pub max_turn_rate_deg: f32,
    /// The steering behaviours with their weights, in priority order.
    pub behaviours: Vec<BehaviourSpec>,
    /// How the behaviours' weighted forces become one steering force.
    #[serde(default)]
    pub combiner: Combiner,
    /// Where the preferred velocity comes from (the steering force, or straight from the goal).
    #[serde(default)]
    pub preferred_velocity: PreferredVelocity,
    /// Velocity-obstacle avoidance method and its parameters (default: none).
    #[serde(default)]
    pub avoidance: Avoidance,
    /// What the agent does when avoidance has held it still short of its goal (only with an
    /// avoidance method).
    #[serde(default)]
    pub unstick: Unstick,
    /// Other agents treat agents of this profile as moving obstacles that do not avoid them.
    #[serde(default)]
    pub non_reactive: bool,
    /// Headings averaged for the displayed (recorded) heading, Buckland's smoothing (0 = off).
    #[serde(default)]
    pub heading_smoothing: u32,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            name: "walker".into(),
            radius: 0.25,
            mass: 1.0,
            max_speed: 1.8,
            preferred_speed: 1.3,
            max_force: 4.0,
            max_turn_rate_deg: 360.0,
            behaviours: BehaviourSpec::pedestrian_defaults(),
            combiner: Combiner::default(),
            preferred_velocity: PreferredVelocity::default(),
            avoidance: Avoidance::default(),
            unstick: Unstick::default(),
            non_reactive: false,
            heading_smoothing: 0,
        }
    }
}

impl Profile {
    /// Switches the profile to avoidance `method`, raising its turn rate to what the method
    /// needs at tick length `dt` ([`Avoidance::min_turn_rate_deg`]) so the profile stays valid.
    pub fn set_avoidance(&mut self, method: Avoidance, dt: f32) {
        self.avoidance = method;
        self.max_turn_rate_deg = self.max_turn_rate_deg.max(method.min_turn_rate_deg(dt));
    }
}

/// What an agent is heading for.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Goal {
    /// No goal: the agent only reacts to others.
    #[default]
    None,
    /// Walk to the named target and arrive there.
    Target(String),
    /// Walk the named path from its first point; stop at the end of an open path, loop a closed one.
    Path(String),
    /// Leave the world through the named exit gate (across regions through portals).
    Exit(String),
    /// Stria's random walk: random points anywhere, forever.
    RandomWalk,
    /// Disjunction: one of the goals, picked at random with the given weights (normalised).
    AnyOf(Vec<(f32, Goal)>),
    /// Conjunction: every goal, in order.
    AllOf(Vec<Goal>),
    /// The named targets in order; with `cycle` the agent loops over them forever, otherwise it
    /// ends at the last one.
    Targets { ids: Vec<String>, cycle: bool },
}

/// One agent placed in the scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Agent {
    /// Unique id, used in recordings and exports.
    pub id: u32,
    /// Name of the profile in [`Scene::profiles`].
    pub profile: String,
    /// Start position in metres.
    pub position: Vec2,
    /// Initial facing in degrees, counter-clockwise from +x.
    pub heading_deg: f32,
    /// Target or path to walk.
    #[serde(default)]
    pub goal: Goal,
    /// Simulation time (s) at which the agent appears.
    #[serde(default)]
    pub start_time: f32,
    /// Simulation time (s) at which the agent is removed, if any.
    #[serde(default)]
    pub end_time: Option<f32>,
    /// Agent type name: a state machine drives the agent instead of its goal alone.
    #[serde(default)]
    pub agent_type: Option<String>,
}

/// A named target point with an arrival radius.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// Unique name referenced by [`Goal::Target`].
    pub id: String,
    /// Position in metres.
    pub position: Vec2,
    /// An agent whose centre is within this distance has arrived (metres).
    pub radius: f32,
}

/// A named polyline agents can walk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Path {
    /// Unique name referenced by [`Goal::Path`].
    pub id: String,
    /// Waypoints in metres, at least two.
    pub points: Vec<Vec2>,
    /// Corridor width in metres; a waypoint counts as reached within half of it.
    pub width: f32,
    /// A closed path loops back from its last point to its first.
    pub closed: bool,
}

/// A static or moving non-reactive obstacle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Obstacle {
    /// A solid disc.
    Circle { center: Vec2, radius: f32 },
    /// A solid simple polygon (either winding order).
    Polygon { vertices: Vec<Vec2> },
    /// A thin wall from `a` to `b`.
    Wall { a: Vec2, b: Vec2 },
    /// A disc moving with constant `velocity` (m/s) that does not avoid anyone.
    MovingCircle { center: Vec2, radius: f32, velocity: Vec2 },
}

/// A named axis-aligned rectangle where density (agents/m²) and mean speed are measured each tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeasurementArea {
    /// Unique name used in metrics and reports.
    pub id: String,
    /// Lower-left corner in metres.
    pub min: Vec2,
    /// Upper-right corner in metres.
    pub max: Vec2,
}

impl MeasurementArea {
    /// Area in square metres.
    pub fn area(&self) -> f32 {
        let size = self.max - self.min;
        size.x * size.y
    }

    /// True when `p` lies inside the rectangle (edges included).
    pub fn contains(&self, p: Vec2) -> bool {
        p.cmpge(self.min).all() && p.cmple(self.max).all()
    }
}

/// A named segment across which agents are counted when their centre crosses it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeasurementLine {
    /// Unique name used in metrics and reports.
    pub id: String,
    /// First end point in metres.
    pub a: Vec2,
    /// Second end point in metres; crossings from the right of a→b to its left count as positive.
    pub b: Vec2,
}

impl Scene {
    /// An empty scene with default settings and one default profile, for the editor's New.
    pub fn empty() -> Scene {
        Scene {
            version: SCENE_VERSION,
            name: "untitled".into(),
            description: String::new(),
            bounds: Bounds {
                min: Vec2::new(-10.0, -10.0),
                max: Vec2::new(10.0, 10.0),
            },
            settings: SimSettings::default(),
            profiles: vec![Profile::default()],
            agents: Vec::new(),
            targets: Vec::new(),
            paths: Vec::new(),
            obstacles: Vec::new(),
            indalgo: None,
            navigation: Navigation::default(),
            regions: Vec::new(),
            portals: Vec::new(),
            gates: Vec::new(),
            spawns: Vec::new(),
            agent_types: Vec::new(),
            hazards: Vec::new(),
            evacuation: Evacuation::default(),
            measurement_areas: Vec::new(),
            measurement_lines: Vec::new(),
        }
    }

    /// The profile with the given name.
    pub fn profile(&self, name: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.name == name)
    }

    /// The target with the given id.
    pub fn target(&self, id: &str) -> Option<&Target> {
        self.targets.iter().find(|t| t.id == id)
    }

    /// The gate with the given id.
    pub fn gate(&self, id: &str) -> Option<&Gate> {
        self.gates.iter().find(|g| g.id == id)
    }

    /// The agent type with the given name.
    pub fn agent_type(&self, name: &str) -> Option<&AgentType> {
        self.agent_types.iter().find(|t| t.name == name)
    }

    /// The path with the given id.
    pub fn path(&self, id: &str) -> Option<&Path> {
        self.paths.iter().find(|p| p.id == id)
    }
}
