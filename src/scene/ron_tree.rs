//! A RON document as a tree of groups and atoms that keeps what serde forgets: the comments,
//! whether each group was written on one line, and the order of the fields. Saving uses it to
//! write a scene the way its author laid it out (see `save_format`).

use std::fmt::Write as _;

/// A value: a token (number, string, identifier, unit variant) or a bracketed group.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// One token, exactly as written, e.g. `1.5`, `"walker"`, `Remove`, `None`.
    Atom(String),
    /// A struct, tuple, list, map or named variant.
    Group(Group),
}

/// A bracketed group, optionally named: `Wall(a: …, b: …)`, `(x, y)`, `[…]`, `{…}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The struct or variant name before the opening bracket.
    pub name: Option<String>,
    /// The opening bracket: `(`, `[` or `{`.
    pub open: char,
    /// The fields or elements, in document order.
    pub items: Vec<Item>,
    /// How the group is to be laid out: `Some(true)` on one line, `Some(false)` one item per
    /// line, `None` by width. Parsing records what the text did (empty groups say `None`).
    pub one_line: Option<bool>,
    /// Comments after the last item, before the closing bracket.
    pub closing_comments: Vec<String>,
}

/// A field (`key: value`) or an element (`value`) of a group, with its comments.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// The field name, or the map key as written; `None` for list and tuple elements.
    pub key: Option<String>,
    /// The value.
    pub value: Value,
    /// Whole-line comments just above the item, each with its `//` or `/* */`.
    pub comments: Vec<String>,
    /// A comment that followed the item on its own line.
    pub trailing: Option<String>,
}

/// Where and why RON text could not be read as a tree.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeError {
    /// 1-based line of the offending character.
    pub line: usize,
    /// What was expected.
    pub message: String,
}

impl Group {
    /// The group's field called `key`.
    pub fn field(&self, key: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.key.as_deref() == Some(key))
    }

    /// True when the group is a list (`[…]`), whose elements are interchangeable.
    pub fn is_list(&self) -> bool {
        self.open == '['
    }

    /// The group on one line without comments (see [`Value::one_line`]).
    pub fn one_line(&self) -> String {
        let mut out = String::new();
        write_group_one_line(self, &mut out);
        out
    }

    /// A copy of the group's name, bracket and layout holding `items` instead of its own.
    pub fn with_items(&self, items: Vec<Item>) -> Group {
        Group {
            name: self.name.clone(),
            open: self.open,
            items,
            one_line: self.one_line,
            closing_comments: Vec::new(),
        }
    }
}

impl Value {
    /// The value as a group, if it is one.
    pub fn group(&self) -> Option<&Group> {
        match self {
            Value::Group(g) => Some(g),
            Value::Atom(_) => None,
        }
    }

    /// The value on one line without comments, in the spacing `ron` uses when pretty-printing.
    pub fn one_line(&self) -> String {
        let mut out = String::new();
        write_one_line(self, &mut out);
        out
    }
}

/// Reads RON text into a tree. Extensions lines (`#![enable(…)]`) are not supported.
pub fn parse(text: &str) -> Result<Value, TreeError> {
    let mut parser = Parser {
        tokens: tokenize(text)?,
        at: 0,
    };
    let _ = parser.comments();
    let value = parser.value()?;
    let _ = parser.comments();
    match parser.peek() {
        None => Ok(value),
        Some(t) => Err(t.error("end of document")),
    }
}

/// Writes a tree as text: groups marked one-line (or fitting in `width` columns when unmarked)
/// on one line, the others one item per line with a trailing comma, indented by two spaces.
pub fn print(value: &Value, width: usize) -> String {
    let mut out = String::new();
    write_value(value, 0, width, &mut out);
    out.push('\n');
    out
}

/// True when `group` (with no layout mark) should go on one line: it has no comments, no group
/// inside must be broken, and a list holds no structs (lists of records read best one per line).
fn may_be_one_line(group: &Group) -> bool {
    if group.one_line == Some(false) || !group.closing_comments.is_empty() {
        return false;
    }
    let holds_records = group.is_list() && group.items.iter().any(|i| is_record(&i.value));
    !holds_records
        && group.items.iter().all(|i| {
            i.comments.is_empty()
                && i.trailing.is_none()
                && i.value
                    .group()
                    .is_none_or(|g| g.one_line == Some(true) || may_be_one_line(g))
        })
}

/// True for a value with named fields, such as a struct or `Wall(a: …, b: …)`.
fn is_record(value: &Value) -> bool {
    value.group().is_some_and(|g| g.items.iter().any(|i| i.key.is_some()))
}

fn write_value(value: &Value, indent: usize, width: usize, out: &mut String) {
    let Value::Group(group) = value else {
        write_one_line(value, out);
        return;
    };
    let column = out.len() - out.rfind('\n').map_or(0, |i| i + 1);
    let flat = if indent == 0 {
        false
    } else {
        match group.one_line {
            Some(mark) => mark,
            None => may_be_one_line(group) && column + group.one_line().len() < width,
        }
    };
    if flat || group.items.is_empty() && group.closing_comments.is_empty() {
        write_one_line(value, out);
        return;
    }
    if let Some(inner) = wrapped(group) {
        out.push_str(group.name.as_deref().unwrap_or(""));
        out.push(group.open);
        write_value(inner, indent, width, out);
        out.push(closing(group.open));
        return;
    }
    let pad = "  ".repeat(indent + 1);
    out.push_str(group.name.as_deref().unwrap_or(""));
    out.push(group.open);
    out.push('\n');
    for item in &group.items {
        for comment in &item.comments {
            let _ = writeln!(out, "{pad}{comment}");
        }
        out.push_str(&pad);
        if let Some(key) = &item.key {
            let _ = write!(out, "{key}: ");
        }
        write_value(&item.value, indent + 1, width, out);
        out.push(',');
        if let Some(comment) = &item.trailing {
            let _ = write!(out, " {comment}");
        }
        out.push('\n');
    }
    for comment in &group.closing_comments {
        let _ = writeln!(out, "{pad}{comment}");
    }
    out.push_str(&"  ".repeat(indent));
    out.push(closing(group.open));
}

/// The group inside a newtype wrapper such as `Orca((…))` or `Some((…))`, which is broken
/// as `Orca((` … `))` without a level of its own.
fn wrapped(group: &Group) -> Option<&Value> {
    group.name.as_ref()?;
    match group.items.as_slice() {
        [item] if item.key.is_none() && item.comments.is_empty() && item.trailing.is_none() => {
            item.value.group().filter(|g| g.open == '(')?;
            group.closing_comments.is_empty().then_some(&item.value)
        }
        _ => None,
    }
}

fn write_one_line(value: &Value, out: &mut String) {
    match value {
        Value::Atom(text) => out.push_str(text),
        Value::Group(group) => write_group_one_line(group, out),
    }
}

fn write_group_one_line(group: &Group, out: &mut String) {
    out.push_str(group.name.as_deref().unwrap_or(""));
    out.push(group.open);
    for (n, item) in group.items.iter().enumerate() {
        if n > 0 {
            out.push_str(", ");
        }
        if let Some(key) = &item.key {
            let _ = write!(out, "{key}: ");
        }
        write_one_line(&item.value, out);
    }
    out.push(closing(group.open));
}

fn closing(open: char) -> char {
    match open {
        '(' => ')',
        '[' => ']',
        _ => '}',
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Open(char),
    Close(char),
    Comma,
    Colon,
    Comment,
    Atom,
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    text: String,
    line: usize,
}

impl Token {
    fn error(&self, expected: &str) -> TreeError {
        TreeError {
            line: self.line,
            message: format!("expected {expected}, found `{}`", self.text),
        }
    }
}

fn tokenize(text: &str) -> Result<Vec<Token>, TreeError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let (mut at, mut line) = (0, 1);
    while at < chars.len() {
        let c = chars[at];
        let start = at;
        let start_line = line;
        let kind = match c {
            '\n' => {
                line += 1;
                at += 1;
                continue;
            }
            c if c.is_whitespace() => {
                at += 1;
                continue;
            }
            '(' | '[' | '{' => {
                at += 1;
                Kind::Open(c)
            }
            ')' | ']' | '}' => {
                at += 1;
                Kind::Close(c)
            }
            ',' => {
                at += 1;
                Kind::Comma
            }
            ':' => {
                at += 1;
                Kind::Colon
            }
            '/' if chars.get(at + 1) == Some(&'/') => {
                while at < chars.len() && chars[at] != '\n' {
                    at += 1;
                }
                Kind::Comment
            }
            '/' if chars.get(at + 1) == Some(&'*') => {
                at = block_comment_end(&chars, at).ok_or_else(|| unclosed(start_line, "comment"))?;
                line += chars[start..at].iter().filter(|&&c| c == '\n').count();
                Kind::Comment
            }
            '"' | '\'' => {
                at = quoted_end(&chars, at).ok_or_else(|| unclosed(start_line, "string"))?;
                line += chars[start..at].iter().filter(|&&c| c == '\n').count();
                Kind::Atom
            }
            'r' if starts_raw_string(&chars, at) => {
                at = raw_string_end(&chars, at).ok_or_else(|| unclosed(start_line, "raw string"))?;
                line += chars[start..at].iter().filter(|&&c| c == '\n').count();
                Kind::Atom
            }
            _ => {
                while at < chars.len() && !is_delimiter(&chars, at) {
                    at += 1;
                }
                Kind::Atom
            }
        };
        tokens.push(Token {
            kind,
            text: chars[start..at].iter().collect(),
            line: start_line,
        });
    }
    Ok(tokens)
}

fn unclosed(line: usize, what: &str) -> TreeError {
    TreeError {
        line,
        message: format!("unclosed {what}"),
    }
}

fn is_delimiter(chars: &[char], at: usize) -> bool {
    let c = chars[at];
    c.is_whitespace() || "()[]{},:\"".contains(c) || (c == '/' && matches!(chars.get(at + 1), Some('/' | '*')))
}

/// One past the end of the (nestable) block comment starting at `at`.
fn block_comment_end(chars: &[char], mut at: usize) -> Option<usize> {
    let mut depth = 0;
    while at + 1 < chars.len() {
        match (chars[at], chars[at + 1]) {
            ('/', '*') => {
                depth += 1;
                at += 2;
            }
            ('*', '/') => {
                depth -= 1;
                at += 2;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => at += 1,
        }
    }
    None
}

/// One past the closing quote of the string or character starting at `at`.
fn quoted_end(chars: &[char], at: usize) -> Option<usize> {
    let quote = chars[at];
    let mut i = at + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            c if c == quote => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// True when `r` at `at` opens a raw string (`r"…"`, `r#"…"#`) rather than a raw identifier
/// (`r#None`).
fn starts_raw_string(chars: &[char], at: usize) -> bool {
    let hashes = chars[at + 1..].iter().take_while(|&&c| c == '#').count();
    chars.get(at + 1 + hashes) == Some(&'"')
}

/// One past the end of the raw string `r#"…"#` starting at `at`.
fn raw_string_end(chars: &[char], at: usize) -> Option<usize> {
    let hashes = chars[at + 1..].iter().take_while(|&&c| c == '#').count();
    let mut i = at + 2 + hashes;
    while i < chars.len() {
        if chars[i] == '"' && chars[i + 1..].iter().take(hashes).filter(|&&c| c == '#').count() == hashes {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    None
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Result<Token, TreeError> {
        let token = self.tokens.get(self.at).cloned().ok_or_else(|| TreeError {
            line: self.tokens.last().map_or(1, |t| t.line),
            message: "unexpected end of document".into(),
        })?;
        self.at += 1;
        Ok(token)
    }

    fn comments(&mut self) -> Vec<String> {
        let mut found = Vec::new();
        while let Some(t) = self.peek().filter(|t| t.kind == Kind::Comment) {
            found.push(t.text.trim_end().to_string());
            self.at += 1;
        }
        found
    }

    fn value(&mut self) -> Result<Value, TreeError> {
        let token = self.next()?;
        match token.kind {
            Kind::Open(open) => self.group(None, open, token.line),
            Kind::Atom => match self.peek() {
                Some(Token {
                    kind: Kind::Open('('),
                    line,
                    ..
                }) => {
                    let line = *line;
                    self.at += 1;
                    self.group(Some(token.text), '(', line)
                }
                _ => Ok(Value::Atom(token.text)),
            },
            _ => Err(token.error("a value")),
        }
    }

    fn group(&mut self, name: Option<String>, open: char, open_line: usize) -> Result<Value, TreeError> {
        let mut items = Vec::new();
        loop {
            let comments = self.comments();
            let token = self.peek().cloned().ok_or_else(|| unclosed(open_line, "bracket"))?;
            if token.kind == Kind::Close(closing(open)) {
                self.at += 1;
                let one_line = (!items.is_empty()).then_some(token.line == open_line);
                return Ok(Value::Group(Group {
                    name,
                    open,
                    items,
                    one_line,
                    closing_comments: comments,
                }));
            }
            let mut item = self.item()?;
            item.comments = comments;
            let end_line = self.tokens[self.at - 1].line;
            match self.peek().map(|t| &t.kind) {
                Some(Kind::Comma) => self.at += 1,
                Some(Kind::Close(_)) | Some(Kind::Comment) => {}
                _ => return Err(self.next()?.error("`,` or a closing bracket")),
            }
            if let Some(t) = self.peek().filter(|t| t.kind == Kind::Comment && t.line == end_line) {
                item.trailing = Some(t.text.trim_end().to_string());
                self.at += 1;
            }
            items.push(item);
        }
    }

    fn item(&mut self) -> Result<Item, TreeError> {
        let first = self.value()?;
        let keyed = matches!(first, Value::Atom(_)) && self.peek().is_some_and(|t| t.kind == Kind::Colon);
        let (key, value) = match first {
            Value::Atom(key) if keyed => {
                self.at += 1;
                (Some(key), self.value()?)
            }
            value => (None, value),
        };
        Ok(Item {
            key,
            value,
            comments: Vec::new(),
            trailing: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "(
  name: \"a, b\", // the name
  // the box
  bounds: (min: (0.0, -1.5), max: (2.0, 3.0)),
  list: [
    Wall(a: (0.0, 0.0), b: (1.0, 0.0)),
    /* a disc */
    Circle(center: (2.0, 2.0), radius: 0.5),
  ],
  empty: [],
  kind: Grid(
    cell_size: 2.0,
  ),
  method: Orca((
    horizon: 2.0,
  )),
  // the end
)
";

    #[test]
    fn a_document_prints_back_exactly_as_it_was_laid_out() {
        let tree = parse(DOC).unwrap();
        assert_eq!(print(&tree, 100), DOC);
        let root = tree.group().unwrap();
        assert_eq!(root.field("name").unwrap().trailing.as_deref(), Some("// the name"));
        assert_eq!(root.field("bounds").unwrap().comments, ["// the box"]);
        assert_eq!(root.closing_comments, ["// the end"]);
        let list = root.field("list").unwrap().value.group().unwrap();
        assert_eq!(list.items[1].comments, ["/* a disc */"]);
        assert_eq!(list.one_line, Some(false));
    }

    #[test]
    fn unmarked_groups_go_on_one_line_when_they_fit_and_hold_no_records() {
        let tree = parse("(v:[(1.0,2.0),(3.0,4.0)],walls:[Wall(a:(0.0,0.0),b:(1.0,0.0))],s:(a:1,b:2))").unwrap();
        let mut unmarked = tree.clone();
        clear_marks(&mut unmarked);
        let text = print(&unmarked, 100);
        assert_eq!(
            text,
            "(\n  v: [(1.0, 2.0), (3.0, 4.0)],\n  walls: [\n    Wall(a: (0.0, 0.0), b: (1.0, 0.0)),\n  ],\n  s: (a: 1, b: 2),\n)\n"
        );
        assert_eq!(
            print(&unmarked, 12).lines().nth(1),
            Some("  v: ["),
            "too wide for 12 columns"
        );
    }

    fn clear_marks(value: &mut Value) {
        if let Value::Group(g) = value {
            g.one_line = None;
            g.items.iter_mut().for_each(|i| clear_marks(&mut i.value));
        }
    }

    #[test]
    fn strings_with_brackets_and_comment_marks_stay_one_token() {
        let tree = parse(r##"(s: "x // (y]", r: r#"q"#, c: '"', a: r#None)"##).unwrap();
        let root = tree.group().unwrap();
        assert_eq!(root.field("s").unwrap().value, Value::Atom("\"x // (y]\"".into()));
        assert_eq!(root.field("r").unwrap().value, Value::Atom("r#\"q\"#".into()));
        assert_eq!(root.field("c").unwrap().value, Value::Atom("'\"'".into()));
        assert_eq!(root.field("a").unwrap().value, Value::Atom("r#None".into()));
    }

    #[test]
    fn broken_text_names_the_line() {
        let err = parse("(\n  a: 1,\n  b: (2, 3\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(parse("(a: 1) x").is_err());
        assert!(parse("(a: \"open").is_err());
    }
}
