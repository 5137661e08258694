//! Per-agent avoidance explanations ("why this velocity"), recorded on request for one agent
//! (`crowdlab run --debug-agent ID`): the constraints of the tick in velocity space, with the
//! preferred and the chosen velocity. Velocities are absolute (m/s); the drawing places the
//! velocity-space origin at the agent's position.

use glam::Vec2;

/// One constraint an avoidance method built this tick.
#[derive(Clone, Debug, PartialEq)]
pub enum Constraint {
    /// ORCA half-plane: permitted velocities lie left of the line through `point` along
    /// `direction`; `hard` for obstacle lines that the 3-D fallback never relaxes.
    HalfPlane { point: Vec2, direction: Vec2, hard: bool },
    /// A forbidden convex region (VO / RVO / FVO cone, side half-plane, collision disc).
    Region { vertices: Vec<Vec2> },
    /// A piece of a region's boundary; `outer` when it bounds permitted velocities (ClearPath's
    /// boundary edges), otherwise it lies inside another region.
    Edge { a: Vec2, b: Vec2, outer: bool },
}

/// The avoidance decision of one agent in one tick.
#[derive(Clone, Debug, PartialEq)]
pub struct AvoidanceDebug {
    /// Agent id.
    pub agent: u32,
    /// The agent's position when it decided (start of the tick).
    pub position: Vec2,
    /// Its speed limit (radius of the permitted velocity disc).
    pub max_speed: f32,
    /// The velocity it wanted.
    pub preferred: Vec2,
    /// The velocity the method chose.
    pub chosen: Vec2,
    /// The constraints, in the order the method built them.
    pub constraints: Vec<Constraint>,
}

impl AvoidanceDebug {
    /// An empty explanation for agent `agent` deciding at `position`, filled in by the method.
    pub fn for_agent(agent: u32, position: Vec2) -> AvoidanceDebug {
        AvoidanceDebug {
            agent,
            position,
            max_speed: 0.0,
            preferred: Vec2::ZERO,
            chosen: Vec2::ZERO,
            constraints: Vec::new(),
        }
    }
}
