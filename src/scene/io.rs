//! Reading and writing scene files (RON), with errors that name the file and the place.

use std::fmt;
use std::path::{Path, PathBuf};

use super::model::{SCENE_VERSION, Scene};
use super::save_format::scene_text;
use super::syntax::parse_ron;
use super::validate::{Problem, validate};
use crate::atomic_file::write_atomic;

/// Why a scene could not be loaded or saved.
#[derive(Debug)]
pub enum SceneError {
    /// The file could not be read or written.
    Io { file: PathBuf, source: std::io::Error },
    /// The text is not a well-formed scene document.
    Syntax {
        file: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// The document parsed but is not a usable scene; every problem is listed.
    Invalid { file: PathBuf, problems: Vec<Problem> },
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::Io { file, source } => write!(f, "{}: {source}", file.display()),
            SceneError::Syntax {
                file,
                line,
                column,
                message,
            } => {
                write!(f, "{}:{line}:{column}: {message}", file.display())
            }
            SceneError::Invalid { file, problems } => {
                write!(f, "{}: {} problem(s)", file.display(), problems.len())?;
                for p in problems {
                    write!(f, "\n{}: {p}", file.display())?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for SceneError {}

/// Parses scene text; `file` only names the source in error messages. Does not validate.
pub fn parse_scene(text: &str, file: &Path) -> Result<Scene, SceneError> {
    let scene: Scene = parse_ron(text).map_err(|e| SceneError::Syntax {
        file: file.to_path_buf(),
        line: e.line,
        column: e.column,
        message: e.message,
    })?;
    if scene.version != SCENE_VERSION {
        return Err(SceneError::Invalid {
            file: file.to_path_buf(),
            problems: vec![Problem::new(
                "version",
                format!(
                    "{} is not supported (this build reads version {SCENE_VERSION})",
                    scene.version
                ),
            )],
        });
    }
    Ok(scene)
}

/// Parses and validates scene text; every validation problem is reported at once.
pub fn parse_valid_scene(text: &str, file: &Path) -> Result<Scene, SceneError> {
    let scene = parse_scene(text, file)?;
    let problems = validate(&scene);
    if problems.is_empty() {
        Ok(scene)
    } else {
        Err(SceneError::Invalid {
            file: file.to_path_buf(),
            problems,
        })
    }
}

/// Reads, parses and validates a scene file.
pub fn load_scene(path: &Path) -> Result<Scene, SceneError> {
    let text = std::fs::read_to_string(path).map_err(|source| SceneError::Io {
        file: path.to_path_buf(),
        source,
    })?;
    parse_valid_scene(&text, path)
}

/// The scene as RON text, exactly what [`save_scene`] writes: only the fields that differ from
/// their defaults, groups that fit on one line written on one line.
pub fn scene_to_ron(scene: &Scene) -> String {
    scene_text(scene, None)
}

/// The scene as RON text laid out like `original`, the text it was loaded from: that text's
/// field order, line breaks, comments and explicitly written defaults are kept.
pub fn scene_to_ron_like(scene: &Scene, original: &str) -> String {
    scene_text(scene, Some(original))
}

/// Writes the scene atomically (temporary file, then rename).
pub fn save_scene(scene: &Scene, path: &Path) -> Result<(), SceneError> {
    write_scene_text(&scene_to_ron(scene), path)
}

/// Writes the scene atomically, laid out like `original` (see [`scene_to_ron_like`]); returns
/// the text written, the layout for the next save.
pub fn save_scene_like(scene: &Scene, original: &str, path: &Path) -> Result<String, SceneError> {
    let text = scene_to_ron_like(scene, original);
    write_scene_text(&text, path)?;
    Ok(text)
}

fn write_scene_text(text: &str, path: &Path) -> Result<(), SceneError> {
    write_atomic(path, text.as_bytes()).map_err(|source| SceneError::Io {
        file: path.to_path_buf(),
        source,
    })
}

/// The scene embedded in the binary that the GUI opens with no arguments.
pub fn default_scene() -> Scene {
    const TEXT: &str = include_str!("../../assets/default_scene.ron");
    parse_valid_scene(TEXT, Path::new("assets/default_scene.ron")).expect("embedded default scene is valid")
}
