//! Which ticks of a recording an export covers: a range and a stride.

use crate::record::FrameSource;

/// Ticks `from..=to` (clamped to the recording), every `every`-th.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickSelection {
    /// First tick (inclusive); `None` = the recording's first.
    pub from: Option<u64>,
    /// Last tick (inclusive); `None` = the recording's last.
    pub to: Option<u64>,
    /// Stride (≥ 1).
    pub every: u64,
}

impl Default for TickSelection {
    fn default() -> Self {
        TickSelection {
            from: None,
            to: None,
            every: 1,
        }
    }
}

impl TickSelection {
    /// The selected ticks of `source` (only ticks it recorded).
    pub fn ticks(&self, source: &dyn FrameSource) -> Vec<u64> {
        self.ticks_in(source.tick_range(), source.stride())
    }

    /// The selected ticks of a recording holding ticks `first, first + stride, …, last`: those
    /// in `from..=to`, every `every`-th tick (rounded down to a multiple of `stride`, at least one
    /// recorded frame apart).
    pub fn ticks_in(&self, (first, last): (u64, u64), stride: u64) -> Vec<u64> {
        let stride = stride.max(1);
        let from = self.from.unwrap_or(first).max(first);
        let from = first + (from - first).div_ceil(stride) * stride;
        let to = self.to.unwrap_or(last).min(last);
        if from > to {
            return Vec::new();
        }
        let step = (self.every / stride).max(1) * stride;
        (from..=to).step_by(step as usize).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_is_clamped_and_strided() {
        let s = TickSelection {
            from: Some(2),
            to: Some(100),
            every: 3,
        };
        assert_eq!(s.ticks_in((0, 10), 1), vec![2, 5, 8]);
        assert_eq!(TickSelection::default().ticks_in((0, 2), 1), vec![0, 1, 2]);
        assert_eq!(s.ticks_in((0, 20), 4), vec![4, 8, 12, 16, 20]);
        assert_eq!(TickSelection::default().ticks_in((0, 9), 3), vec![0, 3, 6, 9]);
        assert!(
            TickSelection {
                from: Some(5),
                to: Some(1),
                every: 1
            }
            .ticks_in((0, 10), 1)
            .is_empty()
        );
    }
}
