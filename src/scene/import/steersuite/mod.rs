//! SteerSuite test cases (`<SteerBenchTestCase>` XML, reference anchors §4.2).
//!
//! Mapping to crowdlab:
//! - SteerSuite's ground plane is x–z with y up; a point (x, y, z) becomes (x, z). Heights
//!   (y ranges, `obstacleHeight`, `height`) are dropped. A direction (dx, dy, dz) becomes the
//!   heading atan2(dz, dx). `thetaY` turns a box as SteerSuite's `rotateInXZPlane` does:
//!   (x, z) → (x cos θ + z sin θ, z cos θ − x sin θ), which is clockwise on crowdlab's plane.
//! - `<header>`: `name` → scene name; `description` and `passingCriteria` → description;
//!   `worldBounds` → bounds.
//! - `<obstacle>` (AABB) and `<orientedBoxObstacle>` → polygons; `<circleObstacle>` → circle;
//!   `<polygonObstacle>` → polygon; `<obstacleRegion>` → `numObstacles` squares of
//!   `obstacleSize` at random positions in `regionBounds`.
//! - `<agent>` and `<agentRegion>` → agents (ids in document order) as described in [`agents`],
//!   walking with ORCA and a route planner as described in [`walking`].
//! - An agent leaves the simulation at its last goal (`on_arrival: Remove`), as SteerSuite
//!   disables it there, so early arrivals do not block the agents behind them.
//! - Everything random is drawn from one `Pcg32` seeded with the scene seed, in document order,
//!   so an import is reproducible.
//! - `<agentEmitter>` → a spawn group (see [`agents`]).
//! - `<suggestedCameraView>`, `<orientedWallObstacle>` and unknown elements
//!   are reported and skipped.

mod agents;
mod goals;
mod parse;
mod walking;

use std::path::Path;

use glam::Vec2;

use crate::limits::MAX_REGION_ITEMS;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

use super::xml_tree::Element;
use super::{ImportError, Report, SourceLines, Warning};
use crate::scene::{ArrivalPolicy, Bounds, Obstacle, Scene};
use parse::{Rect, bounds, number, xyz_or_random};

/// Imports a SteerSuite test case (`text`, read from `file`).
pub fn import_steersuite(text: &str, file: &Path) -> Result<(Scene, Vec<Warning>), ImportError> {
    import_traced(text, file).map(|(scene, warnings, _)| (scene, warnings))
}

/// [`import_steersuite`], also giving the line each agent and obstacle came from.
pub(in crate::scene::import) fn import_traced(
    text: &str,
    file: &Path,
) -> Result<(Scene, Vec<Warning>, SourceLines), ImportError> {
    let mut report = Report::new(file);
    let root = report.parse_xml(text)?;
    if root.name != "SteerBenchTestCase" {
        return Err(report.bad(
            root.line,
            format!("root element <{}> is not <SteerBenchTestCase>", root.name),
        ));
    }
    let mut scene = Scene::empty();
    scene.profiles.clear();
    scene.settings.on_arrival = ArrivalPolicy::Remove;
    scene.description.clear();
    let header = root
        .children
        .first()
        .filter(|h| h.name == "header")
        .ok_or_else(|| report.bad(root.line, "<header> must be the first element of the test case"))?;
    let world = read_header(header, &mut scene, &mut report)?;
    let mut rng = Pcg32::seed_from_u64(scene.settings.seed);
    let mut agent_elements = Vec::new();
    for e in &root.children[1..] {
        match e.name.as_str() {
            "obstacle" => scene.obstacles.push(rectangle(bounds(e, &mut report)?, 0.0)),
            "orientedBoxObstacle" => scene.obstacles.push(oriented_box(e, &report)?),
            "circleObstacle" => scene.obstacles.push(circle(e, &report)?),
            "polygonObstacle" => scene.obstacles.push(polygon(e, &report)?),
            "obstacleRegion" => obstacle_region(e, &mut scene, &mut rng, &mut report)?,
            "agent" | "agentRegion" | "agentEmitter" => agent_elements.push(parse::agent(e, world, &mut report)?),
            "header" => return Err(report.bad(e.line, "a second <header>")),
            other => report.warn(e.line, format!("<{other}> is not supported; skipped")),
        }
        report.lines.obstacles.resize(scene.obstacles.len(), e.line);
    }
    agents::add_agents(&agent_elements, world, &mut scene, &mut rng, &mut report)?;
    walking::walk_like_steersuite(&mut scene);
    Ok((scene, report.warnings, report.lines))
}

fn read_header(header: &Element, scene: &mut Scene, report: &mut Report) -> Result<Rect, ImportError> {
    let mut world = None;
    let mut texts = Vec::new();
    for c in &header.children {
        match c.name.as_str() {
            "version" => {
                if !["1.0", "1.1", "1.2"].contains(&c.text.as_str()) {
                    report.warn(
                        c.line,
                        format!("test case version {:?} is newer than 1.2; read as 1.2", c.text),
                    );
                }
            }
            "name" => scene.name = c.text.clone(),
            "worldBounds" => world = Some(bounds(c, report)?),
            "description" => texts.push(collapse(&c.text)),
            "passingCriteria" => texts.push(format!("Passing criteria: {}", collapse(&c.text))),
            other => report.warn(c.line, format!("<{other}> inside <header> is not supported; skipped")),
        }
    }
    let world = world.ok_or_else(|| report.bad(header.line, "<header> needs <worldBounds>"))?;
    if world.max.x - world.min.x <= 0.0 || world.max.y - world.min.y <= 0.0 {
        return Err(report.bad(header.line, "<worldBounds> must have a positive x and z extent"));
    }
    scene.bounds = Bounds {
        min: world.min,
        max: world.max,
    };
    texts.push("Imported from a SteerSuite test case.".into());
    scene.description = texts.join(" ");
    Ok(world)
}

/// Joins the lines of an indented free-text element with single spaces.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A rectangle polygon, turned by `theta_deg` about its centre as SteerSuite turns boxes.
fn rectangle(r: Rect, theta_deg: f32) -> Obstacle {
    let center = (r.min + r.max) * 0.5;
    let half = (r.max - r.min) * 0.5;
    let vertices = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .into_iter()
        .map(|(sx, sy)| center + rotate_in_xz(Vec2::new(sx * half.x, sy * half.y), theta_deg))
        .collect();
    Obstacle::Polygon { vertices }
}

/// SteerSuite's `rotateInXZPlane` of a ground vector (x, z) by `theta_deg`:
/// (x cos θ + z sin θ, z cos θ − x sin θ).
fn rotate_in_xz(v: Vec2, theta_deg: f32) -> Vec2 {
    let (sin, cos) = theta_deg.to_radians().sin_cos();
    Vec2::new(v.x * cos + v.y * sin, v.y * cos - v.x * sin)
}

fn fixed_point(e: &Element, name: &str, report: &Report) -> Result<Vec2, ImportError> {
    let c = e
        .child(name)
        .ok_or_else(|| report.bad(e.line, format!("<{}> needs <{name}>", e.name)))?;
    xyz_or_random(c, report)?
        .ok_or_else(|| report.bad(c.line, format!("a random <{name}> of <{}> is not supported", e.name)))
}

fn oriented_box(e: &Element, report: &Report) -> Result<Obstacle, ImportError> {
    let center = fixed_point(e, "position", report)?;
    let size = fixed_point(e, "size", report)?;
    let theta = e.child("thetaY").map(|t| number(t, report)).transpose()?.unwrap_or(0.0);
    if size.x <= 0.0 || size.y <= 0.0 {
        return Err(report.bad(e.line, "<orientedBoxObstacle> needs a positive x and z size"));
    }
    Ok(rectangle(
        Rect {
            min: center - size * 0.5,
            max: center + size * 0.5,
        },
        theta,
    ))
}

fn circle(e: &Element, report: &Report) -> Result<Obstacle, ImportError> {
    let center = fixed_point(e, "position", report)?;
    let radius = e
        .child("radius")
        .ok_or_else(|| report.bad(e.line, "<circleObstacle> needs <radius>"))
        .and_then(|r| number(r, report))?;
    if radius <= 0.0 {
        return Err(report.bad(e.line, format!("circle radius {radius} must be greater than 0")));
    }
    Ok(Obstacle::Circle { center, radius })
}

fn polygon(e: &Element, report: &Report) -> Result<Obstacle, ImportError> {
    let vertices = e
        .children
        .iter()
        .filter(|c| c.name == "vertex")
        .map(|c| xyz_or_random(c, report)?.ok_or_else(|| report.bad(c.line, "a random <vertex> is not supported")))
        .collect::<Result<Vec<_>, _>>()?;
    if vertices.len() < 3 {
        return Err(report.bad(e.line, "<polygonObstacle> needs at least three <vertex>"));
    }
    Ok(Obstacle::Polygon { vertices })
}

/// A uniform value in `[lo, hi]` (exactly `lo` when the range is empty).
fn uniform(rng: &mut Pcg32, lo: f32, hi: f32) -> f32 {
    lo + (hi - lo) * rng.random::<f32>()
}

/// A uniform point of `r`.
fn point_in(rng: &mut Pcg32, r: Rect) -> Vec2 {
    Vec2::new(uniform(rng, r.min.x, r.max.x), uniform(rng, r.min.y, r.max.y))
}

fn obstacle_region(e: &Element, scene: &mut Scene, rng: &mut Pcg32, report: &mut Report) -> Result<(), ImportError> {
    let child = |name: &str, report: &Report| {
        e.child(name)
            .ok_or_else(|| report.bad(e.line, format!("<obstacleRegion> needs <{name}>")))
    };
    let count_el = child("numObstacles", report)?;
    let count: u32 = count_el
        .text
        .parse()
        .ok()
        .filter(|&n| n <= MAX_REGION_ITEMS)
        .ok_or_else(|| {
            report.bad(
                count_el.line,
                format!(
                    "numObstacles {:?} is not a count from 0 to {MAX_REGION_ITEMS}",
                    count_el.text
                ),
            )
        })?;
    let size = number(child("obstacleSize", report)?, report)?;
    if size <= 0.0 {
        return Err(report.bad(e.line, format!("obstacleSize {size} must be greater than 0")));
    }
    let region = bounds(child("regionBounds", report)?, report)?;
    let half = Vec2::splat(size * 0.5);
    let centers = Rect {
        min: region.min + half,
        max: (region.max - half).max(region.min + half),
    };
    for _ in 0..count {
        let c = point_in(rng, centers);
        scene.obstacles.push(rectangle(
            Rect {
                min: c - half,
                max: c + half,
            },
            0.0,
        ));
    }
    Ok(())
}
