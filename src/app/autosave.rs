//! Autosave: while the document has unsaved changes, its scene is written every
//! [`DEFAULT_INTERVAL`] seconds to `recovery.ron` in the state folder (next to crash reports),
//! whether or not the user is doing anything: the app asks to be woken when the next copy is due.
//! The copy's first line names the file the scene came from. On the next start the app offers to
//! restore it; saving, discarding or restoring removes it.

use std::path::{Path, PathBuf};

use crate::scene::{Scene, parse_scene, scene_to_ron};

/// Seconds between autosaves of a modified document.
pub const DEFAULT_INTERVAL: f64 = 30.0;

/// The first line of a recovery file that names the scene's own file.
const SOURCE_LINE: &str = "// crowdlab autosave of ";

/// The recovery file and when it was last written.
#[derive(Clone, Debug)]
pub struct Autosave {
    file: PathBuf,
    /// Seconds between writes.
    pub interval: f64,
    /// Input time of the last write (or of the first unsaved change).
    since: Option<f64>,
}

/// A scene left unsaved by an earlier session.
#[derive(Clone, Debug, PartialEq)]
pub struct Recovered {
    /// The autosaved scene (valid or not: it is unfinished work).
    pub scene: Scene,
    /// The scene file it was being edited from, if it had one.
    pub source: Option<PathBuf>,
    /// Where the copy lies.
    pub file: PathBuf,
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

    /// Called every frame at input time `now`: writes `scene` (edited from `source`) when it has
    /// been unsaved for an interval since the last write. Returns the seconds until the next
    /// copy is due (none while there is nothing unsaved), or a message when the write failed.
    pub fn tick(
        &mut self,
        now: f64,
        scene: &Scene,
        source: Option<&Path>,
        modified: bool,
    ) -> Result<Option<f64>, String> {
        if !modified {
            self.since = None;
            return Ok(None);
        }
        let since = *self.since.get_or_insert(now);
        let due = since + self.interval;
        if now < due {
            return Ok(Some(due - now));
        }
        self.since = Some(now);
        self.write(scene, source)?;
        Ok(Some(self.interval))
    }

    /// Writes `scene` (edited from `source`) to the recovery file now, whatever the interval;
    /// the message says why it could not.
    pub fn write(&self, scene: &Scene, source: Option<&Path>) -> Result<(), String> {
        if let Some(dir) = self.file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("Cannot autosave to {}: {e}", dir.display()))?;
        }
        let header = source.map_or_else(String::new, |s| format!("{SOURCE_LINE}{}\n", s.display()));
        crate::atomic_file::write_atomic(&self.file, (header + &scene_to_ron(scene)).as_bytes())
            .map_err(|e| format!("Cannot autosave to {}: {e}", self.file.display()))
    }

    /// The scene left by an earlier session, if there is a readable one.
    pub fn recoverable(&self) -> Option<Recovered> {
        let text = std::fs::read_to_string(&self.file).ok()?;
        let source = text
            .lines()
            .next()
            .and_then(|line| line.strip_prefix(SOURCE_LINE))
            .map(PathBuf::from);
        Some(Recovered {
            scene: parse_scene(&text, &self.file).ok()?,
            source,
            file: self.file.clone(),
        })
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
    fn writes_after_an_interval_of_unsaved_changes_and_says_when_the_next_is_due() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = Autosave::new(dir.path());
        let scene = Scene::empty();
        assert_eq!(
            a.tick(0.0, &scene, None, false),
            Ok(None),
            "nothing unsaved, nothing due"
        );
        assert_eq!(a.tick(1.0, &scene, None, true), Ok(Some(30.0)));
        assert_eq!(
            a.tick(25.0, &scene, None, true),
            Ok(Some(6.0)),
            "woken 6 s before the copy"
        );
        assert!(a.recoverable().is_none());
        let source = Path::new("/scenes/plaza.ron");
        assert_eq!(a.tick(31.0, &scene, Some(source), true), Ok(Some(30.0)));
        let recovered = a.recoverable().unwrap();
        assert_eq!(recovered.scene, scene);
        assert_eq!(recovered.source.as_deref(), Some(source));
        assert_eq!(recovered.file, dir.path().join("recovery.ron"));
        a.clear();
        assert!(a.recoverable().is_none());
    }
}
