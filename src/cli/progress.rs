//! Progress bars for long CLI work (hidden when stderr is not a terminal).

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar of `total` steps labelled `what`.
pub fn bar(total: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{prefix:>8} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    bar
}
