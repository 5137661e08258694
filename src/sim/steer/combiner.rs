//! Combiners (Buckland §3): turn the profile's behaviours, in priority order, into one steering
//! force within max force. The combiner drives evaluation, so the prioritised methods can skip
//! behaviours, and reports per behaviour the weighted force it asked for and the share kept
//! (0 for a behaviour that was not evaluated).
//!
//! - [`Combiner::WeightedTruncatedSum`] (§3.1): evaluate all, sum, truncate.
//! - [`Combiner::PrioritisedRunningSum`] (§3.2): add each weighted force through
//!   [`accumulate_force`] until the max-force budget is spent; lower priorities are skipped.
//! - [`Combiner::PrioritisedDithering`] (§3.3): each behaviour is evaluated with its probability
//!   (a random draw from the agent's own generator); the first non-zero result, divided by the
//!   probability and truncated, is the whole force. Fix (§8.10): the text tests
//!   `RandFloat() > pr`, which would run a 0.9 behaviour 10 % of the time; `draw < pr` is used.
//! - [`Combiner::Popelova`] is evaluated by [`super::human::steer_agent`] and
//!   [`Combiner::PrioritySelection`] by [`super::stria::select`]; combined here, both are treated
//!   like the weighted sum.

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use crate::geom::truncate;
use crate::scene::steering::Combiner;

/// One behaviour's contribution, as recorded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelledForce {
    /// Index into the recording's label table.
    pub label: u16,
    /// The weighted force the behaviour asked for (zero when it was not evaluated).
    pub force: Vec2,
    /// Fraction (0–1) of that force that made it into the combined force.
    pub kept: f32,
}

impl LabelledForce {
    /// One zero, not-kept part per label: the state before any behaviour is evaluated.
    pub fn unevaluated(labels: &[u16]) -> Vec<LabelledForce> {
        let mut parts = Vec::with_capacity(labels.len());
        LabelledForce::reset(&mut parts, labels);
        parts
    }

    /// Replaces the contents of `parts` with [`LabelledForce::unevaluated`]'s, keeping its memory.
    pub fn reset(parts: &mut Vec<LabelledForce>, labels: &[u16]) {
        parts.clear();
        parts.extend(labels.iter().map(|&label| LabelledForce {
            label,
            force: Vec2::ZERO,
            kept: 0.0,
        }));
    }
}

/// The result of combining: the steering force and each behaviour's part.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CombinedSteering {
    /// The force handed to locomotion (|force| ≤ max force).
    pub force: Vec2,
    /// Every behaviour's weighted output, in profile order.
    pub parts: Vec<LabelledForce>,
}

/// Buckland's `AccumulateForce`: adds as much of `add` to `total` as the budget `max_force`
/// allows. Returns the share of `add` that was added, or `None` when the budget was already spent.
pub fn accumulate_force(total: &mut Vec2, add: Vec2, max_force: f32) -> Option<f32> {
    let remaining = max_force - total.length();
    if remaining <= 0.0 {
        return None;
    }
    let magnitude = add.length();
    if magnitude < remaining {
        *total += add;
        Some(1.0)
    } else {
        *total += add.normalize_or_zero() * remaining;
        Some(remaining / magnitude)
    }
}

/// What the combiner needs to know about each behaviour, in priority order.
pub struct CombinerInput<'a> {
    /// Recording label of each behaviour.
    pub labels: &'a [u16],
    /// Dithering probability of each behaviour.
    pub probabilities: &'a [f32],
    /// Cap on the combined force.
    pub max_force: f32,
}

impl Combiner {
    /// Combines the behaviours of `input`; `weighted(i, rng)` evaluates behaviour `i` and returns
    /// its weighted force. Behaviours are evaluated in order and only as far as the method needs.
    /// `parts` is memory for the result's parts (its contents are replaced), so an agent can
    /// reuse last tick's.
    pub fn combine(
        &self,
        input: &CombinerInput,
        rng: &mut Pcg32,
        mut parts: Vec<LabelledForce>,
        mut weighted: impl FnMut(usize, &mut Pcg32) -> Vec2,
    ) -> CombinedSteering {
        LabelledForce::reset(&mut parts, input.labels);
        let max_force = input.max_force;
        let force = match self {
            Combiner::WeightedTruncatedSum | Combiner::Popelova(_) | Combiner::PrioritySelection => {
                let mut sum = Vec2::ZERO;
                for (i, part) in parts.iter_mut().enumerate() {
                    part.force = weighted(i, rng);
                    sum += part.force;
                }
                let force = truncate(sum, max_force);
                let len = sum.length();
                let kept = if len > 0.0 { force.length() / len } else { 1.0 };
                parts.iter_mut().for_each(|p| p.kept = kept);
                force
            }
            Combiner::PrioritisedRunningSum => {
                let mut total = Vec2::ZERO;
                for (i, part) in parts.iter_mut().enumerate() {
                    part.force = weighted(i, rng);
                    match accumulate_force(&mut total, part.force, max_force) {
                        Some(kept) => part.kept = kept,
                        None => break,
                    }
                }
                total
            }
            Combiner::PrioritisedDithering => {
                let mut chosen = Vec2::ZERO;
                for (i, part) in parts.iter_mut().enumerate() {
                    let probability = input.probabilities[i];
                    if rng.random::<f32>() < probability {
                        part.force = weighted(i, rng) / probability;
                        if part.force != Vec2::ZERO {
                            chosen = truncate(part.force, max_force);
                            part.kept = chosen.length() / part.force.length();
                            break;
                        }
                    }
                }
                chosen
            }
        };
        CombinedSteering { force, parts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn run(
        combiner: Combiner,
        forces: &[Vec2],
        probabilities: &[f32],
        max_force: f32,
    ) -> (CombinedSteering, Vec<usize>) {
        let labels: Vec<u16> = (0..forces.len() as u16).collect();
        let input = CombinerInput {
            labels: &labels,
            probabilities,
            max_force,
        };
        let mut evaluated = Vec::new();
        let mut rng = Pcg32::seed_from_u64(11);
        let out = combiner.combine(&input, &mut rng, Vec::new(), |i, _| {
            evaluated.push(i);
            forces[i]
        });
        (out, evaluated)
    }

    #[test]
    fn weighted_sum_is_truncated_and_reports_the_kept_share() {
        let forces = [Vec2::new(6.0, 0.0), Vec2::new(0.0, 8.0)];
        let (out, _) = run(Combiner::WeightedTruncatedSum, &forces, &[1.0, 1.0], 5.0);
        assert!((out.force - Vec2::new(3.0, 4.0)).length() < 1e-6);
        assert!(out.parts.iter().all(|p| (p.kept - 0.5).abs() < 1e-6));
        let (small, _) = run(Combiner::WeightedTruncatedSum, &[Vec2::X], &[1.0], 5.0);
        assert_eq!((small.force, small.parts[0].kept), (Vec2::X, 1.0));
    }

    #[test]
    fn buckland_accumulate_force_examples() {
        // §5.2 (MaxForce 10): (6, 0) + (0, 10) → remaining 4 → (6, 4), |·| = 7.21, 2.79 still available.
        let mut total = Vec2::new(6.0, 0.0);
        assert_eq!(accumulate_force(&mut total, Vec2::new(0.0, 10.0), 10.0), Some(0.4));
        assert_eq!(total, Vec2::new(6.0, 4.0));
        assert!((10.0 - total.length() - 2.789).abs() < 1e-3);
        // A total of (10, 0): the next call returns false and the result stays (10, 0).
        let mut full = Vec2::new(10.0, 0.0);
        assert_eq!(accumulate_force(&mut full, Vec2::Y, 10.0), None);
        assert_eq!(full, Vec2::new(10.0, 0.0));
    }

    #[test]
    fn running_sum_skips_lower_priorities_once_the_budget_is_spent() {
        let forces = [
            Vec2::new(6.0, 0.0),
            Vec2::new(0.0, 10.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
        ];
        let (out, evaluated) = run(Combiner::PrioritisedRunningSum, &forces, &[1.0; 4], 10.0);
        assert_eq!(out.force, Vec2::new(7.0, 5.0));
        assert_eq!(evaluated, vec![0, 1, 2, 3]);
        let kept: Vec<f32> = out.parts.iter().map(|p| p.kept).collect();
        assert_eq!(kept[..2], [1.0, 0.4]);
        assert!(out.force.length() <= 10.0 + 1e-5);
        let (full, evaluated) = run(
            Combiner::PrioritisedRunningSum,
            &[Vec2::new(12.0, 0.0), Vec2::Y, Vec2::X],
            &[1.0; 3],
            10.0,
        );
        assert_eq!(full.force, Vec2::new(10.0, 0.0));
        assert_eq!(evaluated, vec![0, 1]);
        assert_eq!(full.parts[1].kept, 0.0);
    }

    #[test]
    fn buckland_dithering_examples() {
        // §5.2: wall avoidance (pr 0.9) evaluated and non-zero → WA·w/0.9 truncated, nothing else evaluated.
        let mut probe = Pcg32::seed_from_u64(11);
        assert!(probe.random::<f32>() < 0.9, "seed 11 draws below 0.9 first");
        let forces = [Vec2::new(0.0, 9.0), Vec2::new(3.0, 0.0)];
        let (out, evaluated) = run(Combiner::PrioritisedDithering, &forces, &[0.9, 0.9], 5.0);
        assert_eq!(evaluated, vec![0]);
        assert!((out.force - Vec2::new(0.0, 5.0)).length() < 1e-5);
        assert!((out.parts[0].force - Vec2::new(0.0, 10.0)).length() < 1e-4);
        assert!((out.parts[0].kept - 0.5).abs() < 1e-5);
        // A zero result falls through to the next priority.
        let (next, evaluated) = run(Combiner::PrioritisedDithering, &[Vec2::ZERO, Vec2::X], &[1.0, 1.0], 5.0);
        assert_eq!(evaluated, vec![0, 1]);
        assert_eq!(next.force, Vec2::X);
    }

    #[test]
    fn dithering_runs_a_behaviour_with_its_probability() {
        // The `<` test: a behaviour with probability 0.9 is evaluated about 90 % of the time.
        let mut rng = Pcg32::seed_from_u64(5);
        let input = CombinerInput {
            labels: &[0],
            probabilities: &[0.9],
            max_force: 1.0,
        };
        let mut runs = 0;
        for _ in 0..10_000 {
            Combiner::PrioritisedDithering.combine(&input, &mut rng, Vec::new(), |_, _| {
                runs += 1;
                Vec2::X
            });
        }
        assert!((8_800..9_200).contains(&runs), "{runs}");
    }
}
