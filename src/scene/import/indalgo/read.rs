//! Reading the two IndAlgoTest documents (reference 004 §4.4 (a), (b)) into plain records.

use glam::Vec2;

use super::super::xml_tree::Element;
use super::super::{ImportError, Report};

/// Whether an element is an agent or a non-reactive obstacle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `<pedestrian>`: an interactive agent.
    Pedestrian,
    /// `<obstacle>`: a circle moving with constant velocity.
    Obstacle,
}

impl Kind {
    fn of(name: &str) -> Option<Kind> {
        match name {
            "pedestrian" => Some(Kind::Pedestrian),
            "obstacle" => Some(Kind::Obstacle),
            _ => None,
        }
    }

    /// The element name.
    pub fn tag(self) -> &'static str {
        match self {
            Kind::Pedestrian => "pedestrian",
            Kind::Obstacle => "obstacle",
        }
    }
}

/// One element of an `.iascene`.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneElement {
    /// Pedestrian or obstacle.
    pub kind: Kind,
    /// Element index (shared by pedestrians and obstacles).
    pub index: u32,
    /// Circle radius.
    pub radius: f32,
    /// Initial position.
    pub location: Vec2,
    /// Initial velocity (an obstacle's constant velocity).
    pub velocity: Vec2,
    /// A pedestrian's waypoints in order.
    pub targets: Vec<Vec2>,
    /// Line of the element.
    pub line: usize,
}

/// One element of an `.iaconf`.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigEntry {
    /// Pedestrian or obstacle.
    pub kind: Kind,
    /// Index of the scene element it configures.
    pub index: u32,
    /// A pedestrian's reaction distance.
    pub react_distance: Option<f32>,
    /// A pedestrian's preferred speed.
    pub speed: Option<f32>,
    /// Active time span `(start, end)` in seconds.
    pub time_span: Option<(f32, f32)>,
    /// Line of the element.
    pub line: usize,
}

fn expect_root(root: &Element, name: &str, report: &Report) -> Result<(), ImportError> {
    if root.name == name {
        Ok(())
    } else {
        Err(report.bad(
            root.line,
            format!("root element <{}> found, <{name}> expected", root.name),
        ))
    }
}

/// The element children of the single `<obstacles>` list, warning about anything else.
fn listed<'a>(root: &'a Element, report: &mut Report) -> Vec<&'a Element> {
    let mut out = Vec::new();
    for child in &root.children {
        if child.name == "obstacles" {
            out.extend(child.children.iter());
        } else {
            report.warn(
                child.line,
                format!("<{}> is not part of the format; skipped", child.name),
            );
        }
    }
    out
}

fn index_of(e: &Element, report: &Report) -> Result<u32, ImportError> {
    let value = e
        .attribute("index")
        .ok_or_else(|| report.bad(e.line, format!("<{}> has no index attribute", e.name)))?;
    value
        .trim()
        .parse()
        .map_err(|_| report.bad(e.line, format!("index {value:?} is not a non-negative integer")))
}

fn number_attribute(e: &Element, name: &str, report: &Report) -> Result<Option<f32>, ImportError> {
    e.attribute(name)
        .map(|v| report.number(v, e.line, &format!("<{}> {name}", e.name)))
        .transpose()
}

fn point(e: &Element, report: &Report) -> Result<Vec2, ImportError> {
    let coordinate = |axis: &str| {
        number_attribute(e, axis, report)?
            .ok_or_else(|| report.bad(e.line, format!("<{}> has no {axis} attribute", e.name)))
    };
    Ok(Vec2::new(coordinate("x")?, coordinate("y")?))
}

fn warn_unknown_attributes(e: &Element, known: &[&str], report: &mut Report) {
    for (name, value) in &e.attributes {
        if !known.contains(&name.as_str()) {
            report.warn(
                e.line,
                format!("attribute {name}=\"{value}\" of <{}> is unknown; skipped", e.name),
            );
        }
    }
}

/// Reads the elements of an `.iascene` document.
pub fn read_scene(root: &Element, report: &mut Report) -> Result<Vec<SceneElement>, ImportError> {
    expect_root(root, "indAlgoConf", report)?;
    let mut elements = Vec::new();
    for e in listed(root, report) {
        let Some(kind) = Kind::of(&e.name) else {
            report.warn(e.line, format!("<{}> is not a pedestrian or obstacle; skipped", e.name));
            continue;
        };
        warn_unknown_attributes(e, &["index", "radius"], report);
        let radius = number_attribute(e, "radius", report)?
            .ok_or_else(|| report.bad(e.line, format!("<{}> has no radius attribute", e.name)))?;
        if radius <= 0.0 {
            return Err(report.bad(e.line, format!("radius {radius} must be greater than 0")));
        }
        let mut element = SceneElement {
            kind,
            index: index_of(e, report)?,
            radius,
            location: Vec2::ZERO,
            velocity: Vec2::ZERO,
            targets: Vec::new(),
            line: e.line,
        };
        let mut has_location = false;
        for c in &e.children {
            match c.name.as_str() {
                "location" => {
                    element.location = point(c, report)?;
                    has_location = true;
                }
                "velocity" => element.velocity = point(c, report)?,
                "targets" if kind == Kind::Pedestrian => {
                    for t in &c.children {
                        if t.name == "target" {
                            element.targets.push(point(t, report)?);
                        } else {
                            report.warn(t.line, format!("<{}> inside <targets> is unknown; skipped", t.name));
                        }
                    }
                }
                other => report.warn(c.line, format!("<{other}> inside <{}> is unknown; skipped", e.name)),
            }
        }
        if !has_location {
            return Err(report.bad(
                e.line,
                format!("<{}> index {} has no <location>", e.name, element.index),
            ));
        }
        elements.push(element);
    }
    Ok(elements)
}

/// Reads the entries of an `.iaconf` document.
pub fn read_config(root: &Element, report: &mut Report) -> Result<Vec<ConfigEntry>, ImportError> {
    expect_root(root, "indAlgoConfiguration", report)?;
    let mut entries = Vec::new();
    for e in listed(root, report) {
        let Some(kind) = Kind::of(&e.name) else {
            report.warn(e.line, format!("<{}> is not a pedestrian or obstacle; skipped", e.name));
            continue;
        };
        let known: &[&str] = match kind {
            Kind::Pedestrian => &["index", "reactDistance", "speed"],
            Kind::Obstacle => &["index"],
        };
        warn_unknown_attributes(e, known, report);
        let mut entry = ConfigEntry {
            kind,
            index: index_of(e, report)?,
            react_distance: None,
            speed: None,
            time_span: None,
            line: e.line,
        };
        if kind == Kind::Pedestrian {
            entry.react_distance = number_attribute(e, "reactDistance", report)?;
            entry.speed = number_attribute(e, "speed", report)?;
            if let Some(speed) = entry.speed.filter(|s| *s <= 0.0) {
                return Err(report.bad(e.line, format!("speed {speed} must be greater than 0")));
            }
        }
        for c in &e.children {
            if c.name == "timeSpan" {
                let get = |name: &str| {
                    number_attribute(c, name, report)?
                        .ok_or_else(|| report.bad(c.line, format!("<timeSpan> has no {name} attribute")))
                };
                let (start, end) = (get("start")?, get("end")?);
                if !(start >= 0.0 && end > start) {
                    return Err(report.bad(
                        c.line,
                        format!("timeSpan start {start} end {end}: need 0 <= start < end"),
                    ));
                }
                entry.time_span = Some((start, end));
            } else {
                report.warn(c.line, format!("<{}> inside <{}> is unknown; skipped", c.name, e.name));
            }
        }
        entries.push(entry);
    }
    Ok(entries)
}
