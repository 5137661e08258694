//! Autosave: while the document has unsaved changes, its scene is written every
//! [`DEFAULT_INTERVAL`] seconds to `recovery.ron` in the state folder (next to crash reports).
//! On the next start the app offers to restore it; saving, discarding or restoring removes it.

use std::path::{Path, PathBuf};

use crate::scene::{Scene, parse_scene, save_scene};

/// Seconds between autosaves of a modified document.
pub const DEFAULT_INTERVAL: f64 = 60.0;

/// The recovery file and when it was last written.
#[derive(Clone, Debug)]
pub struct Autosave {
    file: PathBuf,
    /// Seconds between writes.
    pub interval: f64,
    /// Input time of the last write (or of the first unsaved change).
    since: Option<f64>,
}

impl Autosave {
    /// Autosave into `dir`.
    pub fn new(dir: &Path) -> Autosave {
        Autosave {
            file: dir.join("recovery.ron"),
            interval: DEFAULT_INTERVAL,
            since: None,
        }
    }

    /// The recovery file's path.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// Called every frame at input time `now`: writes `scene` when it has been unsaved for an
    /// interval since the last write. Returns an error message when the write failed.
    pub fn tick(&mut self, now: f64, scene: &Scene, modified: bool) -> Result<(), String> {
        if !modified {
            self.since = None;
            return Ok(());
        }
        let since = *self.since.get_or_insert(now);
        if now - since < self.interval {
            return Ok(());
        }
        self.since = Some(now);
        if let Some(dir) = self.file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("Cannot autosave to {}: {e}", dir.display()))?;
        }
        save_scene(scene, &self.file).map_err(|e| format!("Cannot autosave: {e}"))
    }

    /// The scene left by an earlier session, if there is a readable one (valid or not: it is
    /// unfinished work).
    pub fn recoverable(&self) -> Option<Scene> {
        let text = std::fs::read_to_string(&self.file).ok()?;
        parse_scene(&text, &self.file).ok()
    }

    /// Removes the recovery file (the document was saved or the user discarded it).
    pub fn clear(&mut self) {
        self.since = None;
        let _ = std::fs::remove_file(&self.file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_only_after_an_interval_of_unsaved_changes() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = Autosave::new(dir.path());
        let scene = Scene::empty();
        a.tick(0.0, &scene, true).unwrap();
        a.tick(59.0, &scene, true).unwrap();
        assert!(a.recoverable().is_none());
        a.tick(60.5, &scene, true).unwrap();
        assert_eq!(a.recoverable(), Some(scene));
        a.clear();
        assert!(a.recoverable().is_none());
    }
}
