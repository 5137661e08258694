//! The behaviour enum as written in a scene profile, with every parameter and its default, and
//! the parameter-only helpers: the recorded label, the neighbourhood radius, the text's dithering
//! probability and the expansion of flocking presets. The forces are computed by the simulator
//! (`sim::steer`). Conventions: "speed" in a desired velocity is the profile's preferred
//! (cruising) speed; look-ahead times use the max speed, as in the text. Behaviours that name
//! another agent get a zero force while that agent is absent.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use super::defaults::{hide, leader_following, obstacle_avoidance, wall_avoidance, wander};
use super::{BehaviourSpec, Deceleration, FeelerCombine, FlockPreset, InterposeEnd, human, stria};

/// A steering behaviour and its parameters, as written in a scene profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Behaviour {
    /// Full speed toward the goal point (overshoots and turns back).
    Seek,
    /// Full speed away from an agent or, without `from`, from the goal point.
    Flee {
        /// Scene id of the agent to flee from (default: none, flee the goal point).
        #[serde(default)]
        from: Option<u32>,
        /// Only flee while the threat is this close, metres (default: always; the text uses 100 units).
        #[serde(default)]
        panic_distance: Option<f32>,
    },
    /// Toward the goal point, decelerating to stop on it; on an intermediate waypoint it seeks.
    Arrive {
        /// How early braking starts (slow 0.9 s, normal 0.6 s, fast 0.3 s effective time to target).
        deceleration: Deceleration,
    },
    /// Seek where another agent will be (head-on shortcut below 18°).
    Pursuit {
        /// Scene id of the evader.
        target: u32,
        /// Turnaround-time coefficient in seconds (default 0 = off; the text uses 0.5).
        #[serde(default)]
        turnaround_coefficient: f32,
    },
    /// Flee from where another agent will be.
    Evade {
        /// Scene id of the pursuer.
        pursuer: u32,
        /// Only evade while the predicted threat is this close, metres (default: always).
        #[serde(default)]
        panic_distance: Option<f32>,
    },
    /// Reynolds' wander: a jittered target on a circle projected ahead.
    Wander {
        /// Circle radius, metres (default 1.2).
        #[serde(default = "wander_radius")]
        radius: f32,
        /// Distance of the circle ahead, metres (default 2.0).
        #[serde(default = "wander_distance")]
        distance: f32,
        /// Largest random displacement per second, metres (default 10; scaled by dt).
        #[serde(default = "wander_jitter")]
        jitter: f32,
    },
    /// Keep a detection box ahead free of obstacle circles (polygons by bounding circle).
    ObstacleAvoidance {
        /// Box length at standstill, metres; doubles at max speed (default 3).
        #[serde(default = "min_box_length")]
        min_box_length: f32,
        /// Weight of the braking component (default 0.2).
        #[serde(default = "braking_weight")]
        braking_weight: f32,
        /// Widens the box beyond the agent's radius on each side, metres (default 0, as in the
        /// text, where the push fades to nothing as the body grazes the obstacle).
        #[serde(default)]
        margin: f32,
    },
    /// Three feelers pushing off walls and polygon edges.
    WallAvoidance {
        /// Middle feeler length, metres (default 1.5).
        #[serde(default = "feeler_length")]
        feeler_length: f32,
        /// Angle of the side feelers from the heading, degrees (default 45).
        #[serde(default = "side_angle_deg")]
        side_angle_deg: f32,
        /// Side feeler length as a fraction of the middle one (default 0.5).
        #[serde(default = "side_ratio")]
        side_ratio: f32,
        /// Sum the feelers' pushes or use the nearest crossing only (default Sum).
        #[serde(default)]
        combine: FeelerCombine,
    },
    /// Arrive between two agents or points, at the midpoint of their predicted positions.
    Interpose {
        /// First end.
        a: InterposeEnd,
        /// Second end.
        b: InterposeEnd,
        /// Arrival deceleration (default Fast, as in the text).
        #[serde(default = "fast")]
        deceleration: Deceleration,
    },
    /// Arrive at the nearest spot behind an obstacle as seen from the hunter; evade without obstacles.
    Hide {
        /// Scene id of the hunter.
        hunter: u32,
        /// How far beyond the obstacle's radius the spot lies, metres (default 1; the text uses 30 units).
        #[serde(default = "distance_from_boundary")]
        distance_from_boundary: f32,
        /// Arrival deceleration (default Fast, as in the text).
        #[serde(default = "fast")]
        deceleration: Deceleration,
    },
    /// Buckland's FollowPath on the agent's route: seek each waypoint, arrive at the end of an open path.
    FollowPath {
        /// A waypoint counts as reached within this distance, metres (default: half the path width).
        #[serde(default)]
        waypoint_seek_distance: Option<f32>,
        /// Deceleration on the last point of an open path (default Normal, as in the text).
        #[serde(default = "normal")]
        deceleration: Deceleration,
    },
    /// Hold a position given in the leader's local space (x ahead, y left).
    OffsetPursuit {
        /// Scene id of the leader.
        leader: u32,
        /// The offset in the leader's frame, metres.
        offset: Vec2,
        /// Arrival deceleration (default Fast, as in the text).
        #[serde(default = "fast")]
        deceleration: Deceleration,
    },
    /// Away from tagged neighbours, each pushing with 1/distance.
    Separation {
        /// Neighbourhood radius, metres (a neighbour's body radius is added, as in Buckland's tagging).
        view_radius: f32,
        /// Field of view centred on the heading, degrees (default 360 = all round).
        #[serde(default = "full_circle")]
        fov_deg: f32,
    },
    /// Toward the tagged neighbours' average heading.
    Alignment {
        /// Neighbourhood radius, metres.
        view_radius: f32,
        /// Field of view, degrees (default 360).
        #[serde(default = "full_circle")]
        fov_deg: f32,
    },
    /// Seek the tagged neighbours' centre of mass.
    Cohesion {
        /// Neighbourhood radius, metres.
        view_radius: f32,
        /// Field of view, degrees (default 360).
        #[serde(default = "full_circle")]
        fov_deg: f32,
    },
    /// A flocking preset; expands into separation, alignment, cohesion (and wander) when resolved.
    Flocking {
        /// Which weights (default Reynolds).
        #[serde(default)]
        preset: FlockPreset,
        /// Neighbourhood radius, metres.
        view_radius: f32,
        /// Field of view, degrees (default 360).
        #[serde(default = "full_circle")]
        fov_deg: f32,
    },
    /// Arrive behind a leader and step out of its path.
    LeaderFollowing {
        /// Scene id of the agent to follow.
        leader: u32,
        /// Distance behind it, metres (default 1.5).
        #[serde(default = "follow_distance")]
        distance: f32,
        /// Half-width of the leader's path to keep out of, metres (default 1).
        #[serde(default = "follow_clearance")]
        clearance: f32,
        /// Length of the leader's path ahead of it, metres (default 3).
        #[serde(default = "follow_look_ahead")]
        look_ahead: f32,
        /// Arrival deceleration (default Fast).
        #[serde(default = "fast")]
        deceleration: Deceleration,
    },
    /// One of Popelová's human steerings (needs the `Popelova` combiner).
    Human(human::HumanSteering),
    /// One of Stria's reactive forces (any combiner; made for `PrioritySelection`).
    Stria(stria::StriaForce),
}

fn wander_radius() -> f32 {
    wander::DEFAULT_RADIUS
}
fn wander_distance() -> f32 {
    wander::DEFAULT_DISTANCE
}
fn wander_jitter() -> f32 {
    wander::DEFAULT_JITTER
}
fn min_box_length() -> f32 {
    obstacle_avoidance::DEFAULT_MIN_BOX_LENGTH
}
fn braking_weight() -> f32 {
    obstacle_avoidance::DEFAULT_BRAKING_WEIGHT
}
fn feeler_length() -> f32 {
    wall_avoidance::DEFAULT_FEELER_LENGTH
}
fn side_angle_deg() -> f32 {
    wall_avoidance::DEFAULT_SIDE_ANGLE_DEG
}
fn side_ratio() -> f32 {
    wall_avoidance::DEFAULT_SIDE_RATIO
}
fn distance_from_boundary() -> f32 {
    hide::DEFAULT_DISTANCE_FROM_BOUNDARY
}
fn follow_distance() -> f32 {
    leader_following::DEFAULT_DISTANCE
}
fn follow_clearance() -> f32 {
    leader_following::DEFAULT_CLEARANCE
}
fn follow_look_ahead() -> f32 {
    leader_following::DEFAULT_LOOK_AHEAD
}
fn full_circle() -> f32 {
    360.0
}
fn fast() -> Deceleration {
    Deceleration::Fast
}
fn normal() -> Deceleration {
    Deceleration::Normal
}

impl Behaviour {
    /// The label under which this behaviour's force is recorded and drawn.
    pub fn label(&self) -> &'static str {
        match self {
            Behaviour::Seek => "seek",
            Behaviour::Flee { .. } => "flee",
            Behaviour::Arrive { .. } => "arrive",
            Behaviour::Pursuit { .. } => "pursuit",
            Behaviour::Evade { .. } => "evade",
            Behaviour::Wander { .. } => "wander",
            Behaviour::ObstacleAvoidance { .. } => "obstacle avoidance",
            Behaviour::WallAvoidance { .. } => "wall avoidance",
            Behaviour::Interpose { .. } => "interpose",
            Behaviour::Hide { .. } => "hide",
            Behaviour::FollowPath { .. } => "follow path",
            Behaviour::OffsetPursuit { .. } => "offset pursuit",
            Behaviour::Separation { .. } => "separation",
            Behaviour::Alignment { .. } => "alignment",
            Behaviour::Cohesion { .. } => "cohesion",
            Behaviour::Flocking { .. } => "flocking",
            Behaviour::LeaderFollowing { .. } => "leader following",
            Behaviour::Human(h) => h.label(),
            Behaviour::Stria(f) => f.label(),
        }
    }

    /// How far this behaviour looks for neighbours (0 if it ignores them).
    pub fn neighbour_radius(&self) -> f32 {
        match self {
            Behaviour::Separation { view_radius, .. }
            | Behaviour::Alignment { view_radius, .. }
            | Behaviour::Cohesion { view_radius, .. }
            | Behaviour::Flocking { view_radius, .. } => *view_radius,
            Behaviour::Human(h) => h.neighbour_radius(),
            Behaviour::Stria(f) => f.neighbour_radius(),
            _ => 0.0,
        }
    }

    /// The dithering probability the text gives for this behaviour (§3.3: wall and obstacle
    /// avoidance 0.9, separation 0.8, alignment and cohesion 0.5, wander 0.8); 1 for the others.
    pub fn default_dither_probability(&self) -> f32 {
        match self {
            Behaviour::WallAvoidance { .. } | Behaviour::ObstacleAvoidance { .. } => 0.9,
            Behaviour::Separation { .. } | Behaviour::Wander { .. } => 0.8,
            Behaviour::Alignment { .. } | Behaviour::Cohesion { .. } => 0.5,
            _ => 1.0,
        }
    }

    /// The behaviours this one stands for: a flocking preset's parts, otherwise itself.
    pub fn expand(&self, weight: f32) -> Vec<BehaviourSpec> {
        match self {
            Behaviour::Flocking {
                preset,
                view_radius,
                fov_deg,
            } => preset.expand(*view_radius, *fov_deg, weight),
            _ => vec![BehaviourSpec::new(self.clone(), weight)],
        }
    }
}
