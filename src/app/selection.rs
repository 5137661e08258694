//! Which agent is selected, which agents the overlays apply to (Popelová's viewer filter) and
//! whether the camera follows the selected agent.

use std::collections::{HashMap, HashSet};

use glam::Vec2;

use crate::draw::Focus;
use crate::record::{Frame, FrameSource, RecordingHeader};

/// Which agents get overlays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Filter {
    /// Every agent.
    #[default]
    All,
    /// Only the selected agent (every agent while none is selected).
    Selected,
    /// Agents of the named profile (group).
    Profile(String),
}

/// The selection, the overlay filter and the follow-camera switch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selection {
    /// The agent picked on the canvas.
    pub selected: Option<u32>,
    /// Which agents get overlays.
    pub filter: Filter,
    /// Keep the selected agent in the centre of the canvas.
    pub follow: bool,
}

impl Selection {
    /// The agents whose overlays are shown, `None` for all: under a profile filter, the agents
    /// of the run (placed and spawned) with that profile in `frame` or, without a frame, at
    /// their start.
    pub fn shown(&self, header: &RecordingHeader, frame: Option<&Frame>) -> Option<HashSet<u32>> {
        match &self.filter {
            Filter::All => None,
            Filter::Selected => self.selected.map(|id| HashSet::from([id])),
            Filter::Profile(name) => {
                let table = &header.agents;
                Some(match frame {
                    Some(f) => f
                        .agents
                        .iter()
                        .filter(|a| table.profile_name(a.profile) == name)
                        .map(|a| a.id)
                        .collect(),
                    None => table
                        .agents
                        .iter()
                        .filter(|a| table.profile_name(a.profile) == name)
                        .map(|a| a.id)
                        .collect(),
                })
            }
        }
    }

    /// The draw-list focus at the cursor: the selection, the filter and, when `trail_ticks` is
    /// given, the trails of the shown agents over that many ticks up to the cursor's frame.
    pub fn focus(&self, source: &dyn FrameSource, frame: Option<&Frame>, trail_ticks: Option<u64>) -> Focus {
        let shown = self.shown(source.header(), frame);
        let mut trails: HashMap<u32, Vec<Vec2>> = HashMap::new();
        if let (Some(frame), Some(n)) = (frame, trail_ticks) {
            let (first, _) = source.tick_range();
            for tick in frame.tick.saturating_sub(n).max(first)..frame.tick {
                let Ok(past) = source.frame(tick) else { continue };
                push_positions(&mut trails, &past, shown.as_ref());
            }
            push_positions(&mut trails, frame, shown.as_ref());
        }
        Focus {
            selected: self.selected,
            shown,
            trails,
        }
    }
}

fn push_positions(trails: &mut HashMap<u32, Vec<Vec2>>, frame: &Frame, shown: Option<&HashSet<u32>>) {
    for a in frame.agents.iter().filter(|a| shown.is_none_or(|s| s.contains(&a.id))) {
        trails.entry(a.id).or_default().push(a.position);
    }
}

/// The agent under world point `p` (the nearest whose body, slightly enlarged, contains it).
pub fn pick_agent(header: &RecordingHeader, frame: &Frame, p: Vec2) -> Option<u32> {
    frame
        .agents
        .iter()
        .map(|a| (a.id, a.position.distance(p) - header.radius_of(a)))
        .filter(|(_, gap)| *gap <= 0.15)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(id, _)| id)
}
