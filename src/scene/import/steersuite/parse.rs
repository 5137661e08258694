//! Reading a `<SteerBenchTestCase>` document into plain records (still in SteerSuite's 3-D
//! coordinates projected to the ground: x stays x, z becomes y).

use glam::Vec2;

use crate::limits::MAX_REGION_ITEMS;

use super::super::xml_tree::Element;
use super::super::{ImportError, Report};

/// An axis-aligned rectangle on the ground plane (x–z mapped to x–y).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Lower corner.
    pub min: Vec2,
    /// Upper corner.
    pub max: Vec2,
}

/// A ground-plane vector, or `None` for `<random>true</random>`.
pub type MaybeRandom = Option<Vec2>;

/// What a goal asks of an agent.
#[derive(Clone, Debug, PartialEq)]
pub enum GoalKind {
    /// Walk to a point.
    Seek(MaybeRandom),
    /// Walk into an axis-aligned box (`seekAxisAlignedBoxRegion`).
    SeekBox(Rect),
    /// Walk away from a point.
    Flee(MaybeRandom),
    /// Walk in a direction.
    Flow(MaybeRandom),
    /// Stand still.
    Idle,
    /// A goal type crowdlab cannot represent (element name).
    Unsupported(String),
}

/// One goal of a goal sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct RawGoal {
    /// What to do.
    pub kind: GoalKind,
    /// `desiredSpeed`, if given.
    pub desired_speed: Option<f32>,
    /// `timeDuration` (s), if given.
    pub time_duration: Option<f32>,
    /// Line of the goal element.
    pub line: usize,
}

/// An `<agent>` or `<agentRegion>` template.
#[derive(Clone, Debug, PartialEq)]
pub struct RawAgent {
    /// `<name>`, if given.
    pub name: Option<String>,
    /// Body radius.
    pub radius: f32,
    /// Start position; `None` = random within `region`.
    pub position: MaybeRandom,
    /// Initial facing; `None` = random.
    pub direction: MaybeRandom,
    /// Initial speed.
    pub speed: f32,
    /// The goal sequence.
    pub goals: Vec<RawGoal>,
    /// Where random positions are drawn (the region, or the world bounds).
    pub region: Rect,
    /// How many agents this template makes (1 for `<agent>` and `<agentEmitter>`).
    pub count: u32,
    /// An `<agentEmitter>`: its agent appears through a spawn group.
    pub emitter: bool,
    /// Line of the element.
    pub line: usize,
}

/// Reads a child's text as a number.
pub fn number(e: &Element, report: &Report) -> Result<f32, ImportError> {
    report.number(&e.text, e.line, &format!("<{}>", e.name))
}

/// Reads `<xmin>…<zmax>` bounds (y is height and ignored). A min above its max is swapped
/// with a warning, as SteerSuite accepts such bounds (several of its own cases have them).
pub fn bounds(e: &Element, report: &mut Report) -> Result<Rect, ImportError> {
    let get = |name: &str| {
        e.child(name)
            .ok_or_else(|| report.bad(e.line, format!("<{}> needs <{name}>", e.name)))
            .and_then(|c| number(c, report))
    };
    let (a, b) = (
        Vec2::new(get("xmin")?, get("zmin")?),
        Vec2::new(get("xmax")?, get("zmax")?),
    );
    let rect = Rect {
        min: a.min(b),
        max: a.max(b),
    };
    if rect.min != a {
        report.warn_kind(
            e.line,
            "bounds with min above max swapped",
            format!(
                "<{}> has min above max (x {}..{}, z {}..{}); swapped to x {}..{}, z {}..{}",
                e.name, a.x, b.x, a.y, b.y, rect.min.x, rect.max.x, rect.min.y, rect.max.y
            ),
        );
    }
    Ok(rect)
}

/// Reads an `<x><y><z>` tuple as a ground vector (x, z), or `None` for `<random>true</random>`.
pub fn xyz_or_random(e: &Element, report: &Report) -> Result<MaybeRandom, ImportError> {
    if e.child("random").is_some_and(|r| r.text == "true") {
        return Ok(None);
    }
    let get = |name: &str| {
        e.child(name)
            .ok_or_else(|| {
                report.bad(
                    e.line,
                    format!("<{}> needs <x>, <y> and <z> or <random>true</random>", e.name),
                )
            })
            .and_then(|c| number(c, report))
    };
    Ok(Some(Vec2::new(get("x")?, get("z")?)))
}

fn goal(e: &Element, report: &mut Report) -> Result<RawGoal, ImportError> {
    let random = e.child("random").is_some_and(|r| r.text == "true");
    let vector = |name: &str, report: &Report| -> Result<MaybeRandom, ImportError> {
        match e.child(name) {
            _ if random => Ok(None),
            Some(c) => xyz_or_random(c, report),
            None => Err(report.bad(e.line, format!("<{}> needs <{name}>", e.name))),
        }
    };
    let kind = match e.name.as_str() {
        "seekStaticTarget" => GoalKind::Seek(vector("targetLocation", report)?),
        "seekAxisAlignedBoxRegion" => match e.child("goalRegionBounds") {
            Some(b) => GoalKind::SeekBox(bounds(b, report)?),
            None => GoalKind::Seek(vector("targetLocation", report)?),
        },
        "fleeStaticTarget" => GoalKind::Flee(vector("targetLocation", report)?),
        "flowStaticDirection" => GoalKind::Flow(vector("targetDirection", report)?),
        "idle" => GoalKind::Idle,
        other => GoalKind::Unsupported(other.to_string()),
    };
    let mut desired_speed = None;
    let mut time_duration = None;
    for c in &e.children {
        match c.name.as_str() {
            "desiredSpeed" => desired_speed = Some(number(c, report)?),
            "timeDuration" => time_duration = Some(number(c, report)?),
            "targetLocation" | "targetDirection" | "random" | "goalRegionBounds" => {}
            _ if matches!(kind, GoalKind::Unsupported(_)) => {}
            other => report.warn(
                c.line,
                format!("<{other}> inside <{}> is not supported; skipped", e.name),
            ),
        }
    }
    if let Some(s) = desired_speed.filter(|s| *s <= 0.0) {
        return Err(report.bad(e.line, format!("desiredSpeed {s} must be greater than 0")));
    }
    if let Some(d) = time_duration.filter(|d| *d < 0.0) {
        return Err(report.bad(e.line, format!("timeDuration {d} must be at least 0")));
    }
    Ok(RawGoal {
        kind,
        desired_speed,
        time_duration,
        line: e.line,
    })
}

/// Reads an `<agent>` or `<agentEmitter>` (`region` = world bounds) or an `<agentRegion>`.
pub fn agent(e: &Element, world: Rect, report: &mut Report) -> Result<RawAgent, ImportError> {
    let mut raw = RawAgent {
        name: None,
        radius: 0.5,
        position: None,
        direction: Some(Vec2::X),
        speed: 0.0,
        goals: Vec::new(),
        region: world,
        count: 1,
        emitter: e.name == "agentEmitter",
        line: e.line,
    };
    let is_region = e.name == "agentRegion";
    let mut has_position = is_region;
    for c in &e.children {
        match c.name.as_str() {
            "name" if !is_region => raw.name = Some(c.text.clone()),
            "numAgents" if is_region => {
                raw.count = c.text.parse().ok().filter(|&n| n <= MAX_REGION_ITEMS).ok_or_else(|| {
                    report.bad(
                        c.line,
                        format!("numAgents {:?} is not a count from 0 to {MAX_REGION_ITEMS}", c.text),
                    )
                })?
            }
            "regionBounds" if is_region => raw.region = bounds(c, report)?,
            "initialConditions" => {
                for ic in &c.children {
                    match ic.name.as_str() {
                        "radius" => raw.radius = number(ic, report)?,
                        "position" if !is_region => {
                            raw.position = xyz_or_random(ic, report)?;
                            has_position = true;
                        }
                        "direction" => raw.direction = xyz_or_random(ic, report)?,
                        "speed" => raw.speed = number(ic, report)?,
                        other => report.warn(
                            ic.line,
                            format!("<{other}> of <initialConditions> is not supported; skipped"),
                        ),
                    }
                }
            }
            "goalSequence" => {
                for g in &c.children {
                    raw.goals.push(goal(g, report)?);
                }
            }
            other => report.warn(
                c.line,
                format!("<{other}> inside <{}> is not supported; skipped", e.name),
            ),
        }
    }
    if !has_position {
        return Err(report.bad(e.line, format!("<{}> needs <initialConditions><position>", e.name)));
    }
    if raw.radius <= 0.0 {
        return Err(report.bad(e.line, format!("radius {} must be greater than 0", raw.radius)));
    }
    Ok(raw)
}
