//! Validation of goals, navigation settings, regions/portals/gates, spawn groups, agent types,
//! hazards and evacuation settings; each problem names its field path and value.

use std::collections::{HashMap, HashSet};

use glam::Vec2;

use super::model::{Goal, Scene};
use super::navigation::{Evacuation, GateDirection, SpawnSource};
use super::obstacle_index::ObstacleIndex;
use super::spawn_layout::{area_points, gate_capacity, spawn_rng};
use super::validate::{Problems, fmt_point};
use crate::limits::MAX_AGENTS;

/// Distance (metres) within which region edges and portal ends count as coinciding (1 mm).
const TOLERANCE: f32 = 1e-3;

/// Checks every navigation- and mind-related part of the scene; spawn areas are checked
/// against `obstacles` when they are within their limits (`Some`).
pub fn check_navigation(scene: &Scene, obstacles: Option<&ObstacleIndex>, problems: &mut Problems) {
    let nav = &scene.navigation;
    problems.positive("navigation.cell_size", nav.cell_size);
    if let Some(border) = nav.border {
        problems.non_negative("navigation.border", border);
    }
    if nav.replan_stagger == 0 {
        problems.push("navigation.replan_stagger", "0 must be at least 1");
    }
    let size = scene.bounds.size() / nav.cell_size.max(1e-3);
    if size.x * size.y > 2.0e7 {
        problems.push(
            "navigation.cell_size",
            format!(
                "{} gives {} cells; at most 20 million are allowed",
                nav.cell_size,
                size.x * size.y
            ),
        );
    }
    check_regions(scene, problems);
    check_gates(scene, problems);
    check_spawns(scene, obstacles, problems);
    check_types(scene, problems);
    for (i, h) in scene.hazards.iter().enumerate() {
        problems.finite_point(format!("hazards[{i}].position"), h.position);
        problems.non_negative(format!("hazards[{i}].start_time"), h.start_time);
        problems.positive(format!("hazards[{i}].radius"), h.radius);
    }
    check_evacuation(scene, &scene.evacuation, problems);
}

fn check_regions(scene: &Scene, problems: &mut Problems) {
    let ids: Vec<&str> = scene.regions.iter().map(|r| r.id.as_str()).collect();
    unique(problems, "regions", &ids);
    let mut area = 0.0;
    for (i, r) in scene.regions.iter().enumerate() {
        if !(r.min.x < r.max.x && r.min.y < r.max.y) {
            problems.push(
                format!("regions[{i}]"),
                format!(
                    "min {} must be below and left of max {}",
                    fmt_point(r.min),
                    fmt_point(r.max)
                ),
            );
        }
        let inside = r.min.cmpge(scene.bounds.min - TOLERANCE).all() && r.max.cmple(scene.bounds.max + TOLERANCE).all();
        if !inside {
            problems.push(
                format!("regions[{i}]"),
                format!("{}–{} reaches outside the bounds", fmt_point(r.min), fmt_point(r.max)),
            );
        }
        area += (r.max - r.min).x * (r.max - r.min).y;
        for (j, s) in scene.regions.iter().enumerate().skip(i + 1) {
            let overlap = (r.max.min(s.max) - r.min.max(s.min)).max(Vec2::ZERO);
            if overlap.x > TOLERANCE && overlap.y > TOLERANCE {
                problems.push(
                    format!("regions[{j}]"),
                    format!("region {:?} overlaps region {:?}", s.id, r.id),
                );
            }
        }
    }
    let world = scene.bounds.size().x * scene.bounds.size().y;
    if !scene.regions.is_empty() && (area - world).abs() > world * 1e-4 {
        problems.push(
            "regions",
            format!("the regions cover {area} m² but the bounds are {world} m²; they must tile the world"),
        );
    }
    let portal_ids: Vec<&str> = scene.portals.iter().map(|p| p.id.as_str()).collect();
    unique(problems, "portals", &portal_ids);
    for (i, p) in scene.portals.iter().enumerate() {
        let at = format!("portals[{i}]");
        let (a, b) = (
            scene.regions.iter().find(|r| r.id == p.regions.0),
            scene.regions.iter().find(|r| r.id == p.regions.1),
        );
        for (name, found) in [(&p.regions.0, a.is_some()), (&p.regions.1, b.is_some())] {
            if !found {
                problems.push(format!("{at}.regions"), format!("unknown region id {name:?}"));
            }
        }
        if (p.from.x - p.to.x).abs() > TOLERANCE && (p.from.y - p.to.y).abs() > TOLERANCE {
            problems.push(
                format!("{at}.to"),
                format!("{} to {} is not axis-aligned", fmt_point(p.from), fmt_point(p.to)),
            );
        }
        if p.from.distance(p.to) < TOLERANCE {
            problems.push(format!("{at}.to"), "the portal has zero length");
        }
        if let (Some(a), Some(b)) = (a, b) {
            let on = |r: &super::navigation::Region, q: Vec2| {
                q.cmpge(r.min - TOLERANCE).all() && q.cmple(r.max + TOLERANCE).all()
            };
            if ![p.from, p.to].iter().all(|&q| on(a, q) && on(b, q)) {
                problems.push(
                    at,
                    format!(
                        "{} to {} does not lie on the boundary shared by {:?} and {:?}",
                        fmt_point(p.from),
                        fmt_point(p.to),
                        a.id,
                        b.id
                    ),
                );
            }
        }
    }
}

fn check_gates(scene: &Scene, problems: &mut Problems) {
    let ids: Vec<&str> = scene.gates.iter().map(|g| g.id.as_str()).collect();
    unique(problems, "gates", &ids);
    for (i, g) in scene.gates.iter().enumerate() {
        problems.finite_point(format!("gates[{i}].from"), g.from);
        problems.finite_point(format!("gates[{i}].to"), g.to);
        if g.from.distance(g.to) < TOLERANCE {
            problems.push(format!("gates[{i}].to"), "the gate has zero length");
        }
    }
}

fn check_spawns(scene: &Scene, obstacles: Option<&ObstacleIndex>, problems: &mut Problems) {
    let ids = GoalIds::of(scene);
    for (i, s) in scene.spawns.iter().enumerate() {
        let at = |f: &str| format!("spawns[{i}].{f}");
        match &s.source {
            SpawnSource::Gate(id) => match scene.gate(id) {
                None => problems.push(at("source"), format!("unknown gate id {id:?}")),
                Some(g) if g.direction == GateDirection::Out => problems.push(
                    at("source"),
                    format!("gate {id:?} is exit-only; agents cannot enter there"),
                ),
                Some(_) => {}
            },
            SpawnSource::Area { min, max } => {
                problems.finite_point(at("source.min"), *min);
                problems.finite_point(at("source.max"), *max);
                if !(min.x < max.x && min.y < max.y) {
                    problems.push(
                        at("source"),
                        format!(
                            "area min {} must be below and left of max {}",
                            fmt_point(*min),
                            fmt_point(*max)
                        ),
                    );
                } else if !(min.cmpge(scene.bounds.min).all() && max.cmple(scene.bounds.max).all()) {
                    problems.push(
                        at("source"),
                        format!(
                            "area {}–{} reaches outside the bounds {}–{}",
                            fmt_point(*min),
                            fmt_point(*max),
                            fmt_point(scene.bounds.min),
                            fmt_point(scene.bounds.max)
                        ),
                    );
                }
            }
        }
        if scene.profile(&s.profile).is_none() {
            problems.push(at("profile"), format!("unknown profile {:?}", s.profile));
        }
        if let Some(t) = &s.agent_type
            && scene.agent_type(t).is_none()
        {
            problems.push(at("agent_type"), format!("unknown agent type {t:?}"));
        }
        problems.non_negative(at("start_time"), s.start_time);
        if let Some(iv) = s.interval {
            problems.positive(at("interval.mean"), iv.mean);
            problems.non_negative(at("interval.sd"), iv.sd);
        }
        check_goal(&ids, &s.goal, &at("goal"), problems);
    }
    if check_agent_count(scene, problems)
        && problems.0.is_empty()
        && let Some(obstacles) = obstacles
    {
        check_spawn_room(scene, obstacles, problems);
    }
}

/// Every spawn group's agents fit where they appear: an area holds them apart and clear of
/// obstacles (the same layout the simulator uses), a gate without an interval holds its
/// simultaneous arrivals side by side.
fn check_spawn_room(scene: &Scene, obstacles: &ObstacleIndex, problems: &mut Problems) {
    for (g, s) in scene.spawns.iter().enumerate() {
        let Some(radius) = scene.profile(&s.profile).map(|p| p.radius) else {
            continue;
        };
        match &s.source {
            SpawnSource::Area { min, max } => {
                let placed = area_points(
                    scene,
                    obstacles,
                    (*min, *max),
                    s.count,
                    radius,
                    s.start_time,
                    &mut spawn_rng(scene.settings.seed, g),
                );
                if placed.len() < s.count as usize {
                    problems.push(
                        format!("spawns[{g}].count"),
                        format!(
                            "{} agents of radius {radius} do not fit the area {}–{} apart and clear of obstacles: \
                             only {} do; enlarge the area or lower the count",
                            s.count,
                            fmt_point(*min),
                            fmt_point(*max),
                            placed.len()
                        ),
                    );
                }
            }
            SpawnSource::Gate(id) => {
                let Some(gate) = scene.gate(id) else { continue };
                let room = gate_capacity(gate, radius);
                if s.interval.is_none() && u64::from(s.count) > room {
                    problems.push(
                        format!("spawns[{g}].count"),
                        format!(
                            "{} agents of radius {radius} arriving at once do not fit side by side at gate {id:?} \
                             (room for {room}); give an interval or use an Area source",
                            s.count
                        ),
                    );
                }
            }
        }
    }
}

/// Spawned agents take the ids after the largest placed id, one each: they must all fit a u32,
/// and placed plus spawned agents at most [`MAX_AGENTS`]. False when either is exceeded.
fn check_agent_count(scene: &Scene, problems: &mut Problems) -> bool {
    let first = scene.agents.iter().map(|a| u64::from(a.id) + 1).max().unwrap_or(0);
    let mut next = first;
    let mut total = scene.agents.len() as u64;
    if total > MAX_AGENTS {
        problems.push("agents", format!("{total} agents; at most {MAX_AGENTS} are allowed"));
        return false;
    }
    for (i, s) in scene.spawns.iter().enumerate() {
        next += u64::from(s.count);
        total += u64::from(s.count);
        if next > u64::from(u32::MAX) + 1 {
            problems.push(
                format!("spawns[{i}].count"),
                format!(
                    "{} agents after id {} would need ids beyond {} (agent ids are 32-bit)",
                    s.count,
                    first.saturating_sub(1),
                    u32::MAX
                ),
            );
            return false;
        }
        if total > MAX_AGENTS {
            problems.push(
                format!("spawns[{i}].count"),
                format!(
                    "{} brings the scene to {total} agents; at most {MAX_AGENTS} are allowed",
                    s.count
                ),
            );
            return false;
        }
    }
    true
}

fn check_types(scene: &Scene, problems: &mut Problems) {
    let names: Vec<&str> = scene.agent_types.iter().map(|t| t.name.as_str()).collect();
    unique(problems, "agent_types", &names);
    for (i, t) in scene.agent_types.iter().enumerate() {
        let at = |f: &str| format!("agent_types[{i}].{f}");
        problems.positive(at("perception"), t.perception);
        problems.positive(at("wander_step"), t.wander_step);
        problems.positive(at("catch_distance"), t.catch_distance);
        for (f, v) in [
            ("idle_time", t.idle_time),
            ("wander_time", t.wander_time),
            ("own_panic_weight", t.own_panic_weight),
            ("acquired_panic_weight", t.acquired_panic_weight),
            ("panic_speed_gain", t.panic_speed_gain),
            ("hop_delay", t.hop_delay),
            ("flee_distance", t.flee_distance),
            ("rest_time", t.rest_time),
            ("conversion_delay", t.conversion_delay),
        ] {
            problems.non_negative(at(f), v);
        }
        if t.search_points == 0 {
            problems.push(at("search_points"), "0 must be at least 1");
        }
        if let Some(c) = &t.convert_to
            && scene.agent_type(c).is_none()
        {
            problems.push(at("convert_to"), format!("unknown agent type {c:?}"));
        }
        if let Some(p) = &t.profile
            && scene.profile(p).is_none()
        {
            problems.push(at("profile"), format!("unknown profile {p:?}"));
        }
    }
    for (i, a) in scene.agents.iter().enumerate() {
        if let Some(t) = &a.agent_type
            && scene.agent_type(t).is_none()
        {
            problems.push(format!("agents[{i}].agent_type"), format!("unknown agent type {t:?}"));
        }
    }
}

fn check_evacuation(scene: &Scene, e: &Evacuation, problems: &mut Problems) {
    for (i, id) in e.exits.iter().enumerate() {
        if scene.target(id).is_none() {
            problems.push(format!("evacuation.exits[{i}]"), format!("unknown target id {id:?}"));
        }
    }
    if e.exits.len() > 64 {
        problems.push(
            "evacuation.exits",
            format!("{} exits; at most 64 are supported", e.exits.len()),
        );
    }
    if let Some(t) = e.alarm_time {
        problems.non_negative("evacuation.alarm_time", t);
    }
    if let Some(b) = &e.balancing {
        problems.positive("evacuation.balancing.crowd_radius", b.crowd_radius);
        problems.non_negative("evacuation.balancing.cost_per_agent", b.cost_per_agent);
        problems.positive("evacuation.balancing.replan_interval", b.replan_interval);
    }
}

/// The scene's target, path and gate ids, for checking goals in constant time per id.
pub struct GoalIds<'a> {
    targets: HashSet<&'a str>,
    paths: HashSet<&'a str>,
    gates: HashMap<&'a str, GateDirection>,
}

impl<'a> GoalIds<'a> {
    /// The ids of `scene`.
    pub fn of(scene: &'a Scene) -> GoalIds<'a> {
        GoalIds {
            targets: scene.targets.iter().map(|t| t.id.as_str()).collect(),
            paths: scene.paths.iter().map(|p| p.id.as_str()).collect(),
            gates: scene.gates.iter().rev().map(|g| (g.id.as_str(), g.direction)).collect(),
        }
    }
}

/// Checks that every id a goal refers to exists and its weights are valid.
pub fn check_goal(ids: &GoalIds, goal: &Goal, at: &str, problems: &mut Problems) {
    match goal {
        Goal::None | Goal::RandomWalk => {}
        Goal::Target(id) if !ids.targets.contains(id.as_str()) => {
            problems.push(at, format!("unknown target id {id:?}"))
        }
        Goal::Path(id) if !ids.paths.contains(id.as_str()) => problems.push(at, format!("unknown path id {id:?}")),
        Goal::Target(_) | Goal::Path(_) => {}
        Goal::Exit(id) => match ids.gates.get(id.as_str()) {
            None => problems.push(at, format!("unknown gate id {id:?}")),
            Some(GateDirection::In) => problems.push(at, format!("gate {id:?} is entry-only")),
            Some(_) => {}
        },
        Goal::AnyOf(options) => {
            if options.is_empty() || options.iter().map(|(w, _)| w).sum::<f32>() <= 0.0 {
                problems.push(at, "a disjunction needs at least one option with a weight above 0");
            }
            for (k, (w, g)) in options.iter().enumerate() {
                problems.non_negative(format!("{at}[{k}].0"), *w);
                check_goal(ids, g, &format!("{at}[{k}].1"), problems);
            }
        }
        Goal::AllOf(goals) => {
            for (k, g) in goals.iter().enumerate() {
                check_goal(ids, g, &format!("{at}[{k}]"), problems);
            }
        }
        Goal::Targets { ids: targets, .. } => {
            if targets.is_empty() {
                problems.push(at, "the target list is empty");
            }
            for (k, id) in targets.iter().enumerate() {
                if !ids.targets.contains(id.as_str()) {
                    problems.push(format!("{at}.ids[{k}]"), format!("unknown target id {id:?}"));
                }
            }
        }
    }
}

fn unique(problems: &mut Problems, list: &str, ids: &[&str]) {
    for (i, id) in ids.iter().enumerate() {
        if id.is_empty() {
            problems.push(format!("{list}[{i}]"), "id must not be empty");
        } else if ids[..i].contains(id) {
            problems.push(format!("{list}[{i}]"), format!("id {id:?} is used twice"));
        }
    }
}
