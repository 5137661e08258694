//! The crowd's mind states over time as stacked areas: for every analysed tick, the present
//! agents in each state, one band per state in the canvas's "colour by state" colours.

use egui_plot::FilledArea;

use super::thinning::Thinning;
use crate::app::analysis::TickSummary;
use crate::app::paint::color32;
use crate::draw::force_color;
use crate::record::RecordingHeader;

/// One band per mind state of `header`, bottom (state 0) to top, over the ticks of `summaries`
/// the plot shows (every few ticks when there are more than it has pixel columns).
pub fn stacked(summaries: &[TickSummary], header: &RecordingHeader, thin: &Thinning) -> Vec<FilledArea> {
    let dt = f64::from(header.dt);
    let shown = &summaries[thin.indices(summaries, |s| s.tick as f64 * dt)];
    let step = thin.bucket(shown.len());
    let sampled: Vec<TickSummary> = shown.iter().step_by(step).cloned().collect();
    let times: Vec<f64> = sampled.iter().map(|s| s.tick as f64 * dt).collect();
    // Only the states someone is in at some tick get a band (and a legend entry).
    let occupied = |state: usize| shown.iter().any(|s| s.states.get(state).is_some_and(|&n| n > 0));
    header
        .states
        .iter()
        .zip(edges(&sampled, header.states.len()))
        .enumerate()
        .filter(|(state, _)| occupied(*state))
        .map(|(_, (name, (below, above)))| {
            let colour = color32(force_color(name));
            FilledArea::new(name.clone(), &times, &below, &above)
                .fill_color(colour.gamma_multiply(0.7))
                .stroke(eframe::egui::Stroke::new(1.0, colour))
        })
        .collect()
}

/// The lower and upper edge of each of `states` bands at every tick of `summaries`: a band's
/// lower edge is the sum of the states below it, its upper edge adds its own agents.
fn edges(summaries: &[TickSummary], states: usize) -> Vec<(Vec<f64>, Vec<f64>)> {
    let mut below = vec![0.0; summaries.len()];
    (0..states)
        .map(|state| {
            let above: Vec<f64> = summaries
                .iter()
                .zip(&below)
                .map(|(s, low)| low + f64::from(s.states.get(state).copied().unwrap_or(0)))
                .collect();
            (std::mem::replace(&mut below, above.clone()), above)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_band_sits_on_the_states_below_it() {
        let summary = |tick, states: Vec<u32>| TickSummary {
            tick,
            present: states.iter().sum(),
            mean_speed: 0.0,
            contacts: 0,
            arrived: 0,
            min_distance: None,
            stuck: 0,
            states,
        };
        let summaries = [summary(0, vec![3]), summary(1, vec![1, 2]), summary(2, vec![0, 1, 4])];
        let bands = edges(&summaries, 3);
        assert_eq!(bands[0], (vec![0.0, 0.0, 0.0], vec![3.0, 1.0, 0.0]));
        assert_eq!(bands[1], (vec![3.0, 1.0, 0.0], vec![3.0, 3.0, 1.0]));
        assert_eq!(
            bands[2],
            (vec![3.0, 3.0, 1.0], vec![3.0, 3.0, 5.0]),
            "the top is every agent"
        );
    }
}
