//! Thinning a long series to what a plot can show: once zoomed, only the points in the stretch of
//! time the plot showed last frame (the time plots share their time axis), and at most a few per pixel
//! column — in each column the lowest and highest point in time order, so peaks survive. A
//! 6,000-tick series in a 400-pixel plot draws about 800 points instead of 6,000, and zooming in
//! brings the detail back.

use eframe::egui::{Id, Ui};

/// Points kept per pixel column of the plot (its lowest and highest).
const POINTS_PER_COLUMN: usize = 2;

/// What a plot of a known width, showing a known stretch of time, needs of a series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thinning {
    /// The time (s) the zoomed plot showed last frame, `None` when it fits all its data.
    range: Option<(f64, f64)>,
    /// Pixel columns of the plot.
    columns: usize,
}

/// Where a plot keeps the time range it showed.
fn range_id(title: &str) -> Id {
    Id::unique(("plot time range", title))
}

impl Thinning {
    /// The thinning for the plot `title` about to be drawn `width` pixels wide in `ui`.
    pub fn of(ui: &Ui, title: &str, width: f32) -> Thinning {
        Thinning {
            range: ui.data(|d| d.get_temp(range_id(title))),
            columns: width.max(1.0) as usize,
        }
    }

    /// Remembers the times (seconds) the plot `title` showed when zoomed, `None` when it fits
    /// its data.
    pub fn remember(ui: &Ui, title: &str, shown: Option<(f64, f64)>) {
        ui.data_mut(|d| match shown {
            Some(range) => {
                d.insert_temp(range_id(title), range);
            }
            None => d.remove::<(f64, f64)>(range_id(title)),
        });
    }

    /// The range of `items` (ascending in time, `time` giving an item's time) the plot needs:
    /// those in its range plus one either side.
    pub fn indices<T>(&self, items: &[T], time: impl Fn(&T) -> f64) -> std::ops::Range<usize> {
        let Some((min, max)) = self.range else {
            return 0..items.len();
        };
        let from = items.partition_point(|item| time(item) < min).saturating_sub(1);
        let to = (items.partition_point(|item| time(item) <= max) + 1).min(items.len());
        from..to.max(from)
    }

    /// How many consecutive points share a pixel column among `count` points in view.
    pub fn bucket(&self, count: usize) -> usize {
        count.div_ceil(self.columns.max(1)).max(1)
    }

    /// The points of `points` (in time order) the plot draws: those in view, and of each run of
    /// points sharing a pixel column only the lowest and the highest, in time order.
    pub fn line(&self, points: &[[f64; 2]]) -> Vec<[f64; 2]> {
        let shown = &points[self.indices(points, |p| p[0])];
        let bucket = self.bucket(shown.len());
        if bucket <= POINTS_PER_COLUMN {
            return shown.to_vec();
        }
        let mut kept = Vec::with_capacity(shown.len() / bucket * POINTS_PER_COLUMN + 2);
        for run in shown.chunks(bucket) {
            let low = run.iter().enumerate().min_by(|a, b| a.1[1].total_cmp(&b.1[1]));
            let high = run.iter().enumerate().max_by(|a, b| a.1[1].total_cmp(&b.1[1]));
            if let (Some((i, lo)), Some((j, hi))) = (low, high) {
                match i.cmp(&j) {
                    std::cmp::Ordering::Less => kept.extend([*lo, *hi]),
                    std::cmp::Ordering::Greater => kept.extend([*hi, *lo]),
                    std::cmp::Ordering::Equal => kept.push(*lo),
                }
            }
        }
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thinning(range: Option<(f64, f64)>, columns: usize) -> Thinning {
        Thinning { range, columns }
    }

    #[test]
    fn a_long_series_keeps_the_extremes_of_each_column_in_time_order() {
        // 6,000 points of a sawtooth with one spike, in 100 columns.
        let mut points: Vec<[f64; 2]> = (0..6000).map(|i| [i as f64 * 0.1, (i % 60) as f64]).collect();
        points[3001][1] = 500.0;
        let thin = thinning(None, 100).line(&points);
        assert!(thin.len() <= 200, "{} points", thin.len());
        assert!(thin.contains(&[300.1, 500.0]), "the spike survives");
        assert!(thin.windows(2).all(|w| w[0][0] < w[1][0]), "time order");
        assert!(
            thin.iter().all(|p| points.contains(p)),
            "only recorded points, none invented"
        );
        let (lo, hi) = thin
            .iter()
            .fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p[1]), hi.max(p[1])));
        assert_eq!((lo, hi), (0.0, 500.0));
    }

    #[test]
    fn a_zoomed_plot_gets_every_point_in_view_and_one_either_side() {
        let points: Vec<[f64; 2]> = (0..6000).map(|i| [i as f64 * 0.1, i as f64]).collect();
        let thin = thinning(Some((10.0, 20.0)), 400).line(&points);
        assert_eq!(thin.first(), Some(&[9.9, 99.0]));
        assert_eq!(thin.last(), Some(&[20.1, 201.0]));
        assert_eq!(thin.len(), 103, "all 101 in view, unthinned, and the two neighbours");
        // Short series are drawn whole.
        assert_eq!(thinning(None, 400).line(&points[..50]), points[..50].to_vec());
    }
}
