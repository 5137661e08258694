//! A small element tree read with quick-xml, every element remembering its line, so importers can
//! walk a document and report problems as `file:line`. Comments, declarations and namespaces
//! prefixes are dropped; text is trimmed and unescaped. Nesting depth and attributes per element
//! are limited ([`MAX_XML_DEPTH`], [`MAX_XML_ATTRIBUTES`]) so a crafted document cannot exhaust the
//! stack or take quadratic time.

use quick_xml::events::Event;
use quick_xml::name::QName;

use crate::limits::{MAX_XML_ATTRIBUTES, MAX_XML_DEPTH};

/// One element: local name, attributes in document order, children, trimmed text and line.
#[derive(Clone, Debug, PartialEq)]
pub struct Element {
    /// Local name (namespace prefix removed).
    pub name: String,
    /// Attributes `(local name, unescaped value)` in document order.
    pub attributes: Vec<(String, String)>,
    /// Child elements in document order.
    pub children: Vec<Element>,
    /// Concatenated, trimmed text content.
    pub text: String,
    /// 1-based line of the element's start tag.
    pub line: usize,
}

impl Element {
    /// The value of attribute `name`, if present.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The first child called `name`.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }
}

/// A syntax error at a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XmlError {
    /// 1-based line.
    pub line: usize,
    /// What the parser reported.
    pub message: String,
}

/// Byte offsets of line starts, to turn a parser position into a line number.
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines(starts)
    }

    fn line_of(&self, offset: usize) -> usize {
        self.0.partition_point(|&start| start <= offset)
    }
}

fn local(name: QName) -> String {
    String::from_utf8_lossy(name.local_name().as_ref()).into_owned()
}

fn entity(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => {
            let code = if let Some(hex) = name.strip_prefix("#x") {
                u32::from_str_radix(hex, 16).ok()?
            } else {
                name.strip_prefix('#')?.parse().ok()?
            };
            char::from_u32(code)
        }
    }
}

fn start_element(e: &quick_xml::events::BytesStart, line: usize) -> Result<Element, XmlError> {
    let mut attributes = Vec::new();
    for attr in e.attributes() {
        if attributes.len() == MAX_XML_ATTRIBUTES {
            return Err(XmlError {
                line,
                message: format!("<{}> has more than {MAX_XML_ATTRIBUTES} attributes", local(e.name())),
            });
        }
        let attr = attr.map_err(|err| XmlError {
            line,
            message: err.to_string(),
        })?;
        let value = attr.unescape_value().map_err(|err| XmlError {
            line,
            message: err.to_string(),
        })?;
        attributes.push((local(attr.key), value.into_owned()));
    }
    Ok(Element {
        name: local(e.name()),
        attributes,
        children: Vec::new(),
        text: String::new(),
        line,
    })
}

/// Parses `text` into its root element.
pub fn parse(text: &str) -> Result<Element, XmlError> {
    let lines = Lines::new(text);
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut stack: Vec<Element> = Vec::new();
    let mut root = None;
    loop {
        let before = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|err| XmlError {
            line: lines.line_of(reader.error_position() as usize),
            message: err.to_string(),
        })?;
        // The start tag's line: skip the whitespace before the event.
        let skipped = text[before.min(text.len())..].len() - text[before.min(text.len())..].trim_start().len();
        let line = lines.line_of(before + skipped);
        let error = |message: String| XmlError { line, message };
        match event {
            Event::Start(e) => {
                if stack.len() == MAX_XML_DEPTH {
                    return Err(error(format!("elements nest deeper than {MAX_XML_DEPTH} levels")));
                }
                stack.push(start_element(&e, line)?)
            }
            Event::Empty(e) => {
                let element = start_element(&e, line)?;
                match stack.last_mut() {
                    Some(parent) => parent.children.push(element),
                    None if root.is_none() => root = Some(element),
                    None => return Err(error("more than one root element".into())),
                }
            }
            Event::End(_) => {
                let mut element = stack.pop().ok_or_else(|| error("unexpected end tag".into()))?;
                element.text = element.text.trim().to_string();
                match stack.last_mut() {
                    Some(parent) => parent.children.push(element),
                    None if root.is_none() => root = Some(element),
                    None => return Err(error("more than one root element".into())),
                }
            }
            Event::Text(t) => {
                if let Some(top) = stack.last_mut() {
                    let s = t.decode().map_err(|err| error(err.to_string()))?;
                    top.text.push_str(&s);
                } else if !t.decode().map_err(|err| error(err.to_string()))?.trim().is_empty() {
                    return Err(error("text outside the root element".into()));
                }
            }
            Event::CData(t) => {
                if let Some(top) = stack.last_mut() {
                    top.text.push_str(&t.decode().map_err(|err| error(err.to_string()))?);
                }
            }
            Event::GeneralRef(r) => {
                let name = r.decode().map_err(|err| error(err.to_string()))?;
                let c = entity(&name).ok_or_else(|| error(format!("unknown entity &{name};")))?;
                if let Some(top) = stack.last_mut() {
                    top.text.push(c);
                }
            }
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
    if let Some(open) = stack.last() {
        return Err(XmlError {
            line: open.line,
            message: format!("<{}> is never closed", open.name),
        });
    }
    root.ok_or(XmlError {
        line: 1,
        message: "no root element".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_lines_attributes_and_text() {
        let doc = "<!-- c -->\n<a xmlns=\"u\" k=\"1 &amp; 2\">\n  <b>x &lt; y</b>\n  <c/>\n</a>\n";
        let root = parse(doc).unwrap();
        assert_eq!(root.name, "a");
        assert_eq!(root.line, 2);
        assert_eq!(root.attribute("k"), Some("1 & 2"));
        assert_eq!(root.children.len(), 2);
        assert_eq!(root.child("b").unwrap().text, "x < y");
        assert_eq!(root.child("b").unwrap().line, 3);
        assert_eq!(root.child("c").unwrap().line, 4);
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse("<a>\n<b>\n</a>").unwrap_err();
        assert!(err.line >= 2, "{err:?}");
        assert_eq!(parse("").unwrap_err().message, "no root element");
    }
}
