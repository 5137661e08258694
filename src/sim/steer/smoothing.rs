//! Heading smoothing (Buckland §1.3, Robin Green): the displayed heading is the mean of the last
//! N headings, renormalised. It is used only for display — recorded as the agent's heading in the
//! frame — never for physics or steering, which use the true heading.

use glam::Vec2;

/// A ring buffer of the last `N` headings.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadingSmoother {
    samples: Vec<Vec2>,
    next: usize,
}

impl HeadingSmoother {
    /// A smoother over `samples` headings, pre-filled with `initial`.
    pub fn new(samples: usize, initial: Vec2) -> HeadingSmoother {
        HeadingSmoother {
            samples: vec![initial; samples.max(1)],
            next: 0,
        }
    }

    /// Adds `heading` (replacing the oldest sample).
    pub fn push(&mut self, heading: Vec2) {
        self.samples[self.next] = heading;
        self.next = (self.next + 1) % self.samples.len();
    }

    /// The mean heading, unit length; `fallback` when the samples cancel out.
    pub fn smoothed(&self, fallback: Vec2) -> Vec2 {
        self.samples
            .iter()
            .copied()
            .sum::<Vec2>()
            .try_normalize()
            .unwrap_or(fallback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_of_the_last_samples() {
        let mut s = HeadingSmoother::new(2, Vec2::X);
        s.push(Vec2::Y);
        let h = s.smoothed(Vec2::X);
        assert!((h - Vec2::new(1.0, 1.0).normalize()).length() < 1e-6);
        s.push(Vec2::Y);
        assert_eq!(s.smoothed(Vec2::X), Vec2::Y);
        s.push(Vec2::NEG_Y);
        assert_eq!(s.smoothed(Vec2::X), Vec2::X);
    }
}
