//! One agent's tick under Popelová's model: evaluate every human steering of its profile (each
//! with its own memory), record each weighted force, and combine them into the next velocity.

use rand_pcg::Pcg32;

use super::{HumanDecision, HumanMemory};
use crate::scene::steering::Behaviour;
use crate::scene::steering::human::PopelovaCombiner;
use crate::sim::steer::{LabelledForce, SteeringContext};

/// The labelled forces and the combined decision of one agent's human steerings.
pub fn steer_agent(
    ctx: &SteeringContext,
    combiner: &PopelovaCombiner,
    memory: &mut Vec<HumanMemory>,
    rng: &mut Pcg32,
) -> (Vec<LabelledForce>, HumanDecision) {
    let profile = ctx.profile;
    memory.resize(profile.behaviours.len(), HumanMemory::None);
    let outputs: Vec<_> = profile
        .behaviours
        .iter()
        .zip(memory.iter_mut())
        .map(|(spec, m)| match &spec.behaviour {
            Behaviour::Human(h) => (spec.weight, h.steer(ctx, m, rng)),
            _ => (spec.weight, Default::default()),
        })
        .collect();
    let decision = combiner.combine(ctx.velocity(), &outputs, ctx.dt);
    let k = super::previous_velocity_factor(ctx.velocity().length(), combiner.walk_speed)
        + outputs
            .iter()
            .filter(|(_, o)| o.is_active())
            .map(|(b, _)| b)
            .sum::<f32>();
    let parts = outputs
        .iter()
        .zip(&profile.labels)
        .map(|((b, o), &label)| LabelledForce {
            label,
            force: o.force * *b,
            kept: if o.is_active() { 1.0 / k } else { 0.0 },
        })
        .collect();
    (parts, decision)
}
