//! Output paths checked against the inputs before any work starts: an output that is one of the
//! command's input files (or another of its outputs) would destroy it, so it is refused.

use std::path::{Path, PathBuf};

use super::CliError;

/// The file `path` names, when it exists (symbolic links and `..` resolved).
fn identity(path: &Path) -> Option<PathBuf> {
    path.canonicalize().ok()
}

/// Refuses any output (named by its option) that is an input or another output.
pub fn refuse_overwriting(inputs: &[&Path], outputs: &[(&str, Option<&Path>)]) -> Result<(), CliError> {
    let outputs: Vec<(&str, &Path)> = outputs.iter().filter_map(|(o, p)| p.map(|p| (*o, p))).collect();
    for (k, (option, out)) in outputs.iter().enumerate() {
        let same = |other: &Path| identity(out).is_some_and(|id| identity(other) == Some(id)) || *out == other;
        if let Some(input) = inputs.iter().find(|i| same(i)) {
            return Err(CliError::input(format!(
                "{option} {}: this is the input file {}; writing it would destroy it — choose another output",
                out.display(),
                input.display()
            )));
        }
        if let Some((other, _)) = outputs[..k].iter().find(|(_, p)| same(p)) {
            return Err(CliError::input(format!(
                "{option} {}: {other} writes the same file",
                out.display()
            )));
        }
    }
    Ok(())
}
