//! The avoidance method of a profile and its parameters, as written in a scene file, with the
//! neighbourhood each method looks at and their validation. The methods are computed by the
//! simulator (`sim::avoid`).
//!
//! Names and defaults follow RVO2 (`neighbor_dist`, `max_neighbors`, `time_horizon`,
//! `time_horizon_obst`, the values of its Circle example) where RVO2 has them; ClearPath's
//! `time_horizon` is its ΔT, Brandejský's `reaction_distance` is the IndAlgoTest parameter.

use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// How an agent turns its preferred velocity into the velocity it walks with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Avoidance {
    /// No avoidance: the preferred velocity is used as is.
    #[default]
    None,
    /// Plain velocity obstacles (Fiorini & Shiller), truncated by the time horizons; every
    /// neighbour is treated as a moving obstacle (apex at its velocity).
    Vo(ObstacleParams),
    /// Reciprocal velocity obstacles (van den Berg 2008): apex at (v_A + v_B)/2 for reactive neighbours.
    Rvo(ObstacleParams),
    /// Optimal reciprocal collision avoidance (van den Berg et al. 2011, as in RVO2): half-planes
    /// and a 2-D linear program with the 3-D fallback.
    Orca(ObstacleParams),
    /// ClearPath's FVO (Guy et al. 2009): truncated RVO cones, optionally with the side constraint.
    ClearPath(ClearPathParams),
    /// Brandejský's ClearPath variant (IndAlgoTest): per-VO side selection, reaction distance.
    Brandejsky(BrandejskyParams),
}

/// Neighbourhood and time horizons of VO, RVO and ORCA (RVO2's agent defaults).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct ObstacleParams {
    /// Largest centre distance (m) at which another agent is considered (RVO2 `neighborDist`).
    pub neighbor_dist: f32,
    /// Most agents considered, the nearest first (RVO2 `maxNeighbors`).
    pub max_neighbors: u32,
    /// Seconds ahead that collisions with agents are avoided (RVO2 `timeHorizon`).
    pub time_horizon: f32,
    /// Seconds ahead that collisions with static obstacles are avoided (RVO2 `timeHorizonObst`).
    pub time_horizon_obst: f32,
    /// Time gap (s) a walker keeps to the agent ahead of it: its preferred speed is capped at the
    /// distance it can walk straight on before touching a neighbour, divided by this (Tordeux's
    /// collision-free speed model); 0 = no cap, as in RVO2. Velocity obstacles let a block of
    /// walkers at one velocity move at full speed however close they stand; pedestrians slow down
    /// with density (Weidmann), and this is what makes them.
    pub time_gap: f32,
}

impl Default for ObstacleParams {
    fn default() -> Self {
        ObstacleParams {
            neighbor_dist: 15.0,
            max_neighbors: 10,
            time_horizon: 10.0,
            time_horizon_obst: 10.0,
            time_gap: 0.0,
        }
    }
}

impl ObstacleParams {
    /// The parameters `--method orca` gives pedestrians: RVO2's neighbourhood, time horizons of
    /// 2 s (RVO2's 10 s, meant for robots at several metres' spacing, lets a queue creep at a
    /// hundredth of its gap per second) and a time gap of 0.5 s (walkers of 0.18 m radius on a
    /// square lattice then walk within 0.25 m/s of Weidmann's speed from 1 to 4 persons/m²).
    pub fn pedestrian() -> ObstacleParams {
        ObstacleParams {
            time_horizon: 2.0,
            time_horizon_obst: 2.0,
            time_gap: 0.5,
            ..ObstacleParams::default()
        }
    }
}

/// Which ClearPath of Guy et al. 2009.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ClearPathVariant {
    /// ClearPath-1: side (type-II) constraints; ΔT is halved until a solution exists.
    #[default]
    Guaranteed,
    /// ClearPath-2: truncation (type-I) constraints only, with collision recovery.
    Relaxed,
}

/// ClearPath parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct ClearPathParams {
    /// Largest centre distance (m) at which another agent is considered.
    pub neighbor_dist: f32,
    /// Most agents considered, the nearest first.
    pub max_neighbors: u32,
    /// ΔT (s): the FVO guarantees freedom from collision within this interval.
    pub time_horizon: f32,
    /// Interval (s) for static obstacles.
    pub time_horizon_obst: f32,
    /// ClearPath-1 or ClearPath-2.
    pub variant: ClearPathVariant,
}

impl Default for ClearPathParams {
    fn default() -> Self {
        ClearPathParams {
            neighbor_dist: 15.0,
            max_neighbors: 10,
            time_horizon: 1.0,
            time_horizon_obst: 1.0,
            variant: ClearPathVariant::Guaranteed,
        }
    }
}

/// Brandejský's variant: every obstacle whose surface lies within the reaction distance counts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct BrandejskyParams {
    /// Extra distance (m) beyond both radii within which velocity obstacles are built.
    pub reaction_distance: f32,
    /// ΔT (s) of the FVO truncation (the thesis's printed formula is ΔT = 1 s).
    pub time_horizon: f32,
}

impl Default for BrandejskyParams {
    fn default() -> Self {
        BrandejskyParams {
            reaction_distance: 1.7,
            time_horizon: 1.0,
        }
    }
}

/// What the solver needs to know of a method's neighbourhood, whatever the method.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reach {
    /// Centre distance for agents; `None` = surface distance `reaction_distance` instead.
    pub neighbor_dist: Option<f32>,
    /// Surface distance (Brandejský); 0 otherwise.
    pub reaction_distance: f32,
    /// Most agents considered.
    pub max_neighbors: usize,
    /// Time horizon for agents and moving obstacles (s).
    pub time_horizon: f32,
    /// Time horizon for static obstacles (s).
    pub time_horizon_obst: f32,
    /// Time gap to the agent ahead (s) that caps the preferred speed; 0 for none.
    pub time_gap: f32,
}

impl Avoidance {
    /// The slowest turn rate (degrees per second) locomotion may have at tick length `dt` for
    /// the method to work as designed: ORCA's guarantee holds only when its chosen velocity is
    /// applied unchanged, which needs any turn within one tick (180° per tick); 0 for the others.
    pub fn min_turn_rate_deg(&self, dt: f32) -> f32 {
        match self {
            Avoidance::Orca(_) => 180.0 / dt,
            _ => 0.0,
        }
    }

    /// The neighbourhood the method looks at (`None` for no avoidance).
    pub fn reach(&self) -> Option<Reach> {
        let from = |p: &ObstacleParams| Reach {
            neighbor_dist: Some(p.neighbor_dist),
            reaction_distance: 0.0,
            max_neighbors: p.max_neighbors as usize,
            time_horizon: p.time_horizon,
            time_horizon_obst: p.time_horizon_obst,
            time_gap: p.time_gap,
        };
        match self {
            Avoidance::None => None,
            Avoidance::Vo(p) | Avoidance::Rvo(p) | Avoidance::Orca(p) => Some(from(p)),
            Avoidance::ClearPath(p) => Some(Reach {
                neighbor_dist: Some(p.neighbor_dist),
                reaction_distance: 0.0,
                max_neighbors: p.max_neighbors as usize,
                time_horizon: p.time_horizon,
                time_horizon_obst: p.time_horizon_obst,
                time_gap: 0.0,
            }),
            Avoidance::Brandejsky(p) => Some(Reach {
                neighbor_dist: None,
                reaction_distance: p.reaction_distance,
                max_neighbors: usize::MAX,
                time_horizon: p.time_horizon,
                time_horizon_obst: p.time_horizon,
                time_gap: 0.0,
            }),
        }
    }

    /// How far an agent of `radius` must look for other agents: the centre distance, or for
    /// Brandejský the surface distance plus its own radius (the other's radius is added by the
    /// caller); 0 without avoidance.
    pub fn query_radius(&self, radius: f32) -> f32 {
        match self.reach() {
            None => 0.0,
            Some(Reach {
                neighbor_dist: Some(d), ..
            }) => d,
            Some(r) => r.reaction_distance + radius,
        }
    }

    /// Reports every invalid parameter under the field path `at` (e.g. `profiles[0].avoidance`).
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        let Some(reach) = self.reach() else { return };
        let kind = match self {
            Avoidance::None => return,
            Avoidance::Vo(_) => "Vo",
            Avoidance::Rvo(_) => "Rvo",
            Avoidance::Orca(_) => "Orca",
            Avoidance::ClearPath(_) => "ClearPath",
            Avoidance::Brandejsky(_) => "Brandejsky",
        };
        if let Some(dist) = reach.neighbor_dist {
            problems.positive(format!("{at}.{kind}.neighbor_dist"), dist);
            if reach.max_neighbors == 0 {
                problems.push(format!("{at}.{kind}.max_neighbors"), "0 must be at least 1");
            }
        } else {
            problems.non_negative(format!("{at}.{kind}.reaction_distance"), reach.reaction_distance);
        }
        problems.positive(format!("{at}.{kind}.time_horizon"), reach.time_horizon);
        if reach.neighbor_dist.is_some() {
            problems.positive(format!("{at}.{kind}.time_horizon_obst"), reach.time_horizon_obst);
        }
        if let Avoidance::Vo(p) | Avoidance::Rvo(p) | Avoidance::Orca(p) = self {
            problems.non_negative(format!("{at}.{kind}.time_gap"), p.time_gap);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_parameters_take_rvo2_defaults() {
        let a: Avoidance = ron::from_str("Orca((time_horizon: 5.0))").unwrap();
        assert_eq!(
            a,
            Avoidance::Orca(ObstacleParams {
                time_horizon: 5.0,
                ..ObstacleParams::default()
            })
        );
        assert_eq!(ron::from_str::<Avoidance>("None").unwrap(), Avoidance::None);
    }

    #[test]
    fn every_bad_parameter_is_reported_with_its_path_and_value() {
        let mut problems = Problems::default();
        Avoidance::Orca(ObstacleParams {
            neighbor_dist: -1.0,
            max_neighbors: 0,
            time_horizon: 0.0,
            time_horizon_obst: f32::NAN,
            time_gap: -1.0,
        })
        .validate("profiles[2].avoidance", &mut problems);
        let text: Vec<String> = problems.0.iter().map(|p| p.to_string()).collect();
        assert_eq!(text.len(), 5, "{text:?}");
        assert!(text[0].starts_with("profiles[2].avoidance.Orca.neighbor_dist: -1"));
        assert!(text[1].starts_with("profiles[2].avoidance.Orca.max_neighbors: 0"));
        assert!(text[3].contains("NaN"));
        assert!(text[4].starts_with("profiles[2].avoidance.Orca.time_gap: -1"));
        let mut problems = Problems::default();
        Avoidance::Brandejsky(BrandejskyParams {
            reaction_distance: -0.5,
            time_horizon: 1.0,
        })
        .validate("p", &mut problems);
        assert_eq!(problems.0[0].path, "p.Brandejsky.reaction_distance");
    }
}
