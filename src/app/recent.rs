//! The recent-files list: newest first, at most [`MAX_RECENT`], kept in `recent.txt` (one path a
//! line) in the state folder so that it survives restarts.

use std::path::{Path, PathBuf};

/// Longest list kept.
pub const MAX_RECENT: usize = 10;

/// Recently opened or saved files.
#[derive(Clone, Debug, Default)]
pub struct RecentFiles {
    /// Where the list is stored; `None` keeps it in memory only.
    file: Option<PathBuf>,
    /// Newest first.
    paths: Vec<PathBuf>,
}

impl RecentFiles {
    /// The list stored in `dir` (empty when there is none yet or it cannot be read).
    pub fn load(dir: &Path) -> RecentFiles {
        let file = dir.join("recent.txt");
        let paths = std::fs::read_to_string(&file)
            .map(|text| text.lines().filter(|l| !l.is_empty()).map(PathBuf::from).collect())
            .unwrap_or_default();
        RecentFiles {
            file: Some(file),
            paths,
        }
    }

    /// The files, newest first.
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Puts `path` at the front (once) and stores the list; a failed write only loses the list.
    pub fn add(&mut self, path: &Path) {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.paths.retain(|p| *p != path);
        self.paths.insert(0, path);
        self.paths.truncate(MAX_RECENT);
        if let Some(file) = &self.file {
            let text: String = self.paths.iter().map(|p| format!("{}\n", p.display())).collect();
            let _ = std::fs::create_dir_all(file.parent().unwrap_or(Path::new(".")));
            let _ = std::fs::write(file, text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_first_without_repeats_and_persisted() {
        let dir = tempfile::tempdir().unwrap();
        let mut r = RecentFiles::load(dir.path());
        r.add(&dir.path().join("a.ron"));
        r.add(&dir.path().join("b.ron"));
        r.add(&dir.path().join("a.ron"));
        let again = RecentFiles::load(dir.path());
        assert_eq!(again.paths(), [dir.path().join("a.ron"), dir.path().join("b.ron")]);
    }
}
