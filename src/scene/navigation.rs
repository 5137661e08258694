//! The scene model of global navigation and agent minds: planner settings, Stria's regions,
//! portals and gates, spawn groups, Oblak's agent types, hazards and evacuation settings.
//! Every field has a serde default, so scenes written before these existed still load.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use super::model::Goal;

/// Global path planning settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct Navigation {
    /// Which planner agents use (`Straight` = none).
    pub planner: PlannerKind,
    /// Occupancy grid cell size in metres (Stria: 0.25).
    pub cell_size: f32,
    /// Border width in metres around obstacles; `None` = the largest profile radius.
    pub border: Option<f32>,
    /// An agent whose destination changed re-plans on the next tick t with (t + id) divisible by
    /// this, so planning cost is spread over ticks.
    pub replan_stagger: u32,
}

/// Which global planner agents use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum PlannerKind {
    /// No planning: agents head straight for their goal points (local steering only).
    #[default]
    Straight,
    /// A* on the 4-connected occupancy grid, then line-of-sight smoothing.
    Grid,
    /// A* on the quadtree (grid A* as fallback), then line-of-sight smoothing.
    Quadtree,
    /// Theta* on the 8-connected grid: any-angle paths without a smoothing pass.
    AnyAngle,
}

impl Default for Navigation {
    fn default() -> Self {
        Navigation {
            planner: PlannerKind::Straight,
            cell_size: 0.25,
            border: None,
            replan_stagger: 5,
        }
    }
}

/// A rectangular region of Stria's world (regions tile the bounds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Region {
    /// Unique id.
    pub id: String,
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
}

/// A passage between two regions: an axis-aligned segment on their shared boundary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Portal {
    /// Unique id.
    pub id: String,
    /// The two region ids it joins.
    pub regions: (String, String),
    /// One end of the segment.
    pub from: Vec2,
    /// The other end.
    pub to: Vec2,
}

/// Which way agents may pass a gate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum GateDirection {
    /// Agents only enter the world here.
    In,
    /// Agents only leave the world here.
    Out,
    /// Both.
    #[default]
    InOut,
}

/// Where agents enter or leave the world: a segment on the world's edge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gate {
    /// Unique id.
    pub id: String,
    /// One end of the segment.
    pub from: Vec2,
    /// The other end.
    pub to: Vec2,
    /// Entry, exit or both.
    #[serde(default)]
    pub direction: GateDirection,
}

/// Where a spawn group's agents appear.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum SpawnSource {
    /// At a random point of an entry gate, one after another.
    Gate(String),
    /// Spread over a rectangle on a jittered lattice.
    Area { min: Vec2, max: Vec2 },
}

/// A normally distributed time in seconds (negative draws count as 0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interval {
    /// Mean in seconds.
    pub mean: f32,
    /// Standard deviation in seconds.
    pub sd: f32,
}

/// A group of agents created by the simulator rather than placed one by one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpawnGroup {
    /// Gate or area.
    pub source: SpawnSource,
    /// How many agents the group creates.
    pub count: u32,
    /// Profile name.
    pub profile: String,
    /// Agent type name (a state machine drives the agent), if any.
    #[serde(default)]
    pub agent_type: Option<String>,
    /// The goal each agent gets.
    #[serde(default)]
    pub goal: Goal,
    /// Time of the first arrival in seconds.
    #[serde(default)]
    pub start_time: f32,
    /// Time between arrivals ~ N(mean, sd), drawn from the group's own seeded generator;
    /// `None` = all at once.
    #[serde(default)]
    pub interval: Option<Interval>,
}

/// The role an agent type plays (Oblak's type 1 and type 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Role {
    /// An ordinary person: idles, wanders, moves, searches for exits, flees threats.
    #[default]
    Person,
    /// A predator: searches for people, chases and catches them.
    Zombie,
}

/// An agent type: which state machine runs and its parameters (Oblak §2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct AgentType {
    /// Unique name.
    pub name: String,
    /// Person or zombie.
    pub role: Role,
    /// Sensing radius in metres (agents, threats, exits).
    pub perception: f32,
    /// Seconds idle before wandering.
    pub idle_time: f32,
    /// Seconds of wandering before idling again.
    pub wander_time: f32,
    /// Length of one wander leg in metres.
    pub wander_step: f32,
    /// The agent knows every exit from the start.
    pub knows_exits: bool,
    /// Weight of own panic in the total.
    pub own_panic_weight: f32,
    /// Weight of panic acquired from neighbours in the total.
    pub acquired_panic_weight: f32,
    /// Max and preferred speed are multiplied by 1 + gain × total panic.
    pub panic_speed_gain: f32,
    /// Seconds before panic or exit knowledge an agent acquired is passed on (per hop).
    pub hop_delay: f32,
    /// Flee until this far from the threat's last known position (metres).
    pub flee_distance: f32,
    /// Points sampled by the Search state.
    pub search_points: u32,
    /// A zombie catches a person within this centre distance (metres).
    pub catch_distance: f32,
    /// Seconds a zombie rests after a catch.
    pub rest_time: f32,
    /// Seconds after being caught until a person turns into `convert_to`.
    pub conversion_delay: f32,
    /// The type a caught person turns into (zombie scenes).
    pub convert_to: Option<String>,
    /// The profile a converted agent takes on (`None` keeps its own).
    pub profile: Option<String>,
}

impl Default for AgentType {
    fn default() -> Self {
        AgentType {
            name: "person".into(),
            role: Role::Person,
            perception: 8.0,
            idle_time: 2.0,
            wander_time: 10.0,
            wander_step: 3.0,
            knows_exits: false,
            own_panic_weight: 1.0,
            acquired_panic_weight: 0.8,
            panic_speed_gain: 0.6,
            hop_delay: 1.0,
            flee_distance: 10.0,
            search_points: 12,
            catch_distance: 0.8,
            rest_time: 2.0,
            conversion_delay: 3.0,
            convert_to: None,
            profile: None,
        }
    }
}

/// A point threat (a fire) that appears at `start_time` and is sensed within perception range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hazard {
    /// Position in metres.
    pub position: Vec2,
    /// Time it starts, in seconds.
    #[serde(default)]
    pub start_time: f32,
    /// Radius of the burning area in metres (drawn; agents keep out of it by fleeing).
    #[serde(default = "default_hazard_radius")]
    pub radius: f32,
}

fn default_hazard_radius() -> f32 {
    1.0
}

/// Evacuation settings: the exits (safe zones) and when the alarm sounds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct Evacuation {
    /// Target ids of the exits / shelters; an agent reaching one has escaped and leaves.
    pub exits: Vec<String>,
    /// At this time every person that knows an exit moves to it; `None` = no alarm.
    pub alarm_time: Option<f32>,
    /// Exit-cost balancing (Oblak's three-exit scene); `None` = nearest exit.
    pub balancing: Option<ExitBalancing>,
}

/// Raises an exit's cost with the number of agents crowding in front of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExitBalancing {
    /// Agents within this distance of an exit crowd it (metres).
    pub crowd_radius: f32,
    /// Extra cost in metres per crowding agent.
    pub cost_per_agent: f32,
    /// Agents away from the exits re-choose every this many seconds (staggered by id).
    pub replan_interval: f32,
}
