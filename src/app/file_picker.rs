//! Choosing a file never fails silently: the native dialog (rfd) when a desktop can show one,
//! otherwise — no D-Bus session for the portal, or a dialog that came back at once without the
//! user — crowdlab's own browser ([`FileBrowser`]), with a notice saying so once.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui::Ui;

use super::dialog;
use super::file_browser::{FileBrowser, FileFilter, Outcome, Purpose};

/// A native dialog answering faster than this did not really open (no person is that quick).
const INSTANT_ANSWER: Duration = Duration::from_millis(250);

/// What a chosen path is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathFor {
    /// A scene, recording or importable file to open.
    Open,
    /// Where to save the scene.
    SaveScene,
    /// Where to save the run as a recording.
    SaveRun,
}

impl PathFor {
    fn title(self) -> &'static str {
        match self {
            PathFor::Open => "Open a scene or recording",
            PathFor::SaveScene => "Save scene",
            PathFor::SaveRun => "Save run",
        }
    }

    fn purpose(self) -> Purpose {
        match self {
            PathFor::Open => Purpose::Open,
            PathFor::SaveScene => Purpose::Save { extension: "ron" },
            PathFor::SaveRun => Purpose::Save { extension: "crowdrec" },
        }
    }

    fn filters(self) -> Vec<FileFilter> {
        let scenes = FileFilter {
            name: "Scenes and recordings",
            extensions: &["ron", "crowdrec", "xml", "iascene"],
        };
        let scene = FileFilter {
            name: "Scene (.ron)",
            extensions: &["ron"],
        };
        let recording = FileFilter {
            name: "Recording (.crowdrec)",
            extensions: &["crowdrec"],
        };
        let all = FileFilter {
            name: "All files",
            extensions: &[],
        };
        match self {
            PathFor::Open => vec![scenes, scene, recording, all],
            PathFor::SaveScene => vec![scene, all],
            PathFor::SaveRun => vec![recording, all],
        }
    }
}

/// The file chooser in use and the in-app browser while it is open.
#[derive(Default)]
pub struct FilePicker {
    /// Skip the native dialog (it could not open before, or there is no desktop to show it).
    builtin: bool,
    browser: Option<(FileBrowser, PathFor)>,
}

/// What [`FilePicker::ask`] did.
pub enum Asked {
    /// The native dialog answered with this path.
    Chosen(PathBuf),
    /// The user closed the native dialog.
    Cancelled,
    /// The in-app browser is open; the answer comes from [`FilePicker::show`]. `fell_back` is
    /// true the first time, when a native dialog could not open.
    Browsing { fell_back: bool },
}

impl FilePicker {
    /// A picker that tries the native dialog only where a desktop portal can answer (a D-Bus
    /// session exists) unless `builtin` asks for the in-app browser always.
    pub fn new(builtin: bool) -> FilePicker {
        FilePicker {
            builtin: builtin || std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none(),
            browser: None,
        }
    }

    /// True while the in-app browser is open.
    pub fn is_browsing(&self) -> bool {
        self.browser.is_some()
    }

    /// Asks for a path `for_what`, starting near `near` with `file_name` proposed when saving;
    /// `recent` folders are offered by the in-app browser.
    pub fn ask(&mut self, for_what: PathFor, near: Option<&Path>, file_name: &str, recent: &[PathBuf]) -> Asked {
        let mut fell_back = false;
        if !self.builtin {
            let started = Instant::now();
            let answer = match for_what {
                PathFor::Open => dialog::pick_file_to_open(near),
                PathFor::SaveScene => dialog::pick_save_path(near, file_name, "Save scene", "Scene (.ron)", "ron"),
                PathFor::SaveRun => {
                    dialog::pick_save_path(near, file_name, "Save run", "Recording (.crowdrec)", "crowdrec")
                }
            };
            match answer {
                Some(path) => return Asked::Chosen(path),
                None if started.elapsed() >= INSTANT_ANSWER => return Asked::Cancelled,
                None => {
                    self.builtin = true;
                    fell_back = true;
                }
            }
        }
        let dir = near
            .and_then(Path::parent)
            .filter(|d| !d.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        let folders: Vec<PathBuf> = recent
            .iter()
            .filter_map(|p| p.parent().map(Path::to_path_buf))
            .collect();
        let browser = FileBrowser::new(
            for_what.title(),
            for_what.purpose(),
            &dir,
            file_name,
            for_what.filters(),
            &folders,
        );
        self.browser = Some((browser, for_what));
        Asked::Browsing { fell_back }
    }

    /// Draws the in-app browser when it is open; the chosen path and what it is for once the
    /// user picked one.
    pub fn show(&mut self, ui: &mut Ui) -> Option<(PathFor, PathBuf)> {
        let (browser, for_what) = self.browser.as_mut()?;
        let for_what = *for_what;
        match browser.show(ui)? {
            Outcome::Picked(path) => {
                self.browser = None;
                Some((for_what, path))
            }
            Outcome::Cancelled => {
                self.browser = None;
                None
            }
        }
    }
}
