//! IndAlgoTest scenes (Brandejský, reference 004 §4.4 (a) `.iascene`, (b) `.iaconf`).
//!
//! Mapping to crowdlab:
//! - `<pedestrian index radius>` → agent with id = index; one profile per distinct (radius,
//!   `.iaconf` speed) named `r{radius}-v{speed}` with the speed as preferred speed (default
//!   1.3 m/s when the pedestrian has no configuration entry). Its `<targets>`: one → a target
//!   `ped{index}` (arrival radius = the pedestrian's radius); several → an open path `ped{index}`
//!   (width = its diameter); none → no goal. The heading points along its initial velocity,
//!   else toward its first target. A non-zero initial velocity is reported (agents start at rest).
//! - `<obstacle index radius>` → a circle, or a moving circle when its velocity is non-zero.
//! - `.iaconf` pedestrian `timeSpan` → the agent's start and end time; `reactDistance`, the
//!   obstacles' element indices and their `timeSpan`s are not simulated by crowdlab (no profile
//!   field for a reaction distance exists yet) and are kept in [`IndAlgoKeep`] so the export back
//!   reproduces them.
//! - Bounds: every position and target with a 2 m margin; duration: 60 s or the latest end time.

mod read;
mod write;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use glam::Vec2;

pub use write::{IndAlgoFiles, export_indalgo, scene_to_indalgo};

use super::{ImportError, ImportProfiles, Report, SourceLines, Warning};
use crate::scene::{Agent, Bounds, Goal, IndAlgoKeep, Obstacle, Path as ScenePath, Profile, Scene, Target};
use read::{ConfigEntry, Kind, SceneElement, read_config, read_scene};

/// Margin (m) added around the imported content to form the scene bounds.
const BOUNDS_MARGIN: f32 = 2.0;

/// Imports an `.iascene` document (`text`, read from `file`) with an optional `.iaconf`
/// `(text, file)` applied on top.
pub fn import_indalgo(
    text: &str,
    file: &Path,
    config: Option<(&str, &Path)>,
) -> Result<(Scene, Vec<Warning>), ImportError> {
    import_traced(text, file, config).map(|(scene, warnings, _)| (scene, warnings))
}

/// [`import_indalgo`], also giving the line each agent and obstacle came from.
pub(in crate::scene::import) fn import_traced(
    text: &str,
    file: &Path,
    config: Option<(&str, &Path)>,
) -> Result<(Scene, Vec<Warning>, SourceLines), ImportError> {
    let mut report = Report::new(file);
    let root = report.parse_xml(text)?;
    let elements = read_scene(&root, &mut report)?;
    check_unique(&elements, &report)?;
    let mut warnings = Vec::new();
    let entries = match config {
        Some((config_text, config_file)) => {
            let mut config_report = Report::new(config_file);
            let root = config_report.parse_xml(config_text)?;
            let entries = read_config(&root, &mut config_report)?;
            let present: HashSet<(u32, Kind)> = elements.iter().map(|s| (s.index, s.kind)).collect();
            for e in &entries {
                if !present.contains(&(e.index, e.kind)) {
                    config_report.warn(
                        e.line,
                        format!(
                            "<{}> index {} has no such element in the scene; skipped",
                            e.kind.tag(),
                            e.index
                        ),
                    );
                }
            }
            warnings.append(&mut config_report.warnings);
            entries
        }
        None => Vec::new(),
    };
    let scene = build_scene(file, &elements, &entries, &mut report);
    warnings.splice(0..0, report.warnings);
    Ok((scene, warnings, report.lines))
}

fn check_unique(elements: &[SceneElement], report: &Report) -> Result<(), ImportError> {
    let mut seen = HashSet::new();
    for e in elements {
        if !seen.insert(e.index) {
            return Err(report.bad(e.line, format!("index {} is used by two elements", e.index)));
        }
    }
    Ok(())
}

fn build_scene(file: &Path, elements: &[SceneElement], entries: &[ConfigEntry], report: &mut Report) -> Scene {
    let mut by_element = HashMap::with_capacity(entries.len());
    for c in entries {
        by_element.entry((c.index, c.kind)).or_insert(c);
    }
    let entry = |e: &SceneElement| by_element.get(&(e.index, e.kind)).copied();
    let mut profiles = ImportProfiles::default();
    let mut scene = Scene::empty();
    scene.name = file
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    scene.description = format!(
        "Imported from the IndAlgoTest scene {}.",
        file.file_name()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
    );
    scene.profiles.clear();
    let mut keep = IndAlgoKeep::default();
    let mut latest_end: f32 = 0.0;
    for e in elements {
        let config = entry(e);
        let span = config.and_then(|c| c.time_span);
        latest_end = latest_end.max(span.map_or(0.0, |s| s.1));
        match e.kind {
            Kind::Pedestrian => {
                let speed = config
                    .and_then(|c| c.speed)
                    .unwrap_or(Profile::default().preferred_speed);
                let profile = profiles.ensure(&mut scene, e.radius, speed);
                if let Some(d) = config.and_then(|c| c.react_distance) {
                    keep.react_distance.insert(e.index, d);
                }
                if e.velocity != Vec2::ZERO {
                    report.warn(
                        e.line,
                        format!(
                            "initial velocity ({}, {}) of pedestrian {} is not kept: crowdlab agents start at rest (heading set from it)",
                            e.velocity.x, e.velocity.y, e.index
                        ),
                    );
                }
                let facing = [e.velocity, e.targets.first().map_or(Vec2::ZERO, |t| *t - e.location)]
                    .into_iter()
                    .find(|v| *v != Vec2::ZERO)
                    .unwrap_or(Vec2::X);
                let goal = goal_for(e, &mut scene);
                scene.agents.push(Agent {
                    id: e.index,
                    profile,
                    position: e.location,
                    heading_deg: facing.y.atan2(facing.x).to_degrees(),
                    goal,
                    start_time: span.map_or(0.0, |s| s.0),
                    end_time: span.map(|s| s.1),
                    agent_type: None,
                });
                report.lines.agents.push(e.line);
            }
            Kind::Obstacle => {
                keep.obstacle_index.insert(scene.obstacles.len() as u32, e.index);
                if let Some(span) = span {
                    keep.obstacle_time_span.insert(e.index, span);
                    report.warn(
                        e.line,
                        format!(
                            "obstacle {} is active only from {} s to {} s in IndAlgoTest; crowdlab keeps it for the whole run (the span is kept for export)",
                            e.index, span.0, span.1
                        ),
                    );
                }
                scene.obstacles.push(if e.velocity == Vec2::ZERO {
                    Obstacle::Circle {
                        center: e.location,
                        radius: e.radius,
                    }
                } else {
                    Obstacle::MovingCircle {
                        center: e.location,
                        radius: e.radius,
                        velocity: e.velocity,
                    }
                });
                report.lines.obstacles.push(e.line);
            }
        }
    }
    if scene.profiles.is_empty() {
        scene.profiles.push(Profile::default());
    }
    scene.agents.sort_by_key(|a| a.id);
    scene.settings.duration = scene.settings.duration.max(latest_end);
    scene.bounds = content_bounds(elements);
    scene.indalgo = Some(keep);
    scene
}

fn goal_for(e: &SceneElement, scene: &mut Scene) -> Goal {
    let id = format!("ped{}", e.index);
    match e.targets.as_slice() {
        [] => Goal::None,
        [single] => {
            scene.targets.push(Target {
                id: id.clone(),
                position: *single,
                radius: e.radius,
            });
            Goal::Target(id)
        }
        points => {
            scene.paths.push(ScenePath {
                id: id.clone(),
                points: points.to_vec(),
                width: 2.0 * e.radius,
                closed: false,
            });
            Goal::Path(id)
        }
    }
}

fn content_bounds(elements: &[SceneElement]) -> Bounds {
    let mut min = Vec2::splat(f32::INFINITY);
    let mut max = Vec2::splat(f32::NEG_INFINITY);
    for e in elements {
        min = min.min(e.location - e.radius);
        max = max.max(e.location + e.radius);
        for t in &e.targets {
            min = min.min(*t);
            max = max.max(*t);
        }
    }
    if !min.is_finite() {
        return Scene::empty().bounds;
    }
    Bounds {
        min: min - BOUNDS_MARGIN,
        max: max + BOUNDS_MARGIN,
    }
}

/// Element index of every obstacle for the export: the kept index, else the next free one.
fn obstacle_indices(scene: &Scene) -> BTreeMap<usize, u32> {
    let keep = scene.indalgo.clone().unwrap_or_default();
    let mut used: HashSet<u32> = scene.agents.iter().map(|a| a.id).collect();
    used.extend(keep.obstacle_index.values().copied());
    let mut next = 0;
    (0..scene.obstacles.len())
        .map(|i| {
            let index = keep.obstacle_index.get(&(i as u32)).copied().unwrap_or_else(|| {
                while used.contains(&next) {
                    next += 1;
                }
                used.insert(next);
                next
            });
            (i, index)
        })
        .collect()
}
