//! The simulator canvas's layers of the tick shown, built once for each tick, overlay setting
//! and focus instead of once a frame: the window draws several frames for each tick played (and
//! many more paused), and building the layers of 10,000 agents with their force arrows, then
//! comparing them with the last frame's to find them unchanged, cost the window a few
//! milliseconds a frame. A build reuses the memory of layers built before once nothing holds
//! them any more (the canvas's picture may still be drawing them): fresh memory for the agent
//! layer, megabytes in a crowd, had the kernel zero it again for every tick shown, more than
//! half the window thread's time at the fastest speed. While the canvas's picture of some layers
//! is being drawn, another tick keeps the layers it has: the picture shows only the lists wanted
//! when it is done, so building the ticks played meanwhile (about five for every picture of the
//! shoal at the fastest speed) was work thrown away.

use std::sync::Arc;

use crate::draw::{DrawList, Focus, Overlays, build_frame_layers_into};
use crate::record::Frame;

use super::time::Frames;

/// What the layers were built from.
struct Built {
    /// The frames' serial ([`Frames::serial`]) and the frame's tick: together, the frame.
    serial: u64,
    tick: u64,
    overlays: Overlays,
    focus: Focus,
}

/// Layers built before and still held elsewhere, whose memory a build may reuse later: at most
/// this many (the window holds the picture shown, the one being drawn and the one wanted).
const RETIRED: usize = 4;

/// The layers last built, kept while the frame, the overlays and the focus stay the same.
#[derive(Default)]
pub struct FrameLayers {
    kept: Option<(Built, [Arc<DrawList>; 2])>,
    /// Layers built before, oldest first, for their memory.
    retired: Vec<[Arc<DrawList>; 2]>,
}

impl FrameLayers {
    /// The static and agent layers of `frame`, a frame of `frames`, with `overlays` for `focus`:
    /// the same lists as the last call's when it asked for the same, or for the same but another
    /// tick when `hold_tick` (the canvas's picture is still being drawn, and lists of a newer tick
    /// would only be replaced by a newer one still before it could draw them).
    pub fn of(
        &mut self,
        frames: &Frames,
        frame: &Frame,
        overlays: &Overlays,
        focus: Focus,
        hold_tick: bool,
    ) -> [Arc<DrawList>; 2] {
        let built = Built {
            serial: frames.serial(),
            tick: frame.tick,
            overlays: overlays.clone(),
            focus,
        };
        let same = |kept: &Built| {
            kept.serial == built.serial
                && (hold_tick || kept.tick == built.tick)
                && kept.overlays == built.overlays
                && kept.focus == built.focus
        };
        match &self.kept {
            Some((kept, layers)) if same(kept) => layers.clone(),
            _ => {
                let mut lists = self.reusable();
                build_frame_layers_into(frames.header(), frame, overlays, &built.focus, &mut lists);
                let layers = lists.map(Arc::new);
                if let Some((_, before)) = self.kept.replace((built, layers.clone())) {
                    if self.retired.len() == RETIRED {
                        self.retired.remove(0);
                    }
                    self.retired.push(before);
                }
                layers
            }
        }
    }

    /// The lists of the newest retired layers nothing else holds any more, for their memory, or
    /// new lists when every retired one is still held.
    fn reusable(&mut self) -> [DrawList; 2] {
        let free = |layers: &mut [Arc<DrawList>; 2]| layers.iter_mut().all(|list| Arc::get_mut(list).is_some());
        match self.retired.iter_mut().rposition(free) {
            Some(at) => self
                .retired
                .remove(at)
                .map(|list| Arc::into_inner(list).unwrap_or_default()),
            None => Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::time::TickSource;
    use super::*;
    use crate::draw::build_frame_layers;
    use crate::scene::default_scene;

    /// The default scene's live frames, `ticks` ticks played.
    fn played(ticks: usize) -> Frames {
        let mut frames = Frames::live(Arc::new(default_scene()));
        for _ in 0..ticks {
            frames.produce_next();
        }
        frames
    }

    #[test]
    fn the_layers_are_built_again_only_for_another_tick_overlay_focus_or_run() {
        let frames = played(3);
        let mut layers = FrameLayers::default();
        let overlays = Overlays::default();
        let frame = |frames: &Frames, tick| frames.frame(tick).expect("recorded").clone();
        let (first, second) = (frame(&frames, 1), frame(&frames, 2));

        let shown = layers.of(&frames, &first, &overlays, Focus::default(), false);
        let again = layers.of(&frames, &first, &overlays, Focus::default(), false);
        assert!(Arc::ptr_eq(&shown[1], &again[1]), "the same tick: the same lists");
        assert_eq!(
            *shown[1],
            build_frame_layers(frames.header(), &first, &overlays, &Focus::default())[1]
        );

        let next = layers.of(&frames, &second, &overlays, Focus::default(), false);
        assert!(!Arc::ptr_eq(&again[1], &next[1]), "another tick");
        let selected = Focus {
            selected: Some(0),
            ..Focus::default()
        };
        let focused = layers.of(&frames, &second, &overlays, selected, false);
        assert!(!Arc::ptr_eq(&next[1], &focused[1]), "another focus");
        let without_forces = Overlays {
            forces: false,
            ..Overlays::default()
        };
        let plain = layers.of(&frames, &second, &without_forces, Focus::default(), false);
        assert!(!Arc::ptr_eq(&focused[1], &plain[1]), "other overlays");

        let rerun = frames.restarted().expect("a live run");
        let replayed = layers.of(&rerun, &second, &without_forces, Focus::default(), false);
        assert!(!Arc::ptr_eq(&plain[1], &replayed[1]), "another run's frames");
    }

    #[test]
    fn a_build_reuses_the_memory_of_layers_nothing_holds_any_more_and_builds_the_same_lists() {
        let frames = played(4);
        let overlays = Overlays::default();
        let frame = |tick| frames.frame(tick).expect("recorded").clone();
        let memory = |layers: &[Arc<DrawList>; 2]| layers[1].shapes.as_ptr();
        let mut layers = FrameLayers::default();

        let first = layers.of(&frames, &frame(1), &overlays, Focus::default(), false);
        let first_memory = memory(&first);
        // The first tick's layers still held (a picture being drawn of them): fresh memory.
        let second = layers.of(&frames, &frame(2), &overlays, Focus::default(), false);
        assert_ne!(memory(&second), first_memory);
        drop(first);
        drop(second);
        // The first tick's layers retired and free now: their memory; then the second's.
        let second_memory = memory(&layers.kept.as_ref().expect("built").1);
        let third = layers.of(&frames, &frame(3), &overlays, Focus::default(), false);
        assert_eq!(memory(&third), first_memory);
        let fourth = layers.of(&frames, &frame(4), &overlays, Focus::default(), false);
        assert_eq!(memory(&fourth), second_memory);
        for (tick, built) in [(3, &third), (4, &fourth)] {
            let fresh = build_frame_layers(frames.header(), &frame(tick), &overlays, &Focus::default());
            assert_eq!([(*built[0]).clone(), (*built[1]).clone()], fresh, "tick {tick}");
        }
    }

    #[test]
    fn while_a_picture_is_drawn_another_tick_keeps_the_layers_but_other_overlays_do_not() {
        let frames = played(2);
        let overlays = Overlays::default();
        let frame = |tick| frames.frame(tick).expect("recorded").clone();
        let mut layers = FrameLayers::default();
        let first = layers.of(&frames, &frame(1), &overlays, Focus::default(), false);
        let held = layers.of(&frames, &frame(2), &overlays, Focus::default(), true);
        assert!(Arc::ptr_eq(&first[1], &held[1]), "held for another tick");
        let without_forces = Overlays {
            forces: false,
            ..Overlays::default()
        };
        let plain = layers.of(&frames, &frame(2), &without_forces, Focus::default(), true);
        assert!(!Arc::ptr_eq(&held[1], &plain[1]), "other overlays are built while held");
        let released = layers.of(&frames, &frame(1), &without_forces, Focus::default(), false);
        assert!(
            !Arc::ptr_eq(&plain[1], &released[1]),
            "the tick asked for once no longer held"
        );
        let fresh = build_frame_layers(frames.header(), &frame(1), &without_forces, &Focus::default());
        assert_eq!(*released[1], fresh[1]);
    }
}
