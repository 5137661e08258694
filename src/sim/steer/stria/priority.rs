//! Stria's prioritised selection (§4.2.3): the profile's behaviours are examined in order (obstacles
//! first, then agents, then path following, arrival, speed …); the first whose weighted force is
//! non-zero is applied, truncated to max force, and the rest are not examined. A Stria force may
//! be skipped even when needed, with its skip probability, drawn from the agent's own generator.
//! Recorded parts: the examined forces (kept 0 when passed over), the chosen one's kept share.

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use crate::geom::truncate;
use crate::scene::steering::Behaviour;
use crate::sim::steer::{CombinedSteering, LabelledForce, SteerMemory, SteeringContext};

/// The skip probability of a behaviour (0 for all but Stria's forces).
fn skip_probability(b: &Behaviour) -> f32 {
    match b {
        Behaviour::Stria(s) => s.skip,
        _ => 0.0,
    }
}

/// Selects one force for the agent of `ctx` (`memory` and `rng` are the agent's own).
pub fn select(ctx: &SteeringContext, memory: &mut SteerMemory, rng: &mut Pcg32) -> CombinedSteering {
    let profile = ctx.profile;
    let mut parts = LabelledForce::unevaluated(&profile.labels);
    let mut force = Vec2::ZERO;
    for (spec, part) in profile.behaviours.iter().zip(parts.iter_mut()) {
        part.force = spec.behaviour.force(ctx, memory, rng) * spec.weight;
        if part.force == Vec2::ZERO {
            continue;
        }
        let skip = skip_probability(&spec.behaviour);
        if skip > 0.0 && rng.random::<f32>() < skip {
            continue;
        }
        force = truncate(part.force, profile.max_force);
        part.kept = force.length() / part.force.length();
        break;
    }
    CombinedSteering { force, parts }
}
