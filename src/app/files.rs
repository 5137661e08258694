//! Opening and saving documents, without any dialog: a path in, a result or an error message out.

use std::path::Path;

use crate::record::{FrameSource, RecordingError, RecordingReader, RecordingWriter};
use crate::scene::import::{import_file, summarize};
use crate::scene::{Scene, parse_valid_scene, save_scene, save_scene_like, scene_to_ron};

/// What a file turned out to hold.
pub enum Opened {
    /// A valid scene, with the text it was read from (Save keeps its layout).
    Scene { scene: Scene, text: String },
    /// A recording, replayed from the file alone.
    Recording(Box<RecordingReader>),
    /// A scene imported from another tool's file (SteerSuite `.xml`, IndAlgoTest `.iascene`),
    /// with what the import skipped or approximated (`file:line: …`, grouped by kind).
    Imported { scene: Scene, warnings: Vec<String> },
}

/// Opens `path` by its extension: `.crowdrec` as a recording, `.xml`/`.iascene` through the
/// importers, anything else as a RON scene (parsed and validated). The error message names the
/// file and, for scenes, the place.
pub fn open_file(path: &Path) -> Result<Opened, String> {
    if path.extension().is_some_and(|e| e == "xml" || e == "iascene") {
        import_file(path)
            .map(|(scene, warnings)| Opened::Imported {
                scene,
                warnings: summarize(&warnings),
            })
            .map_err(|e| format!("Cannot import {e}"))
    } else if path.extension().is_some_and(|e| e == "crowdrec") {
        RecordingReader::open(path)
            .map(|reader| Opened::Recording(Box::new(reader)))
            .map_err(|e| format!("Cannot open the recording {e}"))
    } else {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("Cannot open the scene {}: {e}", path.display()))?;
        parse_valid_scene(&text, path)
            .map(|scene| Opened::Scene { scene, text })
            .map_err(|e| format!("Cannot open the scene {e}"))
    }
}

/// Saves `scene` atomically to `path`, laid out like `layout` (the text it was loaded from or
/// last saved as) when given; returns the text written, or a message naming the file.
pub fn save_file(scene: &Scene, layout: Option<&str>, path: &Path) -> Result<String, String> {
    let saved = match layout {
        Some(layout) => save_scene_like(scene, layout, path),
        None => save_scene(scene, path).map(|()| scene_to_ron(scene)),
    };
    saved.map_err(|e| format!("Cannot save the scene: {e}"))
}

/// Writes every recorded frame of `source` to the recording `path` (atomically: a temporary
/// file renamed at the end); the number of frames, or a message naming the file.
pub fn save_run(source: &dyn FrameSource, path: &Path) -> Result<u64, String> {
    let fail = |e: RecordingError| format!("Cannot save the run: {e}");
    let (first, last) = source.tick_range();
    let mut writer = RecordingWriter::create(path, source.header()).map_err(fail)?;
    let mut frames = 0;
    for tick in (first..=last).step_by(source.stride() as usize) {
        writer.push(&source.frame(tick).map_err(fail)?).map_err(fail)?;
        frames += 1;
    }
    writer.finish().map_err(fail)?;
    Ok(frames)
}
