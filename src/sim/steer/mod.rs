//! Steering behaviours and combiners (Reynolds' steering layer).
//!
//! Each behaviour is a variant of [`Behaviour`] with its parameters and lives in its own file;
//! it computes a force from a [`SteeringContext`] (the agent, its neighbours, its goal point), all
//! read from the immutable snapshot of the previous tick. A [`Combiner`] turns the weighted
//! outputs into the one steering force, and every behaviour's own output is kept, labelled,
//! for the recording.

mod arrive;
mod combiner;
mod context;
pub mod human;
mod seek;
mod separation;
pub mod stria;

pub use arrive::{Deceleration, arrive_force};
pub use combiner::{CombinedSteering, Combiner, LabelledForce};
pub use context::{GoalPoint, SteeringContext};
pub use seek::seek_force;
pub use separation::separation_force;

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// A steering behaviour and its parameters, as written in a scene profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Behaviour {
    /// Full speed toward the goal point (overshoots and turns back).
    Seek,
    /// Toward the goal point, decelerating to stop on it; on an intermediate waypoint it seeks.
    Arrive {
        /// How early braking starts (slow 0.9 s, normal 0.6 s, fast 0.3 s effective time to target).
        deceleration: Deceleration,
    },
    /// Away from neighbours within `view_radius` metres, each pushing with 1/distance.
    Separation {
        /// Neighbourhood radius in metres (a neighbour's body radius is added, as in Buckland's tagging).
        view_radius: f32,
    },
    /// One of Popelová's human steerings (needs the `Popelova` combiner).
    Human(human::HumanSteering),
    /// One of Stria's reactive forces (any combiner; made for `PrioritySelection`).
    Stria(stria::StriaForce),
}

impl Behaviour {
    /// The label under which this behaviour's force is recorded and drawn.
    pub fn label(&self) -> &'static str {
        match self {
            Behaviour::Seek => "seek",
            Behaviour::Arrive { .. } => "arrive",
            Behaviour::Separation { .. } => "separation",
            Behaviour::Human(h) => h.label(),
            Behaviour::Stria(f) => f.label(),
        }
    }

    /// How far this behaviour looks for neighbours (0 if it ignores them).
    pub fn neighbour_radius(&self) -> f32 {
        match self {
            Behaviour::Separation { view_radius } => *view_radius,
            Behaviour::Human(h) => h.neighbour_radius(),
            Behaviour::Stria(f) => f.neighbour_radius(),
            _ => 0.0,
        }
    }

    /// The behaviour's raw (unweighted) force for one agent this tick. Human steerings give zero
    /// here: they are evaluated by the Popelová combiner, the only one validation lets them use.
    pub fn force(&self, ctx: &SteeringContext) -> Vec2 {
        match self {
            Behaviour::Seek => ctx.goal.map_or(Vec2::ZERO, |g| {
                seek_force(ctx.position(), ctx.velocity(), g.position, ctx.profile.preferred_speed)
            }),
            Behaviour::Arrive { deceleration } => ctx.goal.map_or(Vec2::ZERO, |g| {
                if g.is_final {
                    arrive_force(
                        ctx.position(),
                        ctx.velocity(),
                        g.position,
                        ctx.profile.preferred_speed,
                        *deceleration,
                    )
                } else {
                    seek_force(ctx.position(), ctx.velocity(), g.position, ctx.profile.preferred_speed)
                }
            }),
            Behaviour::Separation { view_radius } => separation_force(ctx, *view_radius),
            Behaviour::Human(_) => Vec2::ZERO,
            Behaviour::Stria(f) => f.force(ctx),
        }
    }

    fn validate(&self, at: &str, problems: &mut Problems) {
        match self {
            Behaviour::Separation { view_radius } => problems.positive(format!("{at}.view_radius"), *view_radius),
            Behaviour::Human(h) => h.validate(at, problems),
            Behaviour::Stria(f) => f.validate(at, problems),
            _ => {}
        }
    }
}

/// A behaviour with the weight its force is multiplied by before combining.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BehaviourSpec {
    /// The behaviour and its parameters.
    pub behaviour: Behaviour,
    /// Multiplier applied to the behaviour's force.
    pub weight: f32,
}

impl BehaviourSpec {
    /// The default pedestrian set: arrive at the goal, keep apart from neighbours.
    pub fn pedestrian_defaults() -> Vec<BehaviourSpec> {
        vec![
            BehaviourSpec {
                behaviour: Behaviour::Arrive {
                    deceleration: Deceleration::Normal,
                },
                weight: 1.0,
            },
            BehaviourSpec {
                behaviour: Behaviour::Separation { view_radius: 1.0 },
                weight: 0.5,
            },
        ]
    }

    /// Reports invalid parameters under the field path `at`.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        problems.non_negative(format!("{at}.weight"), self.weight);
        self.behaviour.validate(&format!("{at}.behaviour"), problems);
    }
}
