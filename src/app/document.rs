//! The open document: the scene being viewed or edited, the file it came from and whether it has
//! unsaved changes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::scene::Scene;

/// The scene shown in the window and where it lives on disk.
#[derive(Clone, Debug)]
pub struct Document {
    /// The scene (shared with the live run built from it).
    pub scene: Arc<Scene>,
    /// The file that was opened (a `.ron` scene or a `.crowdrec` recording), if any.
    pub source: Option<PathBuf>,
    /// True when the scene has changes not yet saved.
    pub modified: bool,
    /// The text the scene file was read from or last saved as: Save keeps its field order,
    /// line breaks, comments and explicitly written defaults.
    pub text: Option<Arc<str>>,
}

impl Document {
    /// A document not backed by any file (e.g. the embedded default scene).
    pub fn untitled(scene: Scene) -> Document {
        Document {
            scene: Arc::new(scene),
            source: None,
            modified: false,
            text: None,
        }
    }

    /// A document opened from `source`.
    pub fn from_file(scene: Scene, source: &Path) -> Document {
        Document {
            scene: Arc::new(scene),
            source: Some(source.to_path_buf()),
            modified: false,
            text: None,
        }
    }

    /// The document with `text`, what its scene file holds, as the layout for saving.
    pub fn with_text(mut self, text: String) -> Document {
        self.text = Some(text.into());
        self
    }

    /// An unsaved document restored from an autosaved copy of a scene edited from `source`:
    /// Save goes back to that file, laid out like what it holds now.
    pub fn recovered(scene: Scene, source: Option<&Path>) -> Document {
        let mut document = match source {
            Some(path) => Document::from_file(scene, path),
            None => Document::untitled(scene),
        };
        document.text = source.and_then(|p| std::fs::read_to_string(p).ok()).map(Into::into);
        document.modified = true;
        document
    }

    /// The scene file that Save writes to: the opened file when it is a scene, else none
    /// (a recording's embedded scene must be saved under a new name).
    pub fn scene_path(&self) -> Option<&Path> {
        self.source
            .as_deref()
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
    }

    /// The window title: `crowdlab — <file name or scene name>`, with ` *` when modified.
    pub fn title(&self) -> String {
        let name = match &self.source {
            Some(path) => path
                .file_name()
                .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned()),
            None => self.scene.name.clone(),
        };
        let mark = if self.modified { " *" } else { "" };
        format!("crowdlab — {name}{mark}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_names_the_file_or_the_scene_and_marks_changes() {
        let mut scene = Scene::empty();
        scene.name = "Plaza".into();
        let mut doc = Document::untitled(scene.clone());
        assert_eq!(doc.title(), "crowdlab — Plaza");
        doc.modified = true;
        assert_eq!(doc.title(), "crowdlab — Plaza *");
        let doc = Document::from_file(scene.clone(), Path::new("/tmp/x/plaza.ron"));
        assert_eq!(doc.title(), "crowdlab — plaza.ron");
        assert_eq!(doc.scene_path(), Some(Path::new("/tmp/x/plaza.ron")));
        let rec = Document::from_file(scene, Path::new("run.crowdrec"));
        assert_eq!(rec.scene_path(), None);
    }
}
