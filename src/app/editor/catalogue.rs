//! The choices offered when adding a behaviour: one entry per variant with its default
//! parameters and weight, written in the scene format (RON) so that the list reads like a
//! scene file and a new variant is one line.

use serde::de::DeserializeOwned;

use crate::scene::steering::BehaviourSpec;

/// Behaviours a profile can add, as `(menu name, RON of a BehaviourSpec)`.
const BEHAVIOURS: &[(&str, &str)] = &[
    ("seek", "(behaviour: Seek, weight: 1.0)"),
    ("arrive", "(behaviour: Arrive(deceleration: Normal), weight: 1.0)"),
    ("separation", "(behaviour: Separation(view_radius: 1.0), weight: 0.5)"),
    (
        "obstacle avoidance (human)",
        "(behaviour: Human(ObstacleAvoidance(())), weight: 1.0)",
    ),
    (
        "people avoidance (human)",
        "(behaviour: Human(PeopleAvoidance(())), weight: 1.0)",
    ),
    (
        "target approaching (human)",
        "(behaviour: Human(TargetApproaching(())), weight: 1.0)",
    ),
    (
        "path following (human)",
        "(behaviour: Human(PathFollowing(())), weight: 1.0)",
    ),
    (
        "wall following (human)",
        "(behaviour: Human(WallFollowing(())), weight: 1.0)",
    ),
    (
        "leader following (human)",
        "(behaviour: Human(LeaderFollowing((leader: 0))), weight: 1.0)",
    ),
    (
        "walk along (human)",
        "(behaviour: Human(WalkAlong((partner: 0))), weight: 1.0)",
    ),
];

fn parsed<T: DeserializeOwned>(entries: &'static [(&'static str, &'static str)]) -> Vec<(&'static str, T)> {
    entries
        .iter()
        .filter_map(|(name, ron_text)| ron::from_str(ron_text).ok().map(|v| (*name, v)))
        .collect()
}

/// Every behaviour that can be added, with default parameters.
pub fn behaviours() -> Vec<(&'static str, BehaviourSpec)> {
    parsed(BEHAVIOURS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_parses() {
        for (name, text) in BEHAVIOURS {
            let r: Result<BehaviourSpec, _> = ron::from_str(text);
            assert!(r.is_ok(), "{name}: {r:?}");
        }
    }
}
