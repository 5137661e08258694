//! The stretch of run time the timeline shows: the whole run, or a zoomed window over it that
//! the user pans and zooms (after rerun's time panel). Positions are in ticks as `f64`, so a
//! window narrower than a tick still zooms smoothly; pixels are mapped in [`Mapping`].

use crate::app::grid::round_up_1_2_5;

/// Fewest ticks a zoomed window spans.
const MIN_SPAN: f64 = 4.0;

/// The visible stretch of the run: `None` shows (and follows) the whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeWindow {
    zoomed: Option<Span>,
}

/// A zoomed window: its first tick and how many ticks it spans.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Span {
    start: f64,
    len: f64,
}

impl TimeWindow {
    /// True while zoomed in (not showing the whole run).
    pub fn is_zoomed(&self) -> bool {
        self.zoomed.is_some()
    }

    /// The first and last tick shown, for a run recorded over `first..=last`: the zoomed window
    /// kept inside the run, or the whole run (at least one tick wide).
    pub fn visible(&self, first: u64, last: u64) -> (f64, f64) {
        let (first, last) = (first as f64, (last as f64).max(first as f64 + 1.0));
        match self.zoomed {
            Some(Span { start, len }) if len < last - first => {
                let start = start.clamp(first, last - len);
                (start, start + len)
            }
            _ => (first, last),
        }
    }

    /// Zooms in by `factor` (> 1 in, < 1 out) keeping tick `about` where it is on screen; zooming
    /// out to the whole run or beyond goes back to showing the whole run.
    pub fn zoom(&mut self, factor: f64, about: f64, first: u64, last: u64) {
        if !(factor.is_finite() && factor > 0.0) {
            return;
        }
        let (start, end) = self.visible(first, last);
        let whole = (last as f64 - first as f64).max(1.0);
        let len = ((end - start) / factor).max(MIN_SPAN.min(whole));
        if len >= whole {
            self.zoomed = None;
            return;
        }
        let share = ((about - start) / (end - start)).clamp(0.0, 1.0);
        self.zoomed = Some(Span {
            start: about - share * len,
            len,
        });
        self.zoomed = Some(self.clamped(first, last));
    }

    /// Moves a zoomed window by `ticks` (positive: later), stopping at the ends of the run.
    pub fn pan(&mut self, ticks: f64, first: u64, last: u64) {
        if let Some(span) = &mut self.zoomed {
            span.start += ticks;
            self.zoomed = Some(self.clamped(first, last));
        }
    }

    /// Pans a zoomed window just enough that `tick` is shown (the cursor playing past its edge).
    pub fn keep_in_view(&mut self, tick: u64, first: u64, last: u64) {
        let (start, end) = self.visible(first, last);
        let tick = tick as f64;
        if tick > end {
            self.pan(tick - end, first, last);
        } else if tick < start {
            self.pan(tick - start, first, last);
        }
    }

    /// Shows the whole run again.
    pub fn fit(&mut self) {
        self.zoomed = None;
    }

    /// The zoomed window moved back inside `first..=last`.
    fn clamped(&self, first: u64, last: u64) -> Span {
        let (start, end) = self.visible(first, last);
        Span {
            start,
            len: end - start,
        }
    }
}

/// Maps ticks to x pixels over a horizontal stretch of screen, for a window of ticks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mapping {
    /// Left end of the stretch (pixels), where `start` is drawn.
    pub left: f32,
    /// Width of the stretch (pixels).
    pub width: f32,
    /// Tick at the left end.
    pub start: f64,
    /// Tick at the right end.
    pub end: f64,
}

impl Mapping {
    /// The x pixel of `tick` (outside the stretch for ticks outside the window).
    pub fn x_of(&self, tick: f64) -> f32 {
        self.left + ((tick - self.start) / (self.end - self.start).max(1e-9)) as f32 * self.width
    }

    /// The tick (fractional) at x pixel `x`.
    pub fn tick_at(&self, x: f32) -> f64 {
        self.start + f64::from((x - self.left) / self.width.max(1e-3)) * (self.end - self.start)
    }

    /// Ticks per pixel.
    pub fn ticks_per_pixel(&self) -> f64 {
        (self.end - self.start) / f64::from(self.width.max(1e-3))
    }
}

/// The spacing (seconds) of labelled ruler marks so that marks stand at least `min_pixels`
/// apart when one second is `pixels_per_second` wide: 1, 2 or 5 times a power of ten, or whole
/// minutes (1, 2, 5, 10, 15, 30 min) once marks are a minute or more apart.
pub fn ruler_step(pixels_per_second: f64, min_pixels: f64) -> f64 {
    let wanted = min_pixels / pixels_per_second.max(1e-12);
    if wanted >= 60.0 {
        let minutes = [1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0];
        if let Some(m) = minutes.iter().find(|&&m| m * 60.0 >= wanted) {
            return m * 60.0;
        }
    }
    round_up_1_2_5(wanted)
}

/// The label of a ruler mark at `seconds` when marks are `step` seconds apart: "m:ss" from a
/// minute on with whole-second steps, otherwise seconds with as many decimals as the step needs.
pub fn ruler_label(seconds: f64, step: f64) -> String {
    if step >= 1.0 && seconds >= 60.0 {
        let whole = seconds.round() as u64;
        return format!("{}:{:02}", whole / 60, whole % 60);
    }
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10() - 1e-9).ceil() as usize
    };
    format!("{seconds:.decimals$} s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zooming_keeps_the_tick_under_the_pointer_and_zooming_out_fully_shows_the_whole_run() {
        let mut w = TimeWindow::default();
        assert_eq!(w.visible(0, 1000), (0.0, 1000.0));
        // Zoom 4x about tick 250 (a quarter across): it stays a quarter across.
        w.zoom(4.0, 250.0, 0, 1000);
        let (start, end) = w.visible(0, 1000);
        assert_eq!(end - start, 250.0);
        assert!(((250.0 - start) / (end - start) - 0.25).abs() < 1e-9);
        assert!(w.is_zoomed());
        // Zooming out by more than back to the whole run shows the whole run again.
        w.zoom(0.1, 500.0, 0, 1000);
        assert!(!w.is_zoomed());
        assert_eq!(w.visible(0, 1000), (0.0, 1000.0));
    }

    #[test]
    fn a_zoomed_window_pans_within_the_run_and_follows_the_cursor() {
        let mut w = TimeWindow::default();
        w.zoom(10.0, 0.0, 0, 1000);
        assert_eq!(w.visible(0, 1000), (0.0, 100.0));
        w.pan(-50.0, 0, 1000);
        assert_eq!(w.visible(0, 1000), (0.0, 100.0), "stops at the first tick");
        w.pan(950.0, 0, 1000);
        assert_eq!(w.visible(0, 1000), (900.0, 1000.0), "stops at the last tick");
        w.keep_in_view(120, 0, 1000);
        assert_eq!(w.visible(0, 1000), (120.0, 220.0));
        w.keep_in_view(400, 0, 1000);
        assert_eq!(w.visible(0, 1000), (300.0, 400.0));
        // The whole run is never narrower than the zoom limit.
        w.zoom(1e9, 350.0, 0, 1000);
        let (start, end) = w.visible(0, 1000);
        assert_eq!(end - start, MIN_SPAN);
        w.fit();
        assert_eq!(w.visible(0, 1000), (0.0, 1000.0));
    }

    #[test]
    fn the_mapping_is_invertible() {
        let m = Mapping {
            left: 100.0,
            width: 500.0,
            start: 200.0,
            end: 300.0,
        };
        assert_eq!(m.x_of(200.0), 100.0);
        assert_eq!(m.x_of(300.0), 600.0);
        assert!((m.tick_at(m.x_of(237.0)) - 237.0).abs() < 1e-4);
        assert!((m.ticks_per_pixel() - 0.2).abs() < 1e-12);
    }

    #[test]
    fn ruler_marks_are_round_and_far_enough_apart() {
        // 10 px per second, 60 px apart: 10 s marks.
        assert_eq!(ruler_step(10.0, 60.0), 10.0);
        // 100 px per second: 1 s; 1000 px per second: 0.1 s.
        assert_eq!(ruler_step(100.0, 60.0), 1.0);
        assert!((ruler_step(1000.0, 60.0) - 0.1).abs() < 1e-12);
        assert_eq!(ruler_step(45.0, 60.0), 2.0);
        // 0.5 px per second: marks every 2 minutes; 0.05: every 30 minutes.
        assert_eq!(ruler_step(0.5, 60.0), 120.0);
        assert_eq!(ruler_step(0.05, 60.0), 1800.0);
        assert_eq!(ruler_label(30.0, 10.0), "30 s");
        assert_eq!(ruler_label(90.0, 10.0), "1:30");
        assert_eq!(ruler_label(1.5, 0.5), "1.5 s");
        assert_eq!(ruler_label(0.25, 0.05), "0.25 s");
    }
}
