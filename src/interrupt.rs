//! SIGINT and SIGTERM. A headless command stops where it stands: the temporary exports are
//! deleted, the interrupted recordings are named (readable up to their last complete chunk) and
//! the process exits with code 1.
//!
//! An open window is not exited under: its thread may be inside OpenGL, and tearing the driver
//! down beneath it can crash the process. The signal instead raises a flag and wakes the window,
//! which writes its unsaved scene to the autosave file and closes at its next frame; the command
//! line then finishes as above. A second signal, or a window that has not closed within
//! [`WINDOW_GRACE`], exits at once.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long an open window has to close itself after a signal before the process exits anyway.
pub const WINDOW_GRACE: Duration = Duration::from_secs(5);

/// Whether a signal has arrived.
static RAISED: AtomicBool = AtomicBool::new(false);

/// Asks a window for a frame.
type Waker = Box<dyn Fn() + Send>;

/// The open window's waker, while a window holds the signals ([`hand_to_window`]).
static WINDOW: Mutex<Option<Waker>> = Mutex::new(None);

/// Handles SIGINT and SIGTERM for the rest of the process (see the module's account). Prints a
/// warning when the handler cannot be installed.
pub fn install() {
    if let Err(e) = ctrlc::set_handler(on_signal) {
        eprintln!("warning: cannot handle Ctrl-C ({e}); an interrupted export may leave a .partial file");
    }
}

/// Whether SIGINT or SIGTERM has arrived.
pub fn raised() -> bool {
    RAISED.load(Ordering::SeqCst)
}

/// While the returned guard lives, a signal wakes the window with `wake` instead of exiting the
/// process; the window is expected to see [`raised`] and close.
pub fn hand_to_window(wake: impl Fn() + Send + 'static) -> WindowOpen {
    *window() = Some(Box::new(wake));
    WindowOpen(())
}

/// The window's claim on signals; dropping it (the window closed) gives them back to the
/// command line.
#[must_use = "signals go back to exiting the process when this is dropped"]
pub struct WindowOpen(());

impl Drop for WindowOpen {
    fn drop(&mut self) {
        *window() = None;
    }
}

/// Deletes the temporary exports, names the kept recordings and exits with code 1.
pub fn exit_interrupted() -> ! {
    exit_saying("error: interrupted")
}

/// Does what [`exit_interrupted`] does, with `last` as the last line printed.
fn exit_saying(last: &str) -> ! {
    for kept in crate::atomic_file::on_interrupt() {
        eprintln!(
            "\ninterrupted: the recording so far is kept in {} (export it to recover its complete chunks)",
            kept.display()
        );
    }
    eprintln!("\n{last}");
    std::process::exit(1);
}

/// The open window's waker, locked (a panic while it was held leaves it usable).
fn window() -> std::sync::MutexGuard<'static, Option<Waker>> {
    WINDOW.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The handler: the first signal wakes an open window and gives it [`WINDOW_GRACE`] to close;
/// otherwise, or on a second signal, the process exits.
fn on_signal() {
    let first = !RAISED.swap(true, Ordering::SeqCst);
    if first && let Some(wake) = window().as_ref() {
        wake();
        std::thread::spawn(|| {
            std::thread::sleep(WINDOW_GRACE);
            exit_saying(&format!(
                "error: interrupted (the window did not close within {} s)",
                WINDOW_GRACE.as_secs()
            ));
        });
        return;
    }
    exit_interrupted();
}
