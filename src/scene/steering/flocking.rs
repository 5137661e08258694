//! Flocking presets (Buckland §2.14): separation + alignment + cohesion, plus the author's wander
//! so an agent that loses its flock keeps moving. A preset expands, when the profile is resolved,
//! into the separate behaviours with these weights (times the spec's weight), so each one is
//! combined and recorded on its own. The text gives no weights; the presets are tuned for metre
//! scale and named after the text's examples.

use serde::{Deserialize, Serialize};

use super::defaults::wander;
use super::{Behaviour, BehaviourSpec};

/// A named set of flocking weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum FlockPreset {
    /// Reynolds' boids: the three rules with equal weight (1, 1, 1), no wander.
    #[default]
    Reynolds,
    /// A fish school (Big Shoal): separation 1, alignment 1, cohesion 2, wander 1 (the ports' weights).
    Shoal,
    /// A loose swirling flock of birds: separation 1.5, alignment 0.3, cohesion 0.6, wander 1.
    Swarm,
    /// A bustling herd of sheep: separation 2, alignment 0.5, cohesion 1, wander 0.5.
    Herd,
}

impl FlockPreset {
    /// Weights of (separation, alignment, cohesion, wander).
    pub fn weights(self) -> [f32; 4] {
        match self {
            FlockPreset::Reynolds => [1.0, 1.0, 1.0, 0.0],
            FlockPreset::Shoal => [1.0, 1.0, 2.0, 1.0],
            FlockPreset::Swarm => [1.5, 0.3, 0.6, 1.0],
            FlockPreset::Herd => [2.0, 0.5, 1.0, 0.5],
        }
    }

    /// The behaviours of this preset with neighbourhood `view_radius` and `fov_deg`, each weight
    /// multiplied by `weight`; wander (default parameters) only when its weight is non-zero.
    pub fn expand(self, view_radius: f32, fov_deg: f32, weight: f32) -> Vec<BehaviourSpec> {
        let [s, a, c, w] = self.weights();
        let mut specs = vec![
            BehaviourSpec::new(Behaviour::Separation { view_radius, fov_deg }, s * weight),
            BehaviourSpec::new(Behaviour::Alignment { view_radius, fov_deg }, a * weight),
            BehaviourSpec::new(Behaviour::Cohesion { view_radius, fov_deg }, c * weight),
        ];
        if w > 0.0 {
            specs.push(BehaviourSpec::new(
                Behaviour::Wander {
                    radius: wander::DEFAULT_RADIUS,
                    distance: wander::DEFAULT_DISTANCE,
                    jitter: wander::DEFAULT_JITTER,
                },
                w * weight,
            ));
        }
        specs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_expand_into_labelled_behaviours() {
        let specs = FlockPreset::Shoal.expand(3.0, 270.0, 2.0);
        let labels: Vec<&str> = specs.iter().map(|s| s.behaviour.label()).collect();
        assert_eq!(labels, ["separation", "alignment", "cohesion", "wander"]);
        assert_eq!(specs[2].weight, 4.0);
        assert_eq!(FlockPreset::Reynolds.expand(3.0, 360.0, 1.0).len(), 3);
    }
}
