//! The `crowdlab` command line: everything the GUI does with a scene or a recording, headless.
//!
//! Exit codes: 0 success, 2 bad input or usage (unreadable/invalid scene, damaged recording,
//! impossible parameter), 1 any other failure (e.g. the disk is full).

mod args;
mod commands;
mod export;
mod paths;
mod progress;
mod validate;

use std::process::ExitCode;

use clap::Parser;

pub use args::{Cli, Command};

/// A failure with its exit code.
#[derive(Debug)]
pub struct CliError {
    /// 2 for bad input or usage, 1 for anything else.
    pub code: u8,
    /// What went wrong, naming the file and place.
    pub message: String,
}

impl CliError {
    /// A bad-input error (exit code 2).
    pub fn input(message: impl std::fmt::Display) -> CliError {
        CliError {
            code: 2,
            message: message.to_string(),
        }
    }

    /// Any other failure (exit code 1).
    pub fn other(message: impl std::fmt::Display) -> CliError {
        CliError {
            code: 1,
            message: format!("{message:#}"),
        }
    }
}

/// Parses the process arguments, runs the command and returns the exit code.
pub fn main() -> ExitCode {
    crate::crash::install_panic_hook();
    crate::interrupt::install();
    let outcome = run_from(std::env::args_os());
    if crate::interrupt::raised() {
        // A window that a signal closed ends here, as a headless command would have.
        crate::interrupt::exit_interrupted();
    }
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

/// Runs the command line `args` (program name first) in this process: what `crowdlab` does,
/// returning the failure instead of exiting. `--help` and `--version` print and succeed; an
/// argument clap rejects is a usage error (exit code 2).
pub fn run_from<I, T>(args: I) -> Result<(), CliError>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            print!("{}", e.render().ansi());
            return Ok(());
        }
        Err(e) => {
            let text = e.render().to_string();
            let text = text.trim_end().strip_prefix("error: ").unwrap_or(text.trim_end());
            return Err(CliError::input(text));
        }
    };
    commands::dispatch(cli)
}
