//! The steering method a validation or comparison run uses: the scene as authored, or every
//! profile's combiner (and, once available, avoidance method) overridden.

use crate::scene::Scene;
use crate::sim::steer::Combiner;

/// A named way of running a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Method {
    /// Name shown in reports and accepted by `--method`.
    pub name: String,
    /// Combiner every profile uses instead of its own, if set.
    pub combiner: Option<Combiner>,
}

/// The combiners `compare` tries, with their command-line names.
const COMBINERS: [(&str, Combiner); 1] = [("weighted-sum", Combiner::WeightedTruncatedSum)];

impl Method {
    /// The scene exactly as authored.
    pub fn as_authored() -> Method {
        Method {
            name: "as-authored".into(),
            combiner: None,
        }
    }

    /// Every method `compare` runs a scene with: the scene as authored, then each combiner.
    pub fn available() -> Vec<Method> {
        std::iter::once(Method::as_authored())
            .chain(COMBINERS.iter().map(|(name, c)| Method {
                name: (*name).into(),
                combiner: Some(*c),
            }))
            .collect()
    }

    /// The method called `name` (as listed by [`Method::available`]).
    pub fn parse(name: &str) -> Result<Method, String> {
        Method::available().into_iter().find(|m| m.name == name).ok_or_else(|| {
            let names: Vec<String> = Method::available().into_iter().map(|m| m.name).collect();
            format!("unknown method {name:?}; available: {}", names.join(", "))
        })
    }

    /// Applies the overrides to every profile of `scene`.
    pub fn apply(&self, scene: &mut Scene) {
        for profile in &mut scene.profiles {
            if let Some(c) = self.combiner {
                profile.combiner = c;
            }
        }
    }
}
