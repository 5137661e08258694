//! TARGET APPROACHING (Popelová §3.3), a generalised seek / flee / arrival. Basic: a constant pull
//! of Attractive Force towards the target (gravity-like, so the agent turns gradually) and a stop
//! request within 150 cm_UT. Extended: Σ over listed locations of the distance → force function
//! (positive attracts, negative repels) at the agent's distance from each location.

use glam::Vec2;

use super::output::SteeringOutput;
use crate::scene::steering::human::TargetApproaching;
use crate::sim::steer::SteeringContext;

/// The thesis's stop distance, 150 cm_UT.
pub const STOP_DISTANCE: f32 = 1.5;

impl TargetApproaching {
    /// The steering output for this tick (zero without a goal).
    pub fn steer(&self, ctx: &SteeringContext) -> SteeringOutput {
        let Some(goal) = ctx.goal else {
            return SteeringOutput::force(Vec2::ZERO);
        };
        let p = ctx.position();
        if goal.is_final && p.distance(goal.position) < STOP_DISTANCE {
            return SteeringOutput::stop(None);
        }
        if self.functions.is_empty() {
            return SteeringOutput::force((goal.position - p).normalize_or_zero() * self.attractive_force);
        }
        let force = self
            .functions
            .iter()
            .map(|f| {
                let to = f.location.unwrap_or(goal.position) - p;
                to.normalize_or_zero() * f.value_at(to.length())
            })
            .sum();
        SteeringOutput::force(force)
    }
}
