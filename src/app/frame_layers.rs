//! The simulator canvas's layers of the tick shown, built once for each tick, overlay setting
//! and focus instead of once a frame: the window draws several frames for each tick played (and
//! many more paused), and building the layers of 10,000 agents with their force arrows, then
//! comparing them with the last frame's to find them unchanged, cost the window a few
//! milliseconds a frame.

use std::sync::Arc;

use crate::draw::{DrawList, Focus, Overlays, build_frame_layers};
use crate::record::Frame;

use super::time::Frames;

/// What the layers were built from.
#[derive(PartialEq)]
struct Built {
    /// The frames' serial ([`Frames::serial`]) and the frame's tick: together, the frame.
    serial: u64,
    tick: u64,
    overlays: Overlays,
    focus: Focus,
}

/// The layers last built, kept while the frame, the overlays and the focus stay the same.
#[derive(Default)]
pub struct FrameLayers {
    kept: Option<(Built, [Arc<DrawList>; 2])>,
}

impl FrameLayers {
    /// The static and agent layers of `frame`, a frame of `frames`, with `overlays` for `focus`:
    /// the same lists as the last call's when it asked for the same.
    pub fn of(&mut self, frames: &Frames, frame: &Frame, overlays: &Overlays, focus: Focus) -> [Arc<DrawList>; 2] {
        let built = Built {
            serial: frames.serial(),
            tick: frame.tick,
            overlays: overlays.clone(),
            focus,
        };
        match &self.kept {
            Some((kept, layers)) if *kept == built => layers.clone(),
            _ => {
                let layers = build_frame_layers(frames.header(), frame, overlays, &built.focus).map(Arc::new);
                self.kept = Some((built, layers.clone()));
                layers
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::time::TickSource;
    use super::*;
    use crate::scene::default_scene;

    #[test]
    fn the_layers_are_built_again_only_for_another_tick_overlay_focus_or_run() {
        let scene = Arc::new(default_scene());
        let mut frames = Frames::live(Arc::clone(&scene));
        for _ in 0..3 {
            frames.produce_next();
        }
        let mut layers = FrameLayers::default();
        let overlays = Overlays::default();
        let frame = |frames: &Frames, tick| frames.frame(tick).expect("recorded").clone();
        let (first, second) = (frame(&frames, 1), frame(&frames, 2));

        let shown = layers.of(&frames, &first, &overlays, Focus::default());
        let again = layers.of(&frames, &first, &overlays, Focus::default());
        assert!(Arc::ptr_eq(&shown[1], &again[1]), "the same tick: the same lists");
        assert_eq!(
            *shown[1],
            build_frame_layers(frames.header(), &first, &overlays, &Focus::default())[1]
        );

        let next = layers.of(&frames, &second, &overlays, Focus::default());
        assert!(!Arc::ptr_eq(&again[1], &next[1]), "another tick");
        let selected = Focus {
            selected: Some(0),
            ..Focus::default()
        };
        let focused = layers.of(&frames, &second, &overlays, selected);
        assert!(!Arc::ptr_eq(&next[1], &focused[1]), "another focus");
        let without_forces = Overlays {
            forces: false,
            ..Overlays::default()
        };
        let plain = layers.of(&frames, &second, &without_forces, Focus::default());
        assert!(!Arc::ptr_eq(&focused[1], &plain[1]), "other overlays");

        let rerun = frames.restarted().expect("a live run");
        let replayed = layers.of(&rerun, &second, &without_forces, Focus::default());
        assert!(!Arc::ptr_eq(&plain[1], &replayed[1]), "another run's frames");
    }
}
