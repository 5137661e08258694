//! What the user asked for in a panel; the app applies it after the panels are drawn.

use std::path::PathBuf;

use super::playback::Speed;
use crate::scene::Scene;

/// A user request raised by a panel and applied by [`super::CrowdlabApp::apply`].
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Choose a scene or recording file and open it.
    Open,
    /// Save the scene to its file (asks for one if it has none).
    Save,
    /// Save the scene to a newly chosen file.
    SaveAs,
    /// Play forward: simulate new ticks, or replay recorded ones when the cursor is behind.
    Run,
    /// Stop playing; the cursor stays where it is.
    Pause,
    /// Advance exactly one tick (replayed or simulated), then pause.
    Step,
    /// Discard the live run (or rewind a replayed file) and show tick 0.
    Reset,
    /// Move the timeline cursor to this tick and pause.
    Seek(u64),
    /// Move the cursor one recorded tick back and pause.
    StepBack,
    /// Turn looping of the replay on or off.
    SetLooping(bool),
    /// Change how fast playing advances.
    SetSpeed(Speed),
    /// Fit the whole scene into the canvas.
    Fit,
    /// Replace the document's scene with this edited copy.
    EditScene(Box<Scene>),
    /// Hide the notice panel.
    DismissNotice,
    /// Start a new, empty scene (asks before dropping unsaved changes).
    New,
    /// Open this file (recent files, drag and drop; asks before dropping unsaved changes).
    OpenPath(PathBuf),
    /// Undo the last scene edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Switch to the editor (asks before discarding a simulated run).
    EnterEditor,
    /// Close the window (asks before dropping unsaved changes).
    Quit,
    /// Carry out this command without asking again (the user answered the question).
    Confirmed(Box<Command>),
    /// Carry out this command if the save just asked for succeeded.
    AfterSave(Box<Command>),
    /// Replace the document with the autosaved scene of an earlier session.
    RestoreRecovery,
    /// Delete the autosaved scene of an earlier session.
    DiscardRecovery,
}
