//! Importing scenes from other tools: SteerSuite test cases (`<SteerBenchTestCase>` XML) and
//! IndAlgoTest scenes (`.iascene`, with the `.iaconf` configuration of the same stem applied
//! automatically), plus the export back to `.iascene`/`.iaconf`.
//!
//! Every element an importer cannot represent is reported as a [`Warning`] naming the element
//! and its line, and skipped; nothing is dropped silently. Malformed input is an [`ImportError`]
//! naming the file and line.

mod indalgo;
mod steersuite;
mod warning;
mod xml_tree;

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

pub use indalgo::{IndAlgoFiles, export_indalgo, import_indalgo, scene_to_indalgo};
pub use steersuite::import_steersuite;
pub use warning::{Warning, summarize};

use super::model::{Profile, Scene};
use super::validate::validate;

/// Why a file could not be imported (or a scene not exported to a foreign format).
#[derive(Debug)]
pub enum ImportError {
    /// The file could not be read or written.
    Io { file: PathBuf, source: std::io::Error },
    /// The file is malformed or holds an impossible value at `line`.
    Bad {
        file: PathBuf,
        line: usize,
        message: String,
    },
    /// The imported scene is not valid: each problem with the line of the element it came from
    /// (the root element's for problems of the scene as a whole) and its field path in the scene.
    Invalid {
        file: PathBuf,
        problems: Vec<(usize, String)>,
    },
    /// The file's format is not one crowdlab imports.
    UnknownFormat { file: PathBuf, message: String },
    /// The scene uses something the target format cannot express (export only).
    DoesNotFit { file: PathBuf, problems: Vec<String> },
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Io { file, source } => write!(f, "{}: {source}", file.display()),
            ImportError::Bad { file, line, message } => write!(f, "{}:{line}: {message}", file.display()),
            ImportError::UnknownFormat { file, message } => write!(f, "{}: {message}", file.display()),
            ImportError::Invalid { file, problems } => {
                write!(
                    f,
                    "{}: the imported scene is not valid ({} problem(s))",
                    file.display(),
                    problems.len()
                )?;
                for (line, problem) in problems {
                    write!(f, "\n{}:{line}: {problem}", file.display())?;
                }
                Ok(())
            }
            ImportError::DoesNotFit { file, problems } => {
                write!(f, "{}: the scene does not fit this format:", file.display())?;
                for p in problems {
                    write!(f, "\n  {p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ImportError {}

/// The profiles an import creates, one per (radius, speed), each found again in constant time.
#[derive(Default)]
struct ImportProfiles(HashSet<String>);

impl ImportProfiles {
    /// Adds (once) the profile of imported agents of body `radius` walking at `speed` —
    /// crowdlab's default pedestrian with those two values, named `r{radius}-v{speed}` — and
    /// returns its name.
    fn ensure(&mut self, scene: &mut Scene, radius: f32, speed: f32) -> String {
        let name = format!("r{radius}-v{speed}");
        if self.0.insert(name.clone()) && scene.profile(&name).is_none() {
            let default = Profile::default();
            scene.profiles.push(Profile {
                name: name.clone(),
                radius,
                max_speed: default.max_speed.max(speed),
                preferred_speed: speed,
                ..default
            });
        }
        name
    }
}

/// Reads a whole file as UTF-8 text (a byte order mark skipped), naming the file on failure
/// and the line of the first byte that is not UTF-8.
fn read_text(path: &Path) -> Result<String, ImportError> {
    let bytes = std::fs::read(path).map_err(|source| ImportError::Io {
        file: path.to_path_buf(),
        source,
    })?;
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        ImportError::Bad {
            file: path.to_path_buf(),
            line: bytes[..valid].iter().filter(|&&b| b == b'\n').count() + 1,
            message: format!("byte 0x{:02x} at offset {valid} is not UTF-8 text", bytes[valid]),
        }
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..3);
    }
    Ok(text)
}

/// The line of the element each imported agent and obstacle came from, by its index in the
/// scene, so a validation problem of the imported scene points at the file's line.
#[derive(Default)]
struct SourceLines {
    agents: Vec<usize>,
    obstacles: Vec<usize>,
}

impl SourceLines {
    /// The line of the agent or obstacle a problem at `path` (`agents[3].position`) is about.
    fn line_of(&self, path: &str) -> Option<usize> {
        let index = |prefix: &str| path.strip_prefix(prefix)?.split(']').next()?.parse::<usize>().ok();
        index("agents[")
            .and_then(|i| self.agents.get(i))
            .or_else(|| index("obstacles[").and_then(|i| self.obstacles.get(i)))
            .copied()
    }
}

/// Collects warnings for one file, and the lines imported elements came from.
pub(crate) struct Report {
    file: PathBuf,
    warnings: Vec<Warning>,
    lines: SourceLines,
}

impl Report {
    fn new(file: &Path) -> Report {
        Report {
            file: file.to_path_buf(),
            warnings: Vec::new(),
            lines: SourceLines::default(),
        }
    }

    /// Records a warning at `line` whose message is also its kind (it never varies).
    fn warn(&mut self, line: usize, message: impl Into<String>) {
        let message = message.into();
        self.warn_kind(line, message.clone(), message);
    }

    /// Records a warning of `kind` at `line`, its `message` naming the details.
    fn warn_kind(&mut self, line: usize, kind: impl Into<String>, message: impl Into<String>) {
        self.warnings.push(Warning {
            file: self.file.clone(),
            line,
            kind: kind.into(),
            message: message.into(),
        });
    }

    /// An error at `line` of this file.
    fn bad(&self, line: usize, message: impl Into<String>) -> ImportError {
        ImportError::Bad {
            file: self.file.clone(),
            line,
            message: message.into(),
        }
    }

    /// Parses `value` (the text of `what` at `line`) as a finite number.
    fn number(&self, value: &str, line: usize, what: &str) -> Result<f32, ImportError> {
        value
            .trim()
            .parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| self.bad(line, format!("{what} {value:?} is not a finite number")))
    }

    /// Parses the file's XML, mapping syntax errors to [`ImportError::Bad`].
    fn parse_xml(&self, text: &str) -> Result<xml_tree::Element, ImportError> {
        xml_tree::parse(text).map_err(|e| self.bad(e.line, format!("malformed XML: {}", e.message)))
    }
}

/// Imports `path` by its content: a `<SteerBenchTestCase>` or an IndAlgoTest `<indAlgoConf>`
/// scene (whose `.iaconf` of the same stem is applied when present). The scene is validated.
pub fn import_file(path: &Path) -> Result<(Scene, Vec<Warning>), ImportError> {
    import_file_with_config(path, None)
}

/// Like [`import_file`], applying the IndAlgoTest configuration `config` instead of the one
/// found beside the scene.
pub fn import_file_with_config(path: &Path, config: Option<&Path>) -> Result<(Scene, Vec<Warning>), ImportError> {
    let text = read_text(path)?;
    let root = Report::new(path).parse_xml(&text)?;
    let (scene, warnings, lines) = match root.name.as_str() {
        "SteerBenchTestCase" => {
            if let Some(c) = config {
                return Err(ImportError::UnknownFormat {
                    file: c.to_path_buf(),
                    message: "a configuration only applies to IndAlgoTest scenes (.iascene)".into(),
                });
            }
            steersuite::import_traced(&text, path)?
        }
        "indAlgoConf" => {
            let beside = path.with_extension("iaconf");
            let config = config
                .map(Path::to_path_buf)
                .or_else(|| beside.is_file().then_some(beside));
            let config_text = match &config {
                Some(c) => Some((read_text(c)?, c.clone())),
                None => None,
            };
            indalgo::import_traced(
                &text,
                path,
                config_text.as_ref().map(|(t, p)| (t.as_str(), p.as_path())),
            )?
        }
        other => {
            return Err(ImportError::UnknownFormat {
                file: path.to_path_buf(),
                message: format!(
                    "root element <{other}> is neither a SteerSuite <SteerBenchTestCase> nor an IndAlgoTest <indAlgoConf>"
                ),
            });
        }
    };
    let problems = validate(&scene);
    if !problems.is_empty() {
        let problems = problems
            .iter()
            .map(|p| (lines.line_of(&p.path).unwrap_or(root.line), p.to_string()))
            .collect();
        return Err(ImportError::Invalid {
            file: path.to_path_buf(),
            problems,
        });
    }
    Ok((scene, warnings))
}
