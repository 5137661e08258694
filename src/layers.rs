//! Guard of the module layer order: geom < scene < record < sim < draw < export / validate < app
//! < cli. A top-level module may use only the modules to its left; export and validate are peers
//! and use none of each other; the app sits on both (its export dialog and validation window run
//! the same code as the CLI). The utilities (`atomic_file`, `crash`, `interrupt`, `limits`,
//! `shares`, `workers`, `lib.rs`) form the lowest layer: anyone may use them and they use none of the
//! layered modules.
//!
//! The test reads every `.rs` file under `src/` and finds, outside comments, string and character
//! literals, each path into a top-level module: `crate::m`, every item of a group
//! `crate::{m::X, n::{Y, Z}}`, and `super::` chains that climb to the crate root (counting inline
//! `mod name { … }` blocks). `src/main.rs` belongs to the binary, which may use everything, so it
//! is skipped.

use std::fs;
use std::path::{Path, PathBuf};

/// The layered top-level modules and their layer, lowest first; equal layers are peers.
const LAYERS: [(&str, u8); 9] = [
    ("geom", 1),
    ("scene", 2),
    ("record", 3),
    ("sim", 4),
    ("draw", 5),
    ("export", 6),
    ("validate", 6),
    ("app", 7),
    ("cli", 8),
];

/// Modules (and the crate root `lib`) below every layer: usable by all, using none of the layers
/// (`layers` is this test, `test_rng` the unit tests' random numbers).
const UTILITIES: [&str; 10] = [
    "atomic_file",
    "crash",
    "interrupt",
    "keep_awake",
    "layers",
    "lib",
    "limits",
    "shares",
    "test_rng",
    "workers",
];

/// The order as printed in failure messages.
const ORDER: &str = "geom < scene < record < sim < draw < export/validate < app < cli";

/// The layer of a top-level module: `Some(0)` for a utility, `None` when unknown.
fn layer(module: &str) -> Option<u8> {
    if UTILITIES.contains(&module) {
        return Some(0);
    }
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `text` with comments, string literals and character literals replaced by spaces (newlines
/// kept, so byte offsets and line numbers stay those of the source).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    // Pushes chars[from..to] blanked, keeping each char's byte length.
    let push_blank = |out: &mut String, from: usize, to: usize| {
        for &c in &chars[from..to] {
            let b = blank(c);
            for _ in 0..c.len_utf8() {
                out.push(b);
            }
        }
    };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            let end = chars[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(chars.len(), |p| i + p);
            push_blank(&mut out, i, end);
            i = end;
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            let mut j = i;
            while j < chars.len() {
                if chars[j] == '/' && chars.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if chars[j] == '*' && chars.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            push_blank(&mut out, i, j.min(chars.len()));
            i = j;
        } else if let Some(end) = raw_string_end(&chars, i) {
            push_blank(&mut out, i, end);
            i = end;
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(chars.len());
            push_blank(&mut out, i, end);
            i = end;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{7f}'); otherwise a lifetime or label.
            let end = if next == Some('\\') {
                chars[i + 2..].iter().position(|&c| c == '\'').map(|p| i + 2 + p + 1)
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(end) => {
                    push_blank(&mut out, i, end);
                    i = end;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The end (exclusive) of a raw string literal `r"…"`, `r#"…"#`, `br"…"` starting at `i`.
fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
    let before_ok = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
    let mut j = i;
    if chars.get(j) == Some(&'b') {
        j += 1;
    }
    if !before_ok || chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = chars[j..].iter().take_while(|&&c| c == '#').count();
    j += hashes;
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"' && chars[j + 1..].iter().take(hashes).filter(|&&c| c == '#').count() == hashes {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(chars.len())
}

/// The identifier starting at byte `at` of `code` (empty if none).
fn ident_at(code: &str, at: usize) -> &str {
    let rest = &code[at..];
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The offset after `at` once whitespace is skipped.
fn skip_space(code: &str, at: usize) -> usize {
    at + code[at..].len() - code[at..].trim_start().len()
}

/// True when a path starts at `at`: not inside an identifier and not after another segment.
fn starts_path(code: &str, at: usize) -> bool {
    !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') && !code[..at].trim_end().ends_with("::")
}

/// The top-level modules named by the group `{…}` opening at byte `open`: the first segment of
/// each item at the group's top level.
fn group_heads(code: &str, open: usize) -> Vec<(usize, String)> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expect_head = true;
    let mut i = open;
    while i < code.len() {
        let c = code[i..].chars().next().expect("in bounds");
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    expect_head = true;
                }
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => expect_head = true,
            c if depth == 1 && expect_head && (c.is_alphanumeric() || c == '_') => {
                let name = ident_at(code, i);
                heads.push((i, name.to_string()));
                expect_head = false;
                i += name.len();
                continue;
            }
            _ => {}
        }
        i += c.len_utf8();
    }
    heads
}

/// The module path of a file under `src/` (`src/sim/steer/mod.rs` → `[sim, steer]`).
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .skip(1)
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let file = parts.pop().expect("a file name");
    let stem = file.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// Depth of inline `mod name { … }` blocks enclosing each byte of `code`.
fn inline_mod_depths(code: &str) -> Vec<usize> {
    let mut depths = vec![0; code.len() + 1];
    let mut braces = 0usize;
    let mut open_mods: Vec<usize> = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let word_start = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if word_start && bytes[i..].starts_with(b"mod ") {
            let name_at = skip_space(code, i + 3);
            let name = ident_at(code, name_at);
            let after = skip_space(code, name_at + name.len());
            if !name.is_empty() && code[after..].starts_with('{') {
                braces += 1;
                open_mods.push(braces);
                for d in &mut depths[i..=after] {
                    *d = open_mods.len() - 1;
                }
                i = after + 1;
                continue;
            }
        }
        match bytes[i] {
            b'{' => braces += 1,
            b'}' => {
                if open_mods.last() == Some(&braces) {
                    open_mods.pop();
                }
                braces = braces.saturating_sub(1);
            }
            _ => {}
        }
        depths[i] = open_mods.len();
        i += 1;
    }
    depths
}

/// Every reference of the file at `relative` (with source `text`) to a top-level module:
/// (line number, module name).
fn references(relative: &Path, text: &str) -> Vec<(usize, String)> {
    let code = code_only(text);
    let file_path = module_path(relative);
    let mod_depths = inline_mod_depths(&code);
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    let mut search = 0;
    while let Some(p) = code[search..].find("crate") {
        let at = search + p;
        search = at + "crate".len();
        let after = skip_space(&code, at + "crate".len());
        if !starts_path(&code, at) || ident_at(&code, at) != "crate" || !code[after..].starts_with("::") {
            continue;
        }
        let head = skip_space(&code, after + 2);
        if code[head..].starts_with('{') {
            for (pos, name) in group_heads(&code, head) {
                found.push((line_of(pos), name));
            }
        } else {
            let name = ident_at(&code, head);
            if !name.is_empty() {
                found.push((line_of(head), name.to_string()));
            }
        }
    }
    // `super::super::…` chains that climb out of the top-level module to the crate root.
    let mut search = 0;
    while let Some(p) = code[search..].find("super") {
        let at = search + p;
        search = at + "super".len();
        if !starts_path(&code, at) || ident_at(&code, at) != "super" {
            continue;
        }
        let mut climbs = 0;
        let mut i = at;
        while ident_at(&code, i) == "super" {
            let after = skip_space(&code, i + "super".len());
            if !code[after..].starts_with("::") {
                break;
            }
            climbs += 1;
            i = skip_space(&code, after + 2);
            search = i;
        }
        let depth = file_path.len() + mod_depths[at];
        if climbs == 0 || climbs < depth {
            continue;
        }
        if code[i..].starts_with('{') {
            for (pos, name) in group_heads(&code, i) {
                found.push((line_of(pos), name));
            }
        } else {
            let name = ident_at(&code, i);
            if !name.is_empty() {
                found.push((line_of(i), name.to_string()));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// Why a reference from `from` to `to` breaks the order, if it does.
fn violation(from: &str, to: &str) -> Option<String> {
    if from == to || UTILITIES.contains(&to) {
        return None;
    }
    let Some(to_layer) = layer(to) else {
        return Some(format!(
            "{from} uses crate::{to}, a top-level module the layer test does not know: add it to LAYERS or \
             UTILITIES in src/layers.rs"
        ));
    };
    let from_layer = layer(from).expect("files are grouped by known modules");
    if from_layer == 0 {
        return Some(format!(
            "{from} imports {to}, but the utilities (atomic_file, crash, limits, lib.rs) may use no layered module ({ORDER})"
        ));
    }
    if to_layer > from_layer {
        return Some(format!("{from} imports {to}, against {ORDER}"));
    }
    if to_layer == from_layer {
        return Some(format!("{from} imports {to}, its peer, against {ORDER}"));
    }
    None
}

#[test]
fn top_level_modules_import_only_lower_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(
        files.len() > 50,
        "expected the crate's sources under {}",
        root.display()
    );
    let mut problems = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(root).expect("under the crate root");
        let shown = relative.to_string_lossy().replace('\\', "/");
        if shown == "src/main.rs" {
            continue;
        }
        let path = module_path(relative);
        let from = path.first().map_or("lib", String::as_str).to_string();
        assert!(layer(&from).is_some(), "{shown}: unknown top-level module {from}");
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("reading {shown}: {e}"));
        let lines: Vec<&str> = text.lines().collect();
        for (line, to) in references(relative, &text) {
            let Some(why) = violation(&from, &to) else {
                continue;
            };
            let source = lines.get(line - 1).map_or("", |l| l.trim());
            problems.push(format!("{shown}:{line}: {why}\n    {source}"));
        }
    }
    assert!(
        problems.is_empty(),
        "{} layer violation(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn references_are_found_in_every_form() {
    let file = Path::new("src/scene/steering/mod.rs");
    let text = "use crate::sim::X;\n\
                use crate::{geom::Y, draw::{Z, W}, record};\n\
                // crate::app in a comment\n\
                let s = \"crate::cli in a string\"; let c = '{';\n\
                use super::super::export::V;\n\
                use super::Local;\n\
                mod tests { use super::super::super::validate::Q; }\n";
    let found: Vec<(usize, String)> = references(file, text);
    let names: Vec<(usize, &str)> = found.iter().map(|(l, n)| (*l, n.as_str())).collect();
    assert_eq!(
        names,
        [
            (1, "sim"),
            (2, "draw"),
            (2, "geom"),
            (2, "record"),
            (5, "export"),
            (7, "validate")
        ]
    );
    assert!(
        violation("scene", "sim")
            .unwrap()
            .starts_with("scene imports sim, against geom < scene")
    );
    assert!(violation("validate", "export").is_some() && violation("export", "app").is_some());
    assert!(violation("app", "validate").is_none() && violation("app", "export").is_none());
    assert!(violation("sim", "scene").is_none() && violation("cli", "app").is_none());
    assert!(violation("crash", "geom").is_some() && violation("sim", "atomic_file").is_none());
}
