//! The `crowdlab` binary: no arguments opens the GUI; subcommands work headless.

fn main() -> std::process::ExitCode {
    crowdlab::cli::main()
}
