//! The steering method a validation or comparison run uses: the scene as authored, or every
//! profile's avoidance method or combiner overridden.

use crate::scene::Scene;
use crate::scene::avoidance::{Avoidance, BrandejskyParams, ClearPathParams, ObstacleParams};
use crate::scene::steering::Combiner;

/// A named way of running a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Method {
    /// Name shown in reports and accepted by `--method`.
    pub name: String,
    /// Avoidance method every profile uses instead of its own, if set.
    pub avoidance: Option<Avoidance>,
    /// Combiner every profile uses instead of its own, if set.
    pub combiner: Option<Combiner>,
}

/// The avoidance methods with their command-line names: default parameters, but ORCA with
/// the pedestrian ones ([`ObstacleParams::pedestrian`]).
fn avoidance_methods() -> [(&'static str, Avoidance); 6] {
    [
        ("none", Avoidance::None),
        ("vo", Avoidance::Vo(ObstacleParams::default())),
        ("rvo", Avoidance::Rvo(ObstacleParams::default())),
        ("orca", Avoidance::Orca(ObstacleParams::pedestrian())),
        ("clearpath", Avoidance::ClearPath(ClearPathParams::default())),
        ("brandejsky", Avoidance::Brandejsky(BrandejskyParams::default())),
    ]
}

/// The combiners that apply to any behaviour set, with their command-line names.
const COMBINERS: [(&str, Combiner); 1] = [("weighted-sum", Combiner::WeightedTruncatedSum)];

impl Method {
    /// The scene exactly as authored.
    pub fn as_authored() -> Method {
        Method {
            name: "as-authored".into(),
            avoidance: None,
            combiner: None,
        }
    }

    /// Every method `compare` runs a scene with: as authored, each avoidance method (with the
    /// scene's combiners), each combiner (with the scene's avoidance).
    pub fn available() -> Vec<Method> {
        let avoidance = avoidance_methods().into_iter().map(|(name, a)| Method {
            name: name.into(),
            avoidance: Some(a),
            combiner: None,
        });
        let combiners = COMBINERS.iter().map(|(name, c)| Method {
            name: (*name).into(),
            avoidance: None,
            combiner: Some(*c),
        });
        std::iter::once(Method::as_authored())
            .chain(avoidance)
            .chain(combiners)
            .collect()
    }

    /// The method called `name` (as listed by [`Method::available`]).
    pub fn parse(name: &str) -> Result<Method, String> {
        Method::available().into_iter().find(|m| m.name == name).ok_or_else(|| {
            let names: Vec<String> = Method::available().into_iter().map(|m| m.name).collect();
            format!("unknown method {name:?}; available: {}", names.join(", "))
        })
    }

    /// Applies the overrides to every profile of `scene`; a profile given ORCA gets the turn
    /// rate `check` asks of ORCA ([`crate::scene::Profile::set_avoidance`]).
    pub fn apply(&self, scene: &mut Scene) {
        let dt = scene.settings.dt;
        for profile in &mut scene.profiles {
            if let Some(a) = self.avoidance {
                profile.set_avoidance(a, dt);
            }
            if let Some(c) = &self.combiner {
                profile.combiner = *c;
            }
        }
    }
}
