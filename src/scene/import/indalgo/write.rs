//! Writing a scene back as IndAlgoTest `.iascene` + `.iaconf`, elements in index order.
//!
//! Only what the format can hold is written: circular agents with waypoints and speed, circular
//! (possibly moving) obstacles. Polygon and wall obstacles and closed paths do not fit and are
//! reported; crowdlab-only settings (behaviours, bounds, tick length) are simply not part of the
//! format. A pedestrian present for the whole run gets no `<timeSpan>`; one without a kept
//! reaction distance gets no `reactDistance` attribute.

use std::fmt::Write as _;
use std::path::Path;

use glam::Vec2;

use super::super::ImportError;
use super::obstacle_indices;
use crate::atomic_file::write_atomic;
use crate::scene::{Goal, Obstacle, Scene};

/// The text of the two IndAlgoTest files of a scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndAlgoFiles {
    /// The `.iascene` document.
    pub scene: String,
    /// The `.iaconf` document.
    pub config: String,
}

/// One element to write, with its sort key.
struct Item {
    index: u32,
    scene: String,
    config: String,
}

fn attr_point(tag: &str, p: Vec2) -> String {
    format!("<{tag} x=\"{}\" y=\"{}\"/>", p.x, p.y)
}

fn time_span(start: f32, end: f32) -> String {
    format!("      <timeSpan start=\"{start}\" end=\"{end}\"/>\n")
}

/// The IndAlgoTest documents of `scene`, or the list of what does not fit the format.
pub fn scene_to_indalgo(scene: &Scene) -> Result<IndAlgoFiles, Vec<String>> {
    let keep = scene.indalgo.clone().unwrap_or_default();
    let mut problems = Vec::new();
    let mut items = Vec::new();
    for (i, a) in scene.agents.iter().enumerate() {
        let Some(profile) = scene.profile(&a.profile) else {
            problems.push(format!("agents[{i}]: unknown profile {:?}", a.profile));
            continue;
        };
        let targets = match &a.goal {
            Goal::None => Vec::new(),
            Goal::Target(id) => scene.target(id).map(|t| vec![t.position]).unwrap_or_default(),
            Goal::Path(id) => match scene.path(id) {
                Some(p) if p.closed => {
                    problems.push(format!(
                        "agents[{i}]: closed path {id:?} (IndAlgoTest waypoints are visited once)"
                    ));
                    continue;
                }
                Some(p) => p.points.clone(),
                None => Vec::new(),
            },
            other => {
                problems.push(format!(
                    "agents[{i}]: goal {other:?} has no IndAlgoTest equivalent (targets and open paths only)"
                ));
                continue;
            }
        };
        let mut s = format!("    <pedestrian index=\"{}\" radius=\"{}\">\n", a.id, profile.radius);
        let _ = writeln!(s, "      {}", attr_point("location", a.position));
        let _ = writeln!(s, "      {}", attr_point("velocity", Vec2::ZERO));
        s.push_str("      <targets>\n");
        for t in targets {
            let _ = writeln!(s, "        {}", attr_point("target", t));
        }
        s.push_str("      </targets>\n    </pedestrian>\n");
        let react = keep
            .react_distance
            .get(&a.id)
            .map_or_else(String::new, |d| format!(" reactDistance=\"{d}\""));
        let mut c = format!(
            "    <pedestrian index=\"{}\"{react} speed=\"{}\">\n",
            a.id, profile.preferred_speed
        );
        if a.start_time != 0.0 || a.end_time.is_some() {
            c.push_str(&time_span(a.start_time, a.end_time.unwrap_or(scene.settings.duration)));
        }
        c.push_str("    </pedestrian>\n");
        items.push(Item {
            index: a.id,
            scene: s,
            config: c,
        });
    }
    let indices = obstacle_indices(scene);
    for (i, o) in scene.obstacles.iter().enumerate() {
        let (center, radius, velocity) = match o {
            Obstacle::Circle { center, radius } => (*center, *radius, Vec2::ZERO),
            Obstacle::MovingCircle {
                center,
                radius,
                velocity,
            } => (*center, *radius, *velocity),
            Obstacle::Polygon { .. } => {
                problems.push(format!("obstacles[{i}]: a polygon (IndAlgoTest obstacles are circles)"));
                continue;
            }
            Obstacle::Wall { .. } => {
                problems.push(format!("obstacles[{i}]: a wall (IndAlgoTest obstacles are circles)"));
                continue;
            }
        };
        let index = indices[&i];
        let scene_text = format!(
            "    <obstacle index=\"{index}\" radius=\"{radius}\">\n      {}\n      {}\n    </obstacle>\n",
            attr_point("location", center),
            attr_point("velocity", velocity)
        );
        let config = keep
            .obstacle_time_span
            .get(&index)
            .map_or_else(String::new, |(start, end)| {
                format!(
                    "    <obstacle index=\"{index}\">\n{}    </obstacle>\n",
                    time_span(*start, *end)
                )
            });
        items.push(Item {
            index,
            scene: scene_text,
            config,
        });
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    items.sort_by_key(|item| item.index);
    let body = |f: fn(&Item) -> &str| items.iter().map(f).collect::<String>();
    Ok(IndAlgoFiles {
        scene: format!(
            "<indAlgoConf>\n  <obstacles>\n{}  </obstacles>\n</indAlgoConf>\n",
            body(|i| &i.scene)
        ),
        config: format!(
            "<indAlgoConfiguration>\n  <obstacles>\n{}  </obstacles>\n</indAlgoConfiguration>\n",
            body(|i| &i.config)
        ),
    })
}

/// Writes `scene` as `path` (`.iascene`) and the `.iaconf` of the same stem beside it.
pub fn export_indalgo(scene: &Scene, path: &Path) -> Result<(), ImportError> {
    let files = scene_to_indalgo(scene).map_err(|problems| ImportError::DoesNotFit {
        file: path.to_path_buf(),
        problems,
    })?;
    let config_path = path.with_extension("iaconf");
    for (file, text) in [(path, &files.scene), (config_path.as_path(), &files.config)] {
        write_atomic(file, text.as_bytes()).map_err(|source| ImportError::Io {
            file: file.to_path_buf(),
            source,
        })?;
    }
    Ok(())
}
