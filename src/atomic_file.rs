//! Atomic file writing: everything crowdlab saves goes to `<name>.partial` in the destination's
//! folder and is renamed over the destination only once complete, so a crash never leaves a
//! half-written scene, recording or export under the real name. A recording interrupted by a
//! killed process stays readable as `<name>.partial` (see `RecordingReader`).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written under a temporary name; [`AtomicFile::commit`] renames it into place.
/// Dropping it without committing deletes the temporary file.
pub struct AtomicFile {
    writer: Option<BufWriter<File>>,
    temp_path: PathBuf,
    final_path: PathBuf,
}

impl AtomicFile {
    /// Creates the temporary file beside `path`.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let temp_path = dir.join(partial_name(&name));
        let file = File::create(&temp_path)?;
        Ok(AtomicFile {
            writer: Some(BufWriter::with_capacity(1 << 20, file)),
            temp_path,
            final_path: path.to_path_buf(),
        })
    }

    /// Flushes, syncs and renames the temporary file to its final name.
    pub fn commit(mut self) -> io::Result<()> {
        let writer = self.writer.take().expect("writer present until commit");
        let file = writer.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.temp_path, &self.final_path)
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
            let _ = std::fs::remove_file(&self.temp_path);
        }
    }
}

/// The temporary name `<name>.partial` a file is written under until it is complete.
pub fn partial_name(name: &str) -> String {
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
}
