//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::PathBuf;

use quick_xml::events::Event;

/// Path of a file under tests/data.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// The structure of an XML document modulo formatting: one line per start tag (name and
/// attributes in order), text and end tag; comments and whitespace dropped, `<a/>` = `<a></a>`.
pub fn canonical_xml(text: &str) -> Vec<String> {
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let mut out = Vec::new();
    let start = |e: &quick_xml::events::BytesStart| {
        let attrs: Vec<String> = e
            .attributes()
            .map(|a| {
                let a = a.unwrap();
                format!(
                    "{}={}",
                    String::from_utf8_lossy(a.key.as_ref()),
                    a.unescape_value().unwrap()
                )
            })
            .collect();
        format!("<{} {}>", String::from_utf8_lossy(e.name().as_ref()), attrs.join(" "))
    };
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) => out.push(start(&e)),
            Event::Empty(e) => {
                out.push(start(&e));
                out.push(format!("</{}>", String::from_utf8_lossy(e.name().as_ref())));
            }
            Event::End(e) => out.push(format!("</{}>", String::from_utf8_lossy(e.name().as_ref()))),
            Event::Text(t) => {
                let t = t.decode().unwrap();
                if !t.trim().is_empty() {
                    out.push(t.trim().to_string());
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    out
}
