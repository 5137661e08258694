//! Parameters of Popelová's TARGET APPROACHING (§3.3, Table 3.3): the basic pull's Attractive
//! Force and the extended behaviour's locations, each with a piecewise-linear distance → force
//! function (positive attracts, negative repels) given by breakpoints [distance, value,
//! continues]; `continues = false` makes the next segment zero. Beyond the last breakpoint the
//! value holds if it continues, else it is zero. With the functions' evaluation, defaults and
//! validation; the steering is computed by the simulator (`sim::steer::human`).

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::scene::Problems;

/// One breakpoint of a distance → force function (metres, m/s).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Breakpoint {
    /// Distance from the location in metres.
    pub distance: f32,
    /// Force there, m/s (positive attracts, negative repels).
    pub value: f32,
    /// False makes the segment to the next breakpoint zero.
    pub continues: bool,
}

/// A location with its distance → force function.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DistanceFunction {
    /// The attracting / repelling point; `None` means the agent's goal.
    #[serde(default)]
    pub location: Option<Vec2>,
    /// Breakpoints by ascending distance.
    pub breakpoints: Vec<Breakpoint>,
}

impl DistanceFunction {
    /// The signed force magnitude at `distance`.
    pub fn value_at(&self, distance: f32) -> f32 {
        let b = &self.breakpoints;
        let Some(i) = b.iter().rposition(|p| p.distance <= distance) else {
            return 0.0;
        };
        let p = b[i];
        match b.get(i + 1) {
            _ if !p.continues => 0.0,
            None => p.value,
            Some(q) => p.value + (q.value - p.value) * (distance - p.distance) / (q.distance - p.distance),
        }
    }
}

/// Parameters of target approaching (Table 3.3; metres, forces in m/s = N_UT/100).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct TargetApproaching {
    /// Attractive Force (thesis 0–1000 N_UT; recommended 100 N_UT = 1.0) of the basic pull.
    pub attractive_force: f32,
    /// The extended behaviour's list of ⟨location, function⟩; empty = basic pull to the goal.
    pub functions: Vec<DistanceFunction>,
}

impl Default for TargetApproaching {
    fn default() -> Self {
        TargetApproaching {
            attractive_force: 1.0,
            functions: Vec::new(),
        }
    }
}

impl TargetApproaching {
    /// Reports negative forces and unordered breakpoints.
    pub fn validate(&self, at: &str, problems: &mut Problems) {
        problems.non_negative(format!("{at}.attractive_force"), self.attractive_force);
        for (i, f) in self.functions.iter().enumerate() {
            let ordered = f.breakpoints.windows(2).all(|w| w[0].distance < w[1].distance);
            if f.breakpoints.is_empty() || !ordered || f.breakpoints[0].distance < 0.0 {
                problems.push(
                    format!("{at}.functions[{i}].breakpoints"),
                    "need at least one breakpoint, at distances ≥ 0 in strictly ascending order",
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fig. 3.11 in metres: [0, −180, true], [1500, −100, false], [2000, 100, true],
    /// [3500, 100, true], [4000, 300, true] (cm, N_UT).
    fn fig_3_11() -> DistanceFunction {
        let bp = |distance, value, continues| Breakpoint {
            distance,
            value,
            continues,
        };
        DistanceFunction {
            location: None,
            breakpoints: vec![
                bp(0.0, -1.8, true),
                bp(15.0, -1.0, false),
                bp(20.0, 1.0, true),
                bp(35.0, 1.0, true),
                bp(40.0, 3.0, true),
            ],
        }
    }

    #[test]
    fn figure_3_11_profile() {
        let f = fig_3_11();
        assert_eq!(f.value_at(17.5), 0.0, "no force in the 1500–2000 cm ring");
        assert_eq!(f.value_at(16.0), 0.0);
        assert!((f.value_at(0.0) + 1.8).abs() < 1e-6, "repulsion 180 at the target");
        assert!(
            (f.value_at(7.5) + 1.4).abs() < 1e-6,
            "repulsion grows from 100 to 180 inwards"
        );
        assert!(
            (f.value_at(27.0) - 1.0).abs() < 1e-6,
            "constant 100 between 2000 and 3500"
        );
        assert!((f.value_at(37.5) - 2.0).abs() < 1e-6, "300 → 100 between 4000 and 3500");
    }
}
