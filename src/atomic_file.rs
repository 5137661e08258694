//! Atomic file writing: everything crowdlab saves goes to `<name>.partial` in the destination's
//! folder and is renamed over the destination only once complete, so a crash never leaves a
//! half-written scene, recording or export under the real name. A recording interrupted by a
//! killed process stays readable as `<name>.partial` (see `RecordingReader`).
//!
//! Every temporary file or folder is registered while it exists: [`on_interrupt`] (installed by
//! the command line for SIGINT and SIGTERM) deletes the temporary exports and names the kept
//! recordings before the process exits, and a failed final rename deletes the temporary file.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What happens to a temporary path when the process is interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnInterrupt {
    /// Deleted (exports: a half-written file is worth nothing).
    Delete,
    /// Kept and named (recordings: every complete chunk can be recovered from it).
    Keep,
}

/// The temporary paths that exist now, and whether an interrupt has begun (then no new one may
/// be created).
struct Registry {
    interrupted: bool,
    paths: Vec<(PathBuf, OnInterrupt)>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    interrupted: false,
    paths: Vec::new(),
});

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `create` for the temporary `path` and registers it, unless an interrupt has begun.
fn register<T>(path: &Path, on_interrupt: OnInterrupt, create: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    let mut r = registry();
    if r.interrupted {
        return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
    }
    let value = create()?;
    r.paths.push((path.to_path_buf(), on_interrupt));
    Ok(value)
}

/// Forgets the temporary `path` (renamed into place or deleted).
fn unregister(path: &Path) {
    registry().paths.retain(|(p, _)| p != path);
}

/// Removes a temporary file or folder.
fn remove(path: &Path) {
    let _ = if path.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
}

/// Deletes every registered temporary export and returns the kept ones (interrupted
/// recordings); no temporary path can be created afterwards. Called on SIGINT/SIGTERM.
pub fn on_interrupt() -> Vec<PathBuf> {
    let mut r = registry();
    r.interrupted = true;
    let mut kept = Vec::new();
    for (path, what) in r.paths.drain(..) {
        match what {
            OnInterrupt::Delete => remove(&path),
            OnInterrupt::Keep => kept.push(path),
        }
    }
    kept
}

/// The temporary path `<path>.partial` beside `path`.
pub fn partial_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    dir.join(partial_name(&name))
}

/// A file being written under a temporary name; [`AtomicFile::commit`] renames it into place.
/// Dropping it without committing deletes the temporary file.
pub struct AtomicFile {
    writer: Option<BufWriter<File>>,
    temp_path: PathBuf,
    final_path: PathBuf,
}

impl AtomicFile {
    /// Creates the temporary file beside `path`, deleted if the process is interrupted.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        AtomicFile::create_with(path, OnInterrupt::Delete)
    }

    /// Creates the temporary file beside `path`, kept or deleted on interrupt as `on_interrupt` says.
    pub fn create_with(path: &Path, on_interrupt: OnInterrupt) -> io::Result<AtomicFile> {
        let temp_path = partial_path(path);
        let file = register(&temp_path, on_interrupt, || File::create(&temp_path))?;
        Ok(AtomicFile {
            writer: Some(BufWriter::with_capacity(1 << 20, file)),
            temp_path,
            final_path: path.to_path_buf(),
        })
    }

    /// Flushes, syncs and renames the temporary file to its final name; on failure the
    /// temporary file is deleted and the error names both paths.
    pub fn commit(mut self) -> io::Result<()> {
        let writer = self.writer.take().expect("writer present until commit");
        let result = (|| {
            let file = writer.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            drop(file);
            std::fs::rename(&self.temp_path, &self.final_path).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!(
                        "cannot rename {} to {}: {e}",
                        self.temp_path.display(),
                        self.final_path.display()
                    ),
                )
            })
        })();
        if result.is_err() {
            remove(&self.temp_path);
        }
        unregister(&self.temp_path);
        result
    }

    /// The path the file will have once committed.
    pub fn final_path(&self) -> &Path {
        &self.final_path
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer.as_mut().expect("writer present until commit").write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.as_mut().expect("writer present until commit").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            remove(&self.temp_path);
            unregister(&self.temp_path);
        }
    }
}

/// A folder filled under the temporary name `<dir>.partial` and moved into place by
/// [`AtomicDir::commit`]; dropped uncommitted (an error, a cancel), it is deleted with its
/// content, so a failed export never leaves a partial set of files in the destination.
pub struct AtomicDir {
    temp: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl AtomicDir {
    /// Creates the empty temporary folder beside `dir`, replacing a stale one.
    pub fn create(dir: &Path) -> io::Result<AtomicDir> {
        let temp = partial_path(dir);
        if temp.exists() {
            remove(&temp);
        }
        register(&temp, OnInterrupt::Delete, || std::fs::create_dir_all(&temp))?;
        Ok(AtomicDir {
            temp,
            target: dir.to_path_buf(),
            committed: false,
        })
    }

    /// Where the files go until the folder is committed.
    pub fn path(&self) -> &Path {
        &self.temp
    }

    /// Renames the folder to its final name; into an existing folder, the files are moved in
    /// one by one (replacing files of the same name) and the temporary folder removed.
    pub fn commit(mut self) -> io::Result<()> {
        let result = if self.target.exists() {
            std::fs::read_dir(&self.temp)
                .and_then(|mut entries| {
                    entries.try_for_each(|e| e.and_then(|e| std::fs::rename(e.path(), self.target.join(e.file_name()))))
                })
                .and_then(|()| std::fs::remove_dir(&self.temp))
        } else {
            std::fs::rename(&self.temp, &self.target)
        };
        self.committed = result.is_ok();
        result
    }
}

impl Drop for AtomicDir {
    fn drop(&mut self) {
        if !self.committed {
            remove(&self.temp);
        }
        unregister(&self.temp);
    }
}

/// The temporary name `<name>.partial` a file is written under until it is complete.
fn partial_name(name: &str) -> String {
    format!("{name}.partial")
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uncommitted_file_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        {
            let mut f = AtomicFile::create(&target).unwrap();
            f.write_all(b"partial").unwrap();
        }
        assert!(!target.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        write_atomic(&target, b"done").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"done");
    }

    #[test]
    fn a_failed_rename_leaves_no_partial_file() {
        let dir = tempfile::tempdir().unwrap();
        // The destination is a non-empty folder: the rename fails.
        let target = dir.path().join("taken");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("x"), b"x").unwrap();
        let err = write_atomic(&target, b"data").unwrap_err();
        assert!(err.to_string().contains("cannot rename"), "{err}");
        assert!(!partial_path(&target).exists());
    }

    #[test]
    fn folders_appear_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("frames");
        {
            let d = AtomicDir::create(&target).unwrap();
            std::fs::write(d.path().join("a.png"), b"a").unwrap();
        }
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "dropped uncommitted: nothing left"
        );
        let d = AtomicDir::create(&target).unwrap();
        std::fs::write(d.path().join("a.png"), b"a").unwrap();
        d.commit().unwrap();
        let d = AtomicDir::create(&target).unwrap();
        std::fs::write(d.path().join("b.png"), b"b").unwrap();
        d.commit().unwrap();
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["frames"]);
        assert_eq!(std::fs::read_dir(&target).unwrap().count(), 2);
    }
}
