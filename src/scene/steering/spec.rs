//! A behaviour with its weight and dithering probability, as listed in a profile (in priority
//! order), and the validation of every behaviour parameter.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::{Behaviour, Deceleration, InterposeEnd};
use crate::scene::Problems;

/// A behaviour with the weight its force is multiplied by before combining.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BehaviourSpec {
    /// The behaviour and its parameters.
    pub behaviour: Behaviour,
    /// Multiplier applied to the behaviour's force.
    pub weight: f32,
    /// Chance (0–1] of being evaluated each tick under the dithering combiner (default: the
    /// text's value for the behaviour, see [`Behaviour::default_dither_probability`]).
    #[serde(default)]
    pub probability: Option<f32>,
}

impl BehaviourSpec {
    /// `behaviour` with `weight` and the default dithering probability.
    pub fn new(behaviour: Behaviour, weight: f32) -> BehaviourSpec {
        BehaviourSpec {
            behaviour,
            weight,
            probability: None,
        }
    }

    /// The default pedestrian set: arrive at the goal, keep apart from neighbours.
    pub fn pedestrian_defaults() -> Vec<BehaviourSpec> {
        vec![
            BehaviourSpec::new(
                Behaviour::Arrive {
                    deceleration: Deceleration::Normal,
                },
                1.0,
            ),
            BehaviourSpec::new(
                Behaviour::Separation {
                    view_radius: 1.0,
                    fov_deg: 360.0,
                },
                0.5,
            ),
        ]
    }

    /// The dithering probability in effect.
    pub fn dither_probability(&self) -> f32 {
        self.probability
            .unwrap_or_else(|| self.behaviour.default_dither_probability())
    }

    /// Reports invalid parameters under the field path `at`; `agent_ids` are the scene's agent ids
    /// that behaviours may name.
    pub fn validate(&self, at: &str, problems: &mut Problems, agent_ids: &HashSet<u32>) {
        problems.non_negative(format!("{at}.weight"), self.weight);
        if let Some(p) = self.probability
            && !(p > 0.0 && p <= 1.0)
        {
            problems.push(
                format!("{at}.probability"),
                format!("{p} must be greater than 0 and at most 1"),
            );
        }
        validate_behaviour(&self.behaviour, &format!("{at}.behaviour"), problems, agent_ids);
    }
}

fn known_agent(problems: &mut Problems, path: String, id: u32, agent_ids: &HashSet<u32>) {
    if !agent_ids.contains(&id) {
        problems.push(path, format!("unknown agent id {id}"));
    }
}

fn optional_positive(problems: &mut Problems, path: String, value: Option<f32>) {
    if let Some(v) = value {
        problems.positive(path, v);
    }
}

fn view(problems: &mut Problems, at: &str, view_radius: f32, fov_deg: f32) {
    problems.positive(format!("{at}.view_radius"), view_radius);
    if !(fov_deg > 0.0 && fov_deg <= 360.0) {
        problems.push(
            format!("{at}.fov_deg"),
            format!("{fov_deg} must be greater than 0 and at most 360"),
        );
    }
}

fn validate_behaviour(b: &Behaviour, at: &str, problems: &mut Problems, ids: &HashSet<u32>) {
    let field = |name: &str| format!("{at}.{name}");
    match b {
        Behaviour::Seek | Behaviour::Arrive { .. } => {}
        Behaviour::Human(h) => h.validate(at, problems),
        Behaviour::Stria(f) => f.validate(at, problems),
        Behaviour::Flee { from, panic_distance } => {
            if let Some(id) = from {
                known_agent(problems, field("from"), *id, ids);
            }
            optional_positive(problems, field("panic_distance"), *panic_distance);
        }
        Behaviour::Pursuit {
            target,
            turnaround_coefficient,
        } => {
            known_agent(problems, field("target"), *target, ids);
            problems.non_negative(field("turnaround_coefficient"), *turnaround_coefficient);
        }
        Behaviour::Evade {
            pursuer,
            panic_distance,
        } => {
            known_agent(problems, field("pursuer"), *pursuer, ids);
            optional_positive(problems, field("panic_distance"), *panic_distance);
        }
        Behaviour::Wander {
            radius,
            distance,
            jitter,
        } => {
            problems.positive(field("radius"), *radius);
            problems.non_negative(field("distance"), *distance);
            problems.non_negative(field("jitter"), *jitter);
        }
        Behaviour::ObstacleAvoidance {
            min_box_length,
            braking_weight,
            margin,
        } => {
            problems.positive(field("min_box_length"), *min_box_length);
            problems.non_negative(field("braking_weight"), *braking_weight);
            problems.non_negative(field("margin"), *margin);
        }
        Behaviour::WallAvoidance {
            feeler_length,
            side_angle_deg,
            side_ratio,
            ..
        } => {
            problems.positive(field("feeler_length"), *feeler_length);
            problems.within(field("side_angle_deg"), *side_angle_deg, 0.0, 180.0);
            problems.non_negative(field("side_ratio"), *side_ratio);
        }
        Behaviour::Interpose { a, b, .. } => {
            for (name, end) in [("a", a), ("b", b)] {
                match end {
                    InterposeEnd::Agent(id) => known_agent(problems, field(name), *id, ids),
                    InterposeEnd::Point(p) => problems.finite_point(field(name), *p),
                }
            }
        }
        Behaviour::Hide {
            hunter,
            distance_from_boundary,
            ..
        } => {
            known_agent(problems, field("hunter"), *hunter, ids);
            problems.non_negative(field("distance_from_boundary"), *distance_from_boundary);
        }
        Behaviour::FollowPath {
            waypoint_seek_distance, ..
        } => optional_positive(problems, field("waypoint_seek_distance"), *waypoint_seek_distance),
        Behaviour::OffsetPursuit { leader, offset, .. } => {
            known_agent(problems, field("leader"), *leader, ids);
            problems.finite_point(field("offset"), *offset);
        }
        Behaviour::Separation { view_radius, fov_deg }
        | Behaviour::Alignment { view_radius, fov_deg }
        | Behaviour::Cohesion { view_radius, fov_deg }
        | Behaviour::Flocking {
            view_radius, fov_deg, ..
        } => view(problems, at, *view_radius, *fov_deg),
        Behaviour::LeaderFollowing {
            leader,
            distance,
            clearance,
            look_ahead,
            ..
        } => {
            known_agent(problems, field("leader"), *leader, ids);
            problems.non_negative(field("distance"), *distance);
            problems.non_negative(field("clearance"), *clearance);
            problems.non_negative(field("look_ahead"), *look_ahead);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_agent_ids_and_bad_parameters_are_reported_by_path_and_value() {
        let ids: HashSet<u32> = [1, 2].into_iter().collect();
        let mut problems = Problems::default();
        BehaviourSpec::new(
            Behaviour::Pursuit {
                target: 7,
                turnaround_coefficient: 0.5,
            },
            1.0,
        )
        .validate("profiles[0].behaviours[1]", &mut problems, &ids);
        let spec = BehaviourSpec {
            probability: Some(1.5),
            ..BehaviourSpec::new(
                Behaviour::Alignment {
                    view_radius: 2.0,
                    fov_deg: 400.0,
                },
                1.0,
            )
        };
        spec.validate("p", &mut problems, &ids);
        let shown: Vec<String> = problems.0.iter().map(|p| p.to_string()).collect();
        assert_eq!(
            shown,
            [
                "profiles[0].behaviours[1].behaviour.target: unknown agent id 7",
                "p.probability: 1.5 must be greater than 0 and at most 1",
                "p.behaviour.fov_deg: 400 must be greater than 0 and at most 360",
            ]
        );
        let mut none = Problems::default();
        BehaviourSpec::new(
            Behaviour::Evade {
                pursuer: 2,
                panic_distance: None,
            },
            1.0,
        )
        .validate("q", &mut none, &ids);
        assert!(none.0.is_empty());
    }
}
