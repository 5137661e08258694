//! The combiner of a profile as written in a scene file: which method turns the behaviours'
//! weighted forces, in priority order, into one steering force (Buckland §3, Popelová §4,
//! Stria §4.2.3). The methods themselves are implemented by the simulator (`sim::steer`).

use serde::{Deserialize, Serialize};

use super::human::PopelovaCombiner;

/// How a profile's behaviour forces are combined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Combiner {
    /// Buckland §3.1: F = Σ wᵢ·fᵢ, truncated to max force.
    #[default]
    WeightedTruncatedSum,
    /// Buckland §3.2 (the text's default): running sum in priority order within the force budget.
    PrioritisedRunningSum,
    /// Buckland §3.3: one behaviour per tick, chosen by priority and probability.
    PrioritisedDithering,
    /// Popelová §4: weighted mean of the human steerings' outputs and the previous velocity
    /// (evaluated by the simulator's Popelová combiner; its generic combination treats it like the
    /// weighted sum).
    Popelova(PopelovaCombiner),
    /// Stria §4.2.3: the first needed force in priority order, with per-force skip probabilities
    /// (evaluated by the simulator's Stria selection).
    PrioritySelection,
}
