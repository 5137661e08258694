//! The in-app file browser: the fallback when no native dialog can open (no desktop portal, no
//! desktop session — a plain X server), and what tests click. A modal window with the folder's
//! path (editable: type a folder to go there, or a file to pick it), recent and well-known
//! folders, the folder's entries (folders first, files through the chosen filter), a file name
//! for saving, and a visible error line instead of any silent failure.

use std::path::{Path, PathBuf};

use eframe::egui::{ComboBox, Id, Key, Modal, ScrollArea, TextEdit, Ui};

/// A named set of file extensions (without dots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileFilter {
    /// What the files are, e.g. "Scene (.ron)".
    pub name: &'static str,
    /// Extensions shown under this filter (empty = every file).
    pub extensions: &'static [&'static str],
}

impl FileFilter {
    /// True when `path` passes the filter.
    pub fn accepts(&self, path: &Path) -> bool {
        self.extensions.is_empty()
            || path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| self.extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
    }
}

/// What the browser is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// An existing file to open.
    Open,
    /// Where to save: a file name (edited by the user) and the extension added when it has none.
    Save { extension: &'static str },
}

/// How the browser closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The user chose this file.
    Picked(PathBuf),
    /// The user closed the browser without choosing.
    Cancelled,
}

/// One entry of the listed folder.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    name: String,
    path: PathBuf,
    is_dir: bool,
}

/// The browser's state between frames.
#[derive(Clone, Debug)]
pub struct FileBrowser {
    title: String,
    purpose: Purpose,
    filters: Vec<FileFilter>,
    filter: usize,
    dir: PathBuf,
    /// The path field: the folder shown, or what the user typed.
    path_text: String,
    /// The file name field (selection when opening, name when saving).
    file_name: String,
    entries: Vec<Entry>,
    places: Vec<(String, PathBuf)>,
    error: Option<String>,
}

impl FileBrowser {
    /// A browser titled `title` for `purpose`, showing `dir` (or the working folder when it
    /// cannot be listed), with `filters` (the first one chosen), `recent` folders offered on the
    /// left, and `file_name` proposed when saving.
    pub fn new(
        title: &str,
        purpose: Purpose,
        dir: &Path,
        file_name: &str,
        filters: Vec<FileFilter>,
        recent: &[PathBuf],
    ) -> FileBrowser {
        let mut places: Vec<(String, PathBuf)> = Vec::new();
        let mut add = |label: String, path: PathBuf| {
            if path.is_dir() && !places.iter().any(|(_, p)| p == &path) {
                places.push((label, path));
            }
        };
        if let Ok(cwd) = std::env::current_dir() {
            add("Working folder".into(), cwd);
        }
        if let Some(home) = std::env::var_os("HOME").map(PathBuf::from) {
            add("Home".into(), home);
        }
        for folder in recent {
            let label = folder
                .file_name()
                .map_or_else(|| folder.display().to_string(), |n| n.to_string_lossy().into_owned());
            add(label, folder.clone());
        }
        let mut browser = FileBrowser {
            title: title.into(),
            purpose,
            filters,
            filter: 0,
            dir: PathBuf::new(),
            path_text: String::new(),
            file_name: file_name.into(),
            entries: Vec::new(),
            places,
            error: None,
        };
        let start = if dir.is_dir() {
            dir.to_path_buf()
        } else {
            std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
        };
        browser.go_to(&start);
        browser
    }

    /// Lists `dir` and shows it; on failure stays where it was and says why.
    fn go_to(&mut self, dir: &Path) {
        match list(dir, self.filters.get(self.filter)) {
            Ok(entries) => {
                self.dir = dir.to_path_buf();
                self.entries = entries;
                self.error = None;
            }
            Err(e) => self.error = Some(format!("Cannot list {}: {e}", dir.display())),
        }
        self.path_text = self.dir.display().to_string();
    }

    /// Acts on what the user typed in the path field: a folder is shown, a file is picked
    /// (opening) or named (saving), anything else is an error.
    fn follow_path_text(&mut self) -> Option<Outcome> {
        let typed = PathBuf::from(self.path_text.trim());
        let typed = if typed.is_relative() {
            self.dir.join(typed)
        } else {
            typed
        };
        if typed.is_dir() {
            self.go_to(&typed);
            return None;
        }
        match &self.purpose {
            Purpose::Open if typed.is_file() => Some(Outcome::Picked(typed)),
            Purpose::Save { .. } if typed.parent().is_some_and(Path::is_dir) => {
                self.file_name = typed
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                // An owned copy: `go_to` replaces `self.dir`, which the parent may borrow.
                let dir = typed.parent().unwrap_or(&self.dir).to_path_buf();
                self.go_to(&dir);
                self.confirm()
            }
            _ => {
                self.error = Some(format!("{} does not exist", typed.display()));
                None
            }
        }
    }

    /// The Open / Save button: the file the fields name, or an error saying what is missing.
    fn confirm(&mut self) -> Option<Outcome> {
        let name = self.file_name.trim();
        if name.is_empty() {
            self.error = Some("Choose a file first".into());
            return None;
        }
        let mut path = self.dir.join(name);
        match &self.purpose {
            Purpose::Open if !path.is_file() => {
                self.error = Some(format!("{} is not a file", path.display()));
                None
            }
            Purpose::Open => Some(Outcome::Picked(path)),
            Purpose::Save { extension } => {
                if path.extension().is_none() {
                    path.set_extension(extension);
                }
                if path.is_dir() {
                    self.error = Some(format!("{} is a folder", path.display()));
                    return None;
                }
                Some(Outcome::Picked(path))
            }
        }
    }

    /// Draws the browser as a modal window; returns how it closed, or `None` while it is open.
    pub fn show(&mut self, ui: &mut Ui) -> Option<Outcome> {
        let mut outcome = None;
        let modal = Modal::new(Id::unique("file browser")).show(ui.ctx(), |ui| {
            ui.set_width(640.0);
            ui.heading(&self.title);
            outcome = self.path_row(ui);
            ui.separator();
            ui.horizontal_top(|ui| {
                ui.set_max_width(640.0);
                self.places_column(ui);
                ui.add_space(12.0);
                if let Some(o) = self.entries_list(ui) {
                    outcome = Some(o);
                }
            });
            ui.separator();
            if let Some(o) = self.bottom_rows(ui) {
                outcome = Some(o);
            }
        });
        if outcome.is_none() && modal.should_close() {
            outcome = Some(Outcome::Cancelled);
        }
        outcome
    }

    fn path_row(&mut self, ui: &mut Ui) -> Option<Outcome> {
        let mut outcome = None;
        ui.horizontal(|ui| {
            if ui.button("Up").on_hover_text("The parent folder").clicked()
                && let Some(parent) = self.dir.parent().map(Path::to_path_buf)
            {
                self.go_to(&parent);
            }
            let label = ui.label("Path");
            let field = ui
                .add(TextEdit::singleline(&mut self.path_text).desired_width(f32::INFINITY))
                .labelled_by(label.id);
            if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                outcome = self.follow_path_text();
            }
        });
        outcome
    }

    fn places_column(&mut self, ui: &mut Ui) {
        ui.vertical(|ui| {
            ui.set_width(140.0);
            ui.strong("Places");
            let mut target = None;
            for (label, path) in &self.places {
                if ui
                    .selectable_label(self.dir == *path, label)
                    .on_hover_text(path.display().to_string())
                    .clicked()
                {
                    target = Some(path.clone());
                }
            }
            if let Some(path) = target {
                self.go_to(&path);
            }
        });
    }

    fn entries_list(&mut self, ui: &mut Ui) -> Option<Outcome> {
        let mut outcome = None;
        let mut enter = None;
        ui.vertical(|ui| {
            ScrollArea::vertical()
                .id_salt("file browser entries")
                .max_height(320.0)
                .max_width(470.0)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    ui.set_width(460.0);
                    if self.entries.is_empty() {
                        ui.weak("(no folders or matching files here)");
                    }
                    for entry in &self.entries {
                        let text = if entry.is_dir {
                            format!("{}/", entry.name)
                        } else {
                            entry.name.clone()
                        };
                        let selected = !entry.is_dir && self.file_name == entry.name;
                        let response = ui.selectable_label(selected, text);
                        if response.double_clicked() {
                            if entry.is_dir {
                                enter = Some(entry.path.clone());
                            } else {
                                outcome = Some(Outcome::Picked(entry.path.clone()));
                            }
                        } else if response.clicked() {
                            if entry.is_dir {
                                enter = Some(entry.path.clone());
                            } else {
                                self.file_name = entry.name.clone();
                            }
                        }
                    }
                });
        });
        if let Some(dir) = enter {
            self.go_to(&dir);
        }
        outcome
    }

    fn bottom_rows(&mut self, ui: &mut Ui) -> Option<Outcome> {
        let mut outcome = None;
        ui.horizontal(|ui| {
            let label = ui.label("File name");
            let field = ui
                .add(TextEdit::singleline(&mut self.file_name).desired_width(300.0))
                .labelled_by(label.id);
            if field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                outcome = self.confirm();
            }
            let before = self.filter;
            ComboBox::from_label("Filter")
                .selected_text(self.filters.get(self.filter).map_or("All files", |f| f.name))
                .show_ui(ui, |ui| {
                    for (i, f) in self.filters.iter().enumerate() {
                        ui.selectable_value(&mut self.filter, i, f.name);
                    }
                });
            if self.filter != before {
                let dir = self.dir.clone();
                self.go_to(&dir);
            }
        });
        if let Some(error) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        ui.horizontal(|ui| {
            let action = match self.purpose {
                Purpose::Open => "Open file",
                Purpose::Save { .. } => "Save file",
            };
            if ui.button(action).clicked() {
                outcome = self.confirm();
            }
            if ui.button("Cancel").clicked() {
                outcome = Some(Outcome::Cancelled);
            }
        });
        outcome
    }
}

/// The folders and the files passing `filter` in `dir`, folders first, each group by name;
/// hidden entries (starting with a dot) left out.
fn list(dir: &Path, filter: Option<&FileFilter>) -> std::io::Result<Vec<Entry>> {
    let mut entries: Vec<Entry> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = e.path();
            let is_dir = path.is_dir();
            let shown = !name.starts_with('.') && (is_dir || filter.is_none_or(|f| f.accepts(&path)));
            shown.then_some(Entry { name, path, is_dir })
        })
        .collect();
    entries.sort_by(|a, b| b.is_dir.cmp(&a.is_dir).then_with(|| a.name.cmp(&b.name)));
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RON: FileFilter = FileFilter {
        name: "Scene (.ron)",
        extensions: &["ron"],
    };

    fn folder() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("a.ron"), "()").unwrap();
        std::fs::write(dir.path().join("b.txt"), "").unwrap();
        std::fs::write(dir.path().join(".hidden.ron"), "").unwrap();
        dir
    }

    #[test]
    fn lists_folders_first_then_matching_files() {
        let dir = folder();
        let names: Vec<String> = list(dir.path(), Some(&RON))
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["sub", "a.ron"]);
        assert_eq!(list(dir.path(), None).unwrap().len(), 3);
        assert!(list(&dir.path().join("missing"), None).is_err());
    }

    #[test]
    fn typed_paths_open_folders_pick_files_and_report_the_rest() {
        let dir = folder();
        let mut b = FileBrowser::new("Open", Purpose::Open, dir.path(), "", vec![RON], &[]);
        b.path_text = "sub".into();
        assert_eq!(b.follow_path_text(), None);
        assert_eq!(b.dir, dir.path().join("sub"));
        b.path_text = dir.path().join("a.ron").display().to_string();
        assert_eq!(b.follow_path_text(), Some(Outcome::Picked(dir.path().join("a.ron"))));
        b.path_text = "nowhere.ron".into();
        assert_eq!(b.follow_path_text(), None);
        assert!(b.error.as_deref().unwrap().contains("does not exist"));
    }

    #[test]
    fn saving_adds_the_extension_and_refuses_an_empty_name() {
        let dir = folder();
        let mut b = FileBrowser::new(
            "Save",
            Purpose::Save { extension: "ron" },
            dir.path(),
            "",
            vec![RON],
            &[],
        );
        assert_eq!(b.confirm(), None);
        assert_eq!(b.error.as_deref(), Some("Choose a file first"));
        b.file_name = "new scene".into();
        assert_eq!(b.confirm(), Some(Outcome::Picked(dir.path().join("new scene.ron"))));
    }
}
