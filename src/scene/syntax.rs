//! Parsing scene text with messages a user can act on: the RON error's line and column, the
//! field path (`agents[1].start_tme`) from `serde_path_to_error`, and for an unknown field or
//! variant the nearest valid name by edit distance. A UTF-8 byte order mark is skipped.

use serde::de::DeserializeOwned;

/// Where and why scene text did not parse.
#[derive(Debug)]
pub struct SyntaxError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong, with the field path when known.
    pub message: String,
}

/// Parses RON `text` into `T`, rejecting unknown fields with their path and a suggestion.
pub fn parse_ron<T: DeserializeOwned>(text: &str) -> Result<T, SyntaxError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let spanned = |e: ron::error::SpannedError| SyntaxError {
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    };
    let mut de = ron::Deserializer::from_str_with_options(text, &ron::Options::default()).map_err(spanned)?;
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let message = describe(&inner, &path);
        SyntaxError {
            message,
            ..spanned(de.span_error(inner))
        }
    })?;
    de.end().map_err(|e| spanned(de.span_error(e)))?;
    Ok(value)
}

/// The message of `error` found at field `path` (`.` when at the top level).
fn describe(error: &ron::Error, path: &str) -> String {
    let at = if path == "." || path.is_empty() {
        String::new()
    } else {
        format!("{path}: ")
    };
    match error {
        ron::Error::NoSuchStructField { expected, found, .. } => {
            format!("{at}unknown field `{found}`{}", suggestion(found, expected, "fields"))
        }
        ron::Error::NoSuchEnumVariant { expected, found, .. } => {
            format!(
                "{at}unknown variant `{found}`{}",
                suggestion(found, expected, "variants")
            )
        }
        other => format!("{at}{other}"),
    }
}

/// "; did you mean `x`? (valid fields: a, b, x)" — the nearest of `valid` by edit distance when
/// it is close enough to be a likely misspelling (or `found` begins it), and the full list.
fn suggestion(found: &str, valid: &[&str], kind: &str) -> String {
    let close = |d: usize, v: &str| d <= (v.len().max(found.len()) / 2).max(2) || v.starts_with(found);
    let nearest = valid
        .iter()
        .map(|v| (strsim::levenshtein(found, v), *v))
        .min()
        .filter(|&(d, v)| close(d, v));
    let list = valid.join(", ");
    match nearest {
        Some((_, name)) => format!("; did you mean `{name}`? (valid {kind}: {list})"),
        None => format!(" (valid {kind}: {list})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_pick_the_nearest_name_only_when_close() {
        assert!(
            suggestion("start_tme", &["start_time", "end_time", "id"], "fields").contains("did you mean `start_time`")
        );
        assert!(!suggestion("zzzzzzzz", &["id", "goal"], "fields").contains("did you mean"));
    }
}
