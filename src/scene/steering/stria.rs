//! Stria's reactive forces (seed 001, MASS §4.2) as written in a scene file: which force
//! ([`StriaKind`]) with its parameters, and the skip probability the prioritised selection uses
//! ([`StriaForce`]), with their labels and validation. The thesis gives no numbers for d_max,
//! corridors, horizons or skip probabilities; the values in crowdlab's scenes are its own choices.
//! The forces, the perception and the selection are computed by the simulator
//! (`sim::steer::stria`).

use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// One of Stria's forces with its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum StriaKind {
    /// Turn the velocity towards the goal at max speed: F = v_max·d̂ − v.
    Seek,
    /// The aggressive unit pull towards the goal.
    DirectPull,
    /// Seek that slows linearly inside `slowing_distance` (d_max) of a final goal.
    Arrival {
        /// d_max in metres.
        slowing_distance: f32,
    },
    /// Reach `speed` (m/s) along the orientation without turning; brakes as well.
    ReachSpeed {
        /// Target speed in m/s.
        speed: f32,
    },
    /// Path following, variant 1: the current waypoint, blended into the next within `blend_distance`.
    PathWaypoints {
        /// Distance (m) from the current waypoint at which the next starts to attract.
        blend_distance: f32,
    },
    /// Path following, variant 2: back to the path when the predicted position leaves the corridor.
    PathCorridor {
        /// Corridor half-width in metres.
        half_width: f32,
        /// Prediction time in seconds.
        prediction: f32,
    },
    /// Turn away from the nearest obstacle seen by the ray fan.
    ObstacleAvoidance {
        /// Field of view in degrees (150–180 typical).
        fov_deg: f32,
        /// Angle between rays in degrees (MASS: 10°; "below about 15° is pointless").
        ray_spacing_deg: f32,
        /// Ray length straight ahead, metres (the parabola shortens the others).
        range: f32,
        /// Force at contact, newtons.
        strength: f32,
    },
    /// Keep off obstacles at the shoulders.
    SideClearance {
        /// Side ray length in metres.
        clearance: f32,
        /// Force at contact, newtons.
        strength: f32,
    },
    /// Avoid the soonest predicted collision with a perceived agent, by situation.
    AgentAvoidance {
        /// Field of view in degrees.
        fov_deg: f32,
        /// Perception distance in metres.
        range: f32,
        /// Only collisions within this many seconds count.
        horizon: f32,
        /// Force magnitude, newtons.
        strength: f32,
    },
}

/// A Stria force with its skip probability for the priority combiner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StriaForce {
    /// The force and its parameters.
    pub force: StriaKind,
    /// Chance (0 ≤ p < 1) that the priority combiner passes over this force even when it is needed.
    #[serde(default)]
    pub skip: f32,
}

impl StriaForce {
    /// The label under which the force is recorded.
    pub fn label(&self) -> &'static str {
        match self.force {
            StriaKind::Seek => "seek (Stria)",
            StriaKind::DirectPull => "direct pull",
            StriaKind::Arrival { .. } => "arrival (Stria)",
            StriaKind::ReachSpeed { .. } => "reach speed",
            StriaKind::PathWaypoints { .. } => "path waypoints",
            StriaKind::PathCorridor { .. } => "path corridor",
            StriaKind::ObstacleAvoidance { .. } => "obstacle avoidance (Stria)",
            StriaKind::SideClearance { .. } => "side clearance",
            StriaKind::AgentAvoidance { .. } => "agent avoidance",
        }
    }

    /// How far the force looks for other agents.
    pub fn neighbour_radius(&self) -> f32 {
        match self.force {
            StriaKind::AgentAvoidance { range, .. } => range,
            _ => 0.0,
        }
    }

    /// Reports invalid parameters under the field path `at`.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        let field = |name: &str| format!("{at}.0.force.{name}");
        if !(0.0..1.0).contains(&self.skip) {
            problems.push(
                format!("{at}.0.skip"),
                format!("{} must be at least 0 and below 1", self.skip),
            );
        }
        match self.force {
            StriaKind::Seek | StriaKind::DirectPull => {}
            StriaKind::Arrival { slowing_distance } => problems.positive(field("slowing_distance"), slowing_distance),
            StriaKind::ReachSpeed { speed } => problems.non_negative(field("speed"), speed),
            StriaKind::PathWaypoints { blend_distance } => {
                problems.non_negative(field("blend_distance"), blend_distance)
            }
            StriaKind::PathCorridor { half_width, prediction } => {
                problems.non_negative(field("half_width"), half_width);
                problems.non_negative(field("prediction"), prediction);
            }
            StriaKind::ObstacleAvoidance {
                fov_deg,
                ray_spacing_deg,
                range,
                strength,
            } => {
                problems.within(field("fov_deg"), fov_deg, 1.0, 360.0);
                problems.within(field("ray_spacing_deg"), ray_spacing_deg, 1.0, 180.0);
                problems.positive(field("range"), range);
                problems.non_negative(field("strength"), strength);
            }
            StriaKind::SideClearance { clearance, strength } => {
                problems.positive(field("clearance"), clearance);
                problems.non_negative(field("strength"), strength);
            }
            StriaKind::AgentAvoidance {
                fov_deg,
                range,
                horizon,
                strength,
            } => {
                problems.within(field("fov_deg"), fov_deg, 1.0, 360.0);
                problems.positive(field("range"), range);
                problems.non_negative(field("horizon"), horizon);
                problems.non_negative(field("strength"), strength);
            }
        }
    }
}
