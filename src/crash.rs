//! Crash reports and the per-user state folder (recovery file, crash reports).
//!
//! A panic anywhere in the process writes `crash-<unix seconds>-<pid>.txt` (message, location,
//! backtrace, version) into the state folder and tells the user where it is; the document's
//! recovery file lives in the same folder, so nothing the user typed is lost with the crash.

use std::io::Write;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

/// The folder for recovery files and crash reports: `$CROWDLAB_STATE_DIR`, else
/// `$XDG_STATE_HOME/crowdlab`, else `~/.local/state/crowdlab`, else the temp folder's `crowdlab`.
pub fn state_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CROWDLAB_STATE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_STATE_HOME") {
        return PathBuf::from(dir).join("crowdlab");
    }
    if let Some(home) = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE")) {
        return PathBuf::from(home).join(".local").join("state").join("crowdlab");
    }
    std::env::temp_dir().join("crowdlab")
}

/// Installs a panic hook that writes a crash report to [`state_dir`] and prints its path,
/// then runs the default hook (which prints the message as usual).
pub fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        match write_crash_report(&info.to_string()) {
            Ok(path) => eprintln!("crowdlab crashed; a crash report was written to {}", path.display()),
            Err(e) => eprintln!("crowdlab crashed and could not write a crash report: {e}"),
        }
        default(info);
    }));
}

/// Writes a crash report with `message` and a backtrace; returns its path.
fn write_crash_report(message: &str) -> std::io::Result<PathBuf> {
    let dir = state_dir();
    std::fs::create_dir_all(&dir)?;
    let seconds = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let path = dir.join(format!("crash-{seconds}-{}.txt", std::process::id()));
    let mut file = std::fs::File::create(&path)?;
    writeln!(file, "crowdlab {} crash report", env!("CARGO_PKG_VERSION"))?;
    writeln!(file, "thread: {}", std::thread::current().name().unwrap_or("unnamed"))?;
    writeln!(file, "{message}")?;
    writeln!(file, "\nbacktrace:\n{}", std::backtrace::Backtrace::force_capture())?;
    Ok(path)
}
