//! Which ticks of a recording an export covers: a range and a stride.

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
    /// The selected ticks within the recording's `(first, last)` range.
    pub fn ticks(&self, (first, last): (u64, u64)) -> Vec<u64> {
        let from = self.from.unwrap_or(first).max(first);
        let to = self.to.unwrap_or(last).min(last);
        if from > to {
            return Vec::new();
        }
        (from..=to).step_by(self.every.max(1) as usize).collect()
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
        assert_eq!(s.ticks((0, 10)), vec![2, 5, 8]);
        assert_eq!(TickSelection::default().ticks((0, 2)), vec![0, 1, 2]);
        assert!(
            TickSelection {
                from: Some(5),
                to: Some(1),
                every: 1
            }
            .ticks((0, 10))
            .is_empty()
        );
    }
}
