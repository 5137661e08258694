//! What an avoiding agent does when it has stood still short of its goal, as written in a scene
//! file, with its validation. The remedy is applied by the simulator (`sim::avoid::unstick`).
//!
//! Velocity-obstacle methods can lock up in symmetric situations: RVO2's own remedy, a tiny
//! random perturbation of the preferred velocity ([`super::PreferredVelocity::TowardGoal`]),
//! does not free a ring of touching bodies where every agent's only permitted velocity is
//! standing still. Many crowd models break such symmetry with a consistent "keep right" bias;
//! crowdlab applies it only to an agent that is stuck, so free walking is untouched.

use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// When an avoiding agent counts as stuck and how it sidesteps. An agent is stuck after
/// `after` seconds in which neither its speed nor that of any neighbour it looks at reached
/// `slow_fraction` of its preferred speed while it had a goal it had not reached (one waiting
/// behind a moving queue is not stuck); it then turns its preferred velocity `turn_deg` degrees to
/// the right for `hold` seconds (a seeded fraction longer, up to half again, so neighbours do
/// not fall back into step) and re-plans its route from where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct Unstick {
    /// Seconds of standing still before the agent counts as stuck; 0 turns the remedy off.
    pub after: f32,
    /// Speeds below this fraction of the preferred speed count as standing still.
    pub slow_fraction: f32,
    /// Clockwise turn of the preferred velocity while sidestepping (degrees, ≤ 180).
    pub turn_deg: f32,
    /// Seconds a sidestep lasts at least.
    pub hold: f32,
}

impl Default for Unstick {
    fn default() -> Self {
        Unstick {
            after: 2.0,
            slow_fraction: 0.03,
            turn_deg: 90.0,
            hold: 1.5,
        }
    }
}

impl Unstick {
    /// True when the remedy is switched on.
    pub fn enabled(&self) -> bool {
        self.after > 0.0
    }

    /// Reports invalid parameters under the field path `at`.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        problems.non_negative(format!("{at}.after"), self.after);
        problems.within(format!("{at}.slow_fraction"), self.slow_fraction, 0.0, 1.0);
        problems.within(format!("{at}.turn_deg"), self.turn_deg, -180.0, 180.0);
        problems.non_negative(format!("{at}.hold"), self.hold);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_values_are_reported_by_field() {
        let mut problems = Problems::default();
        Unstick::default().validate("p", &mut problems);
        assert!(problems.0.is_empty(), "{:?}", problems.0);
        let bad = Unstick {
            after: -1.0,
            slow_fraction: 1.5,
            turn_deg: f32::NAN,
            hold: -0.5,
        };
        bad.validate("p", &mut problems);
        let paths: Vec<String> = problems.0.into_iter().map(|p| p.path).collect();
        assert_eq!(paths, ["p.after", "p.slow_fraction", "p.turn_deg", "p.hold"]);
    }
}
