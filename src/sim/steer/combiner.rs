//! Combiners: turn the weighted behaviour forces into one steering force within max force.
//! The combiner also reports, per behaviour, the weighted force and the share of it kept.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::geom::truncate;

/// How a profile's behaviour forces are combined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Combiner {
    /// Buckland §3.1: F = Σ wᵢ·fᵢ, truncated to max force.
    #[default]
    WeightedTruncatedSum,
    /// Popelová §4: weighted mean of the human steerings' outputs and the previous velocity
    /// (evaluated by [`super::human::PopelovaCombiner`]).
    Popelova(super::human::PopelovaCombiner),
    /// Stria §4.2.3: the first needed force in priority order, with per-force skip probabilities
    /// (evaluated by [`super::stria::select`]).
    PrioritySelection,
}

/// One behaviour's contribution, as recorded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelledForce {
    /// Index into the recording's label table.
    pub label: u16,
    /// The weighted force the behaviour asked for.
    pub force: Vec2,
    /// Fraction (0–1) of that force that made it into the combined force.
    pub kept: f32,
}

/// The result of combining: the steering force and each behaviour's part.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CombinedSteering {
    /// The force handed to locomotion (|force| ≤ max force).
    pub force: Vec2,
    /// Every behaviour's weighted output, in profile order.
    pub parts: Vec<LabelledForce>,
}

impl Combiner {
    /// Combines weighted behaviour forces `parts` (kept fractions are filled in) under `max_force`.
    pub fn combine(&self, mut parts: Vec<LabelledForce>, max_force: f32) -> CombinedSteering {
        match self {
            Combiner::WeightedTruncatedSum | Combiner::Popelova(_) | Combiner::PrioritySelection => {
                let sum: Vec2 = parts.iter().map(|p| p.force).sum();
                let force = truncate(sum, max_force);
                let len = sum.length();
                let kept = if len > 0.0 { force.length() / len } else { 1.0 };
                for p in &mut parts {
                    p.kept = kept;
                }
                CombinedSteering { force, parts }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(label: u16, x: f32, y: f32) -> LabelledForce {
        LabelledForce {
            label,
            force: Vec2::new(x, y),
            kept: 0.0,
        }
    }

    #[test]
    fn weighted_sum_is_truncated_and_reports_the_kept_share() {
        let out = Combiner::WeightedTruncatedSum.combine(vec![part(0, 6.0, 0.0), part(1, 0.0, 8.0)], 5.0);
        assert!((out.force - Vec2::new(3.0, 4.0)).length() < 1e-6);
        assert!(out.parts.iter().all(|p| (p.kept - 0.5).abs() < 1e-6));
        let small = Combiner::WeightedTruncatedSum.combine(vec![part(0, 1.0, 0.0)], 5.0);
        assert_eq!(small.force, Vec2::new(1.0, 0.0));
        assert_eq!(small.parts[0].kept, 1.0);
    }
}
