//! Native file dialogs (rfd), kept apart so that everything else runs without a desktop session
//! (tests never reach this file).

use std::path::{Path, PathBuf};

/// Asks for a scene or recording to open.
pub fn pick_file_to_open(near: Option<&Path>) -> Option<PathBuf> {
    let mut dialog = rfd::FileDialog::new()
        .set_title("Open a scene or recording")
        .add_filter("Scenes and recordings", &["ron", "crowdrec", "xml", "iascene"])
        .add_filter("Scene (.ron)", &["ron"])
        .add_filter("Recording (.crowdrec)", &["crowdrec"])
        .add_filter("SteerSuite test case (.xml)", &["xml"])
        .add_filter("IndAlgoTest scene (.iascene)", &["iascene"]);
    if let Some(dir) = near.and_then(Path::parent) {
        dialog = dialog.set_directory(dir);
    }
    dialog.pick_file()
}

/// Asks where to save (titled `title`), proposing `file_name` next to `near`, under the filter
/// `filter` of `extension` files; the extension is added when the user typed none.
pub fn pick_save_path(
    near: Option<&Path>,
    file_name: &str,
    title: &str,
    filter: &str,
    extension: &str,
) -> Option<PathBuf> {
    let mut dialog = rfd::FileDialog::new()
        .set_title(title)
        .add_filter(filter, &[extension])
        .set_file_name(file_name);
    if let Some(dir) = near.and_then(Path::parent) {
        dialog = dialog.set_directory(dir);
    }
    dialog.save_file().map(|p| {
        if p.extension().is_none() {
            p.with_extension(extension)
        } else {
            p
        }
    })
}
