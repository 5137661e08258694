//! What the user asked for in a panel; the app applies it after the panels are drawn.

use std::path::PathBuf;

use super::time::TimeCommand;
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
    /// Save the run (live or replayed) as a recording file the user chooses.
    SaveRun,
    /// Open the export dialog (PNG sequence, skeleton XML, CSV) for the run.
    Export,
    /// Move the time cursor (play, pause, step, seek, speed, loop); one that starts the run
    /// switches from the editor to the simulator.
    Time(TimeCommand),
    /// Discard the live run and start it again from the start points (asks first when ticks
    /// were simulated).
    Reset,
    /// Fit the whole scene into the canvas.
    Fit,
    /// Show or hide the analysis panel: plots and metrics (simulator).
    ToggleAnalysis,
    /// Select this agent and centre the canvas on it.
    SelectAgent(u32),
    /// Run the open scene with every method of `crowdlab compare` in the background.
    StartComparison,
    /// Stop the comparison running.
    CancelComparison,
    /// Run the open scene with the named method in the simulator (the scene is unchanged).
    OpenMethodRun(String),
    /// Run the bundled RiMEA suite with the method and case set chosen in the Validation tab.
    StartValidation,
    /// Stop the suite running.
    CancelValidation,
    /// Open the named bundled validation case as the scene (asks before dropping changes).
    OpenValidationCase(String),
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
