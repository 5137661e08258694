//! The small parameter enums behaviours hold: Arrive's deceleration, Interpose's ends and wall
//! avoidance's way of combining its feelers.

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Buckland's deceleration setting; the divisor is `value · 0.3` seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Deceleration {
    /// Effective time to target 0.9 s.
    Slow,
    /// Effective time to target 0.6 s.
    Normal,
    /// Effective time to target 0.3 s.
    Fast,
}

impl Deceleration {
    /// The enum's integer value in Buckland's listing (slow 3, normal 2, fast 1).
    pub fn factor(self) -> f32 {
        match self {
            Deceleration::Slow => 3.0,
            Deceleration::Normal => 2.0,
            Deceleration::Fast => 1.0,
        }
    }
}

/// One end of an interposition.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum InterposeEnd {
    /// The agent with this scene id (its predicted position is used).
    Agent(u32),
    /// A fixed point in metres.
    Point(Vec2),
}

/// How the feelers' pushes become one force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum FeelerCombine {
    /// Add the pushes of every feeler that crosses a wall.
    #[default]
    Sum,
    /// Use only the feeler whose crossing is nearest the agent.
    Nearest,
}
