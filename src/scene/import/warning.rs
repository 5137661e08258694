//! What an import skipped or approximated, and the warnings grouped by kind for people to read:
//! a file with 1,471 unnamed agents gives one line `agent name not kept: 1471 times (…)`, not
//! 1,471 lines.

use std::fmt;
use std::path::PathBuf;

/// How many places a repeated kind of warning lists before `…`.
const PLACES_SHOWN: usize = 3;

/// Something in an imported file that was skipped or approximated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The file the element came from.
    pub file: PathBuf,
    /// 1-based line of the element.
    pub line: usize,
    /// What kind of thing was skipped or approximated, the same for every warning of its kind
    /// (`agent name not kept`); warnings are grouped by it.
    pub kind: String,
    /// What was skipped or approximated, naming the element.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
    }
}

/// The warnings grouped by kind, in order of each kind's first appearance: a kind seen once is
/// its warning as is (`file.xml:12: message`); a repeated kind is one line with its count and its
/// first places (`agent name not kept: 1471 times (file.xml:12, :40, :68, …)`).
pub fn summarize(warnings: &[Warning]) -> Vec<String> {
    let mut kinds: Vec<(&str, Vec<&Warning>)> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for w in warnings {
        let i = *index.entry(w.kind.as_str()).or_insert_with(|| {
            kinds.push((w.kind.as_str(), Vec::new()));
            kinds.len() - 1
        });
        kinds[i].1.push(w);
    }
    kinds
        .into_iter()
        .map(|(kind, group)| match group.as_slice() {
            [single] => single.to_string(),
            many => format!("{kind}: {} times ({})", many.len(), places(many)),
        })
        .collect()
}

/// `file.xml:12, :40, :68, …`: the first places, the file named again only where it changes.
fn places(group: &[&Warning]) -> String {
    let mut out = Vec::new();
    let mut file = None;
    for w in group.iter().take(PLACES_SHOWN) {
        if file == Some(&w.file) {
            out.push(format!(":{}", w.line));
        } else {
            out.push(format!("{}:{}", w.file.display(), w.line));
            file = Some(&w.file);
        }
    }
    if group.len() > PLACES_SHOWN {
        out.push("…".into());
    }
    out.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(line: usize, kind: &str, message: &str) -> Warning {
        Warning {
            file: PathBuf::from("case.xml"),
            line,
            kind: kind.into(),
            message: message.into(),
        }
    }

    #[test]
    fn repeated_kinds_become_one_line_with_count_and_first_places() {
        let mut warnings: Vec<Warning> = (0..1471)
            .map(|i| {
                warning(
                    12 + 28 * i,
                    "agent name not kept",
                    &format!("agent name \"a{i}\" is not kept"),
                )
            })
            .collect();
        warnings.insert(1, warning(5, "<x> skipped", "<x> is not supported; skipped"));
        assert_eq!(
            summarize(&warnings),
            vec![
                "agent name not kept: 1471 times (case.xml:12, :40, :68, …)".to_string(),
                "case.xml:5: <x> is not supported; skipped".to_string(),
            ]
        );
    }

    #[test]
    fn a_kind_of_two_lists_both_places_without_an_ellipsis() {
        let warnings = [warning(3, "k", "m"), warning(9, "k", "m")];
        assert_eq!(summarize(&warnings), vec!["k: 2 times (case.xml:3, :9)".to_string()]);
    }
}
