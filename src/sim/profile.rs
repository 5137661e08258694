//! A scene profile converted to simulation units (radians) with its labels resolved.

use crate::scene::Profile;
use crate::scene::avoidance::{Avoidance, PreferredVelocity, Unstick};
use crate::scene::steering::{Behaviour, BehaviourSpec, Combiner};
use crate::sim::steer::TaggedView;

/// A profile ready for simulation: SI units, flocking presets expanded, label indices resolved,
/// neighbour radius known.
#[derive(Clone, Debug)]
pub struct ResolvedProfile {
    /// Body radius in metres.
    pub radius: f32,
    /// Mass in kilograms.
    pub mass: f32,
    /// Speed cap in m/s.
    pub max_speed: f32,
    /// Cruising speed in m/s.
    pub preferred_speed: f32,
    /// Steering force cap.
    pub max_force: f32,
    /// Heading change cap in radians per second.
    pub max_turn_rate: f32,
    /// Behaviours with weights, in priority order (presets expanded).
    pub behaviours: Vec<BehaviourSpec>,
    /// Recording label index of each behaviour.
    pub labels: Vec<u16>,
    /// Dithering probability of each behaviour.
    pub probabilities: Vec<f32>,
    /// How the behaviour forces are combined.
    pub combiner: Combiner,
    /// Largest neighbour radius any behaviour or the avoidance method needs (0 = no neighbour query).
    pub neighbour_radius: f32,
    /// Largest neighbour radius any behaviour needs (0 = the behaviours ignore other agents).
    pub behaviour_radius: f32,
    /// True when something reads the agents within the neighbour radius one by one: Popelová's
    /// or Stria's behaviours, or an avoidance method that takes everyone in range. Separation,
    /// alignment and cohesion read the neighbour grid's flock lanes instead, and the stall
    /// check, without such a method, is off or asks the grid.
    pub lists_neighbours: bool,
    /// The view of the first behaviour that reads the flock sums (separation, alignment,
    /// cohesion), whose sums the frame's contact check computes ahead for the next tick; `None`
    /// when no behaviour reads them.
    pub flock_view: Option<TaggedView>,
    /// When the avoidance method takes the `k` nearest within a centre distance (RVO2's
    /// neighbor_dist, max_neighbors): `(distance, k)`, so that its neighbours are RVO2's
    /// k-nearest query, looked up apart from the behaviours' neighbours.
    pub nearest: Option<(f32, usize)>,
    /// Where the preferred velocity comes from.
    pub preferred_velocity: PreferredVelocity,
    /// The avoidance method.
    pub avoidance: Avoidance,
    /// The stuck-agent remedy, switched off for profiles without avoidance.
    pub unstick: Unstick,
    /// Waypoint reach distance set by a FollowPath behaviour, overriding half the path width.
    pub waypoint_seek_distance: Option<f32>,
    /// Number of headings averaged for display (0 = no smoothing).
    pub heading_smoothing: usize,
}

impl ResolvedProfile {
    /// Resolves `profile`, interning behaviour labels into `label_table`.
    pub fn new(profile: &Profile, label_table: &mut Vec<String>) -> ResolvedProfile {
        let behaviours: Vec<BehaviourSpec> = profile
            .behaviours
            .iter()
            .flat_map(|b| {
                b.behaviour.expand(b.weight).into_iter().map(|mut e| {
                    e.probability = e.probability.or(b.probability);
                    e
                })
            })
            .collect();
        let labels = behaviours
            .iter()
            .map(|b| {
                let name = b.behaviour.label();
                let index = label_table.iter().position(|l| l == name).unwrap_or_else(|| {
                    label_table.push(name.to_string());
                    label_table.len() - 1
                });
                index as u16
            })
            .collect();
        let behaviour_radius = behaviours
            .iter()
            .map(|b| b.behaviour.neighbour_radius())
            .fold(0.0, f32::max);
        let nearest = nearest(&behaviours, &profile.avoidance);
        ResolvedProfile {
            radius: profile.radius,
            mass: profile.mass,
            max_speed: profile.max_speed,
            preferred_speed: profile.preferred_speed,
            max_force: profile.max_force,
            max_turn_rate: profile.max_turn_rate_deg.to_radians(),
            labels,
            probabilities: behaviours.iter().map(BehaviourSpec::dither_probability).collect(),
            combiner: profile.combiner,
            neighbour_radius: behaviour_radius.max(profile.avoidance.query_radius(profile.radius)),
            behaviour_radius,
            lists_neighbours: behaviours.iter().any(|b| {
                matches!(b.behaviour, Behaviour::Human(_) | Behaviour::Stria(_)) && b.behaviour.neighbour_radius() > 0.0
            }) || (profile.avoidance != Avoidance::None && nearest.is_none()),
            flock_view: behaviours.iter().find_map(|b| match b.behaviour {
                Behaviour::Separation { view_radius, fov_deg }
                | Behaviour::Alignment { view_radius, fov_deg }
                | Behaviour::Cohesion { view_radius, fov_deg } => Some(TaggedView::new(view_radius, fov_deg)),
                _ => None,
            }),
            nearest,
            preferred_velocity: profile.preferred_velocity,
            avoidance: profile.avoidance,
            unstick: if profile.avoidance == Avoidance::None {
                Unstick {
                    after: 0.0,
                    ..profile.unstick
                }
            } else {
                profile.unstick
            },
            waypoint_seek_distance: behaviours.iter().find_map(|b| match b.behaviour {
                Behaviour::FollowPath {
                    waypoint_seek_distance, ..
                } => waypoint_seek_distance,
                _ => None,
            }),
            heading_smoothing: profile.heading_smoothing as usize,
            behaviours,
        }
    }

    /// This profile with max and preferred speed multiplied by `factor` (panic makes agents run).
    pub fn with_speed_factor(&self, factor: f32) -> ResolvedProfile {
        ResolvedProfile {
            max_speed: self.max_speed * factor,
            preferred_speed: self.preferred_speed * factor,
            ..self.clone()
        }
    }
}

/// `(neighbor_dist, max_neighbors)` when the avoidance method considers only its nearest
/// neighbours within a centre distance and every behaviour reads other agents only within its
/// own neighbour radius. Popelová's people avoidance reads every agent it is given (its
/// circumvention projects anyone's path), so a profile with it keeps one query for both.
fn nearest(behaviours: &[BehaviourSpec], avoidance: &Avoidance) -> Option<(f32, usize)> {
    let reach = avoidance.reach()?;
    let reads_all_given = behaviours
        .iter()
        .any(|b| matches!(b.behaviour, Behaviour::Human(_)) && b.behaviour.neighbour_radius() > 0.0);
    match reach.neighbor_dist {
        Some(d) if !reads_all_given => Some((d, reach.max_neighbors)),
        _ => None,
    }
}
