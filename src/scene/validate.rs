//! Semantic validation of a parsed scene. Every problem is reported at once, each with the
//! field path (`agents[3].position`) and the offending value, so a user can fix a file in one go.

use std::collections::{HashMap, HashSet};
use std::fmt;

use glam::Vec2;

use super::avoidance::Avoidance;
use super::model::{Agent, NeighbourIndex, Obstacle, Profile, Scene};
use super::obstacle_index::ObstacleIndex;
use super::validate_navigation::{GoalIds, check_goal, check_navigation};
use crate::geom::{BoxIndex, polygon_area};
use crate::limits::{
    MAX_COORDINATE, MAX_HEADING_SMOOTHING, MAX_MOVING_OBSTACLES, MAX_OBSTACLES, MAX_PROFILES, MAX_TICKS,
};

/// One validation problem: where it is and what is wrong, value included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Field path such as `agents[3].position`.
    pub path: String,
    /// What is wrong, naming the value.
    pub message: String,
}

impl Problem {
    /// A problem at `path` with `message`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Collects problems while walking the scene.
#[derive(Default)]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    /// Records a problem.
    pub fn push(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(Problem::new(path, message));
    }

    /// Requires a finite number strictly above zero.
    pub fn positive(&mut self, path: impl Into<String>, value: f32) {
        if !(value.is_finite() && value > 0.0) {
            self.push(path, format!("{value} must be a finite number greater than 0"));
        }
    }

    /// Requires a finite number at or above zero.
    pub fn non_negative(&mut self, path: impl Into<String>, value: f32) {
        if !(value.is_finite() && value >= 0.0) {
            self.push(path, format!("{value} must be a finite number of at least 0"));
        }
    }

    /// Requires a finite number.
    pub fn finite(&mut self, path: impl Into<String>, value: f32) {
        if !value.is_finite() {
            self.push(path, format!("{value} must be a finite number"));
        }
    }

    /// Requires both coordinates finite.
    pub fn finite_point(&mut self, path: impl Into<String>, p: Vec2) {
        if !(p.x.is_finite() && p.y.is_finite()) {
            self.push(path, format!("{} must have finite coordinates", fmt_point(p)));
        }
    }

    /// Requires a value within `[lo, hi]`.
    pub fn within(&mut self, path: impl Into<String>, value: f32, lo: f32, hi: f32) {
        if !(value >= lo && value <= hi) {
            self.push(path, format!("{value} must lie between {lo} and {hi}"));
        }
    }
}

/// Formats a point the way problems print it: `(x, y)`.
pub fn fmt_point(p: Vec2) -> String {
    format!("({}, {})", p.x, p.y)
}

/// Checks every semantic rule of the scene format; an empty list means the scene is valid.
pub fn validate(scene: &Scene) -> Vec<Problem> {
    let mut problems = Problems::default();
    check_settings(scene, &mut problems);
    check_profiles(scene, &mut problems);
    check_static_content(scene, &mut problems);
    let obstacles = check_obstacle_count(scene, &mut problems).then(|| ObstacleIndex::new(&scene.obstacles));
    check_agents(scene, obstacles.as_ref(), &mut problems);
    check_navigation(scene, obstacles.as_ref(), &mut problems);
    problems.0
}

/// At most [`MAX_OBSTACLES`] obstacles, of which at most [`MAX_MOVING_OBSTACLES`] move. False
/// when either is exceeded (bodies are then not checked against them).
fn check_obstacle_count(scene: &Scene, problems: &mut Problems) -> bool {
    let total = scene.obstacles.len();
    let moving = scene
        .obstacles
        .iter()
        .filter(|o| matches!(o, Obstacle::MovingCircle { .. }))
        .count();
    if total > MAX_OBSTACLES {
        problems.push(
            "obstacles",
            format!("{total} obstacles; at most {MAX_OBSTACLES} are allowed"),
        );
    }
    if moving > MAX_MOVING_OBSTACLES {
        problems.push(
            "obstacles",
            format!("{moving} moving circles; at most {MAX_MOVING_OBSTACLES} are allowed"),
        );
    }
    total <= MAX_OBSTACLES && moving <= MAX_MOVING_OBSTACLES
}

fn check_settings(scene: &Scene, problems: &mut Problems) {
    let b = scene.bounds;
    problems.finite_point("bounds.min", b.min);
    problems.finite_point("bounds.max", b.max);
    if !(b.min.x < b.max.x && b.min.y < b.max.y) {
        problems.push(
            "bounds",
            format!(
                "min {} must be below and left of max {}",
                fmt_point(b.min),
                fmt_point(b.max)
            ),
        );
    }
    for (name, p) in [("bounds.min", b.min), ("bounds.max", b.max)] {
        if p.abs().max_element() > MAX_COORDINATE {
            problems.push(
                name,
                format!(
                    "{} lies beyond ±{MAX_COORDINATE} m (the largest world crowdlab handles)",
                    fmt_point(p)
                ),
            );
        }
    }
    let s = &scene.settings;
    problems.positive("settings.dt", s.dt);
    problems.positive("settings.duration", s.duration);
    let ticks = f64::from(s.duration) / f64::from(s.dt);
    if s.dt > 0.0 && s.duration > 0.0 && ticks.ceil() > MAX_TICKS as f64 {
        problems.push(
            "settings.dt",
            format!(
                "{} with duration {} gives {ticks:.3e} ticks; at most {MAX_TICKS} are allowed",
                s.dt, s.duration
            ),
        );
    }
    if s.record_every == 0 {
        problems.push("settings.record_every", "0 must be at least 1 (1 = record every tick)");
    }
    if let NeighbourIndex::Grid { cell_size } = s.neighbour_index {
        problems.positive("settings.neighbour_index.cell_size", cell_size);
    }
}

fn check_unique<'a>(problems: &mut Problems, list: &str, ids: impl Iterator<Item = &'a str>) {
    let mut seen = HashSet::new();
    for (i, id) in ids.enumerate() {
        if id.is_empty() {
            problems.push(format!("{list}[{i}]"), "id must not be empty");
        } else if !seen.insert(id) {
            problems.push(format!("{list}[{i}]"), format!("id {id:?} is used twice"));
        }
    }
}

fn check_profiles(scene: &Scene, problems: &mut Problems) {
    if scene.profiles.is_empty() && !scene.agents.is_empty() {
        problems.push("profiles", "at least one profile is needed when the scene has agents");
    }
    check_unique(problems, "profiles", scene.profiles.iter().map(|p| p.name.as_str()));
    if scene.profiles.len() > MAX_PROFILES {
        problems.push(
            "profiles",
            format!("{} profiles; at most {MAX_PROFILES} are allowed", scene.profiles.len()),
        );
    }
    let agent_ids: HashSet<u32> = scene.agents.iter().map(|a| a.id).collect();
    for (i, p) in scene.profiles.iter().enumerate() {
        let at = |field: &str| format!("profiles[{i}].{field}");
        problems.positive(at("radius"), p.radius);
        problems.positive(at("mass"), p.mass);
        problems.non_negative(at("max_speed"), p.max_speed);
        problems.non_negative(at("max_force"), p.max_force);
        problems.positive(at("max_turn_rate_deg"), p.max_turn_rate_deg);
        if p.heading_smoothing > MAX_HEADING_SMOOTHING {
            problems.push(
                at("heading_smoothing"),
                format!(
                    "{} is above the limit of {MAX_HEADING_SMOOTHING} headings",
                    p.heading_smoothing
                ),
            );
        }
        if p.preferred_speed.is_finite() && p.max_speed.is_finite() {
            problems.within(at("preferred_speed"), p.preferred_speed, 0.0, p.max_speed);
        } else {
            problems.finite(at("preferred_speed"), p.preferred_speed);
        }
        for (j, b) in p.behaviours.iter().enumerate() {
            b.validate(&at(&format!("behaviours[{j}]")), problems, &agent_ids);
        }
        check_human_model(p, &at, problems);
        p.preferred_velocity.validate(&at("preferred_velocity"), problems);
        p.avoidance.validate(&at("avoidance"), problems);
        p.unstick.validate(&at("unstick"), problems);
        check_orca_turn_rate(
            p.avoidance,
            p.max_turn_rate_deg,
            scene.settings.dt,
            &at("max_turn_rate_deg"),
            problems,
        );
    }
}

/// Popelová's human steerings and her combiner belong together: the combiner needs their
/// requests and they need its velocity update.
fn check_human_model(p: &Profile, at: &dyn Fn(&str) -> String, problems: &mut Problems) {
    use super::steering::{Behaviour, Combiner};
    let popelova = matches!(p.combiner, Combiner::Popelova(_));
    if let Combiner::Popelova(c) = &p.combiner {
        c.validate(&at("combiner.0"), problems);
    }
    for (j, b) in p.behaviours.iter().enumerate() {
        let human = matches!(b.behaviour, Behaviour::Human(_));
        if human != popelova {
            let message = if human {
                "human steerings need the Popelova combiner"
            } else {
                "the Popelova combiner takes only Human(...) steerings"
            };
            problems.push(at(&format!("behaviours[{j}].behaviour")), message);
        }
    }
}

/// A method that needs a fast turn rate ([`Avoidance::min_turn_rate_deg`], ORCA's 180° per
/// tick) must have it.
fn check_orca_turn_rate(avoidance: Avoidance, max_turn_rate_deg: f32, dt: f32, at: &str, problems: &mut Problems) {
    let needed = avoidance.min_turn_rate_deg(dt);
    if dt > 0.0 && max_turn_rate_deg < needed {
        problems.push(
            at,
            format!(
                "{max_turn_rate_deg} is too slow for ORCA avoidance: its chosen velocity must be applied unchanged, \
                 which needs at least 180° per tick = {needed} with dt {dt}"
            ),
        );
    }
}

fn check_static_content(scene: &Scene, problems: &mut Problems) {
    check_unique(problems, "targets", scene.targets.iter().map(|t| t.id.as_str()));
    for (i, t) in scene.targets.iter().enumerate() {
        problems.finite_point(format!("targets[{i}].position"), t.position);
        problems.positive(format!("targets[{i}].radius"), t.radius);
    }
    check_unique(problems, "paths", scene.paths.iter().map(|p| p.id.as_str()));
    for (i, p) in scene.paths.iter().enumerate() {
        if p.points.len() < 2 {
            problems.push(
                format!("paths[{i}].points"),
                format!("{} point(s); a path needs at least 2", p.points.len()),
            );
        }
        for (j, q) in p.points.iter().enumerate() {
            problems.finite_point(format!("paths[{i}].points[{j}]"), *q);
        }
        if p.points.windows(2).any(|w| w[0] == w[1]) {
            problems.push(
                format!("paths[{i}].points"),
                "two consecutive points coincide (zero-length segment)",
            );
        }
        problems.positive(format!("paths[{i}].width"), p.width);
    }
    for (i, o) in scene.obstacles.iter().enumerate() {
        check_obstacle(o, &format!("obstacles[{i}]"), problems);
    }
    check_measurements(scene, problems);
}

fn check_measurements(scene: &Scene, problems: &mut Problems) {
    check_unique(
        problems,
        "measurement_areas",
        scene.measurement_areas.iter().map(|m| m.id.as_str()),
    );
    for (i, m) in scene.measurement_areas.iter().enumerate() {
        problems.finite_point(format!("measurement_areas[{i}].min"), m.min);
        problems.finite_point(format!("measurement_areas[{i}].max"), m.max);
        if !(m.min.x < m.max.x && m.min.y < m.max.y) {
            problems.push(
                format!("measurement_areas[{i}]"),
                format!(
                    "min {} must be below and left of max {}",
                    fmt_point(m.min),
                    fmt_point(m.max)
                ),
            );
        }
    }
    check_unique(
        problems,
        "measurement_lines",
        scene.measurement_lines.iter().map(|m| m.id.as_str()),
    );
    for (i, m) in scene.measurement_lines.iter().enumerate() {
        problems.finite_point(format!("measurement_lines[{i}].a"), m.a);
        problems.finite_point(format!("measurement_lines[{i}].b"), m.b);
        if m.a == m.b {
            problems.push(
                format!("measurement_lines[{i}]"),
                format!("line from {} to itself has zero length", fmt_point(m.a)),
            );
        }
    }
}

fn check_obstacle(o: &Obstacle, at: &str, problems: &mut Problems) {
    match o {
        Obstacle::Circle { center, radius } => {
            problems.finite_point(format!("{at}.center"), *center);
            problems.positive(format!("{at}.radius"), *radius);
        }
        Obstacle::MovingCircle {
            center,
            radius,
            velocity,
        } => {
            problems.finite_point(format!("{at}.center"), *center);
            problems.positive(format!("{at}.radius"), *radius);
            problems.finite_point(format!("{at}.velocity"), *velocity);
        }
        Obstacle::Polygon { vertices } => {
            if vertices.len() < 3 {
                problems.push(
                    format!("{at}.vertices"),
                    format!("{} vertex(es); a polygon needs at least 3", vertices.len()),
                );
                return;
            }
            for (j, v) in vertices.iter().enumerate() {
                problems.finite_point(format!("{at}.vertices[{j}]"), *v);
            }
            let area = polygon_area(vertices);
            if area.is_finite() && area.abs() < 1e-6 {
                problems.push(
                    format!("{at}.vertices"),
                    "polygon has zero area (collinear or repeated vertices)",
                );
            }
        }
        Obstacle::Wall { a, b } => {
            problems.finite_point(format!("{at}.a"), *a);
            problems.finite_point(format!("{at}.b"), *b);
            if a == b {
                problems.push(
                    at.to_string(),
                    format!("wall from {} to itself has zero length", fmt_point(*a)),
                );
            }
        }
    }
}

/// Tolerance (metres) below which touching bodies are not reported as overlapping.
const OVERLAP_TOLERANCE: f32 = 1e-4;

/// Radius of each profile by name (the first of a duplicated name), for linear-time lookups.
fn radii(scene: &Scene) -> HashMap<&str, f32> {
    let mut radii = HashMap::with_capacity(scene.profiles.len());
    for p in &scene.profiles {
        radii.entry(p.name.as_str()).or_insert(p.radius);
    }
    radii
}

/// Placed agents: unique ids, known profiles and goals, finite values, clear of `obstacles`
/// (when they are within their limits) and of each other.
fn check_agents(scene: &Scene, obstacles: Option<&ObstacleIndex>, problems: &mut Problems) {
    let radii = radii(scene);
    let goal_ids = GoalIds::of(scene);
    let mut ids = HashSet::new();
    for (i, a) in scene.agents.iter().enumerate() {
        let at = |field: &str| format!("agents[{i}].{field}");
        if !ids.insert(a.id) {
            problems.push(at("id"), format!("id {} is used twice", a.id));
        }
        if !radii.contains_key(a.profile.as_str()) {
            problems.push(at("profile"), format!("unknown profile {:?}", a.profile));
        }
        problems.finite_point(at("position"), a.position);
        problems.finite(at("heading_deg"), a.heading_deg);
        problems.non_negative(at("start_time"), a.start_time);
        if let Some(end) = a.end_time
            && !(end.is_finite() && end > a.start_time)
        {
            problems.push(
                at("end_time"),
                format!("{end} must be a finite time after start_time {}", a.start_time),
            );
        }
        check_goal(&goal_ids, &a.goal, &at("goal"), problems);
        if let (Some(&radius), Some(obstacles)) = (radii.get(a.profile.as_str()), obstacles) {
            check_agent_clear_of_obstacles(obstacles, a, radius, &at("position"), problems);
        }
    }
    check_agents_do_not_overlap(scene, &radii, problems);
}

fn check_agent_clear_of_obstacles(
    obstacles: &ObstacleIndex,
    agent: &Agent,
    radius: f32,
    at: &str,
    problems: &mut Problems,
) {
    let p = agent.position;
    // A moving obstacle matters only where it is at the agent's start time.
    for k in obstacles.overlapping(p, radius, agent.start_time, OVERLAP_TOLERANCE) {
        problems.push(
            at,
            format!("{} (radius {radius}) starts inside obstacles[{k}]", fmt_point(p)),
        );
    }
}

/// Reports agents whose bodies overlap at a moment when both are present (sweep over x).
/// Overlapping placed agents listed before the check gives up with a summary.
const MAX_OVERLAPS_REPORTED: usize = 100;

fn check_agents_do_not_overlap(scene: &Scene, radii: &HashMap<&str, f32>, problems: &mut Problems) {
    let radius: Vec<f32> = scene
        .agents
        .iter()
        .map(|a| {
            radii
                .get(a.profile.as_str())
                .copied()
                .filter(|r| r.is_finite())
                .unwrap_or(0.0)
        })
        .collect();
    let body = |i: usize| {
        let p = scene.agents[i].position;
        let r = Vec2::splat(radius[i].max(0.0));
        if p.is_finite() {
            (p - r, p + r)
        } else {
            (Vec2::NAN, Vec2::NAN)
        }
    };
    let index = BoxIndex::new((0..scene.agents.len()).map(body).collect());
    let mut near = Vec::new();
    let mut reported = 0;
    for (i, a) in scene.agents.iter().enumerate() {
        let (lo, hi) = body(i);
        near.clear();
        index.query(lo, hi, &mut near);
        near.sort_unstable();
        for j in near.iter().map(|&j| j as usize).filter(|&j| j > i) {
            let b = &scene.agents[j];
            let both_present =
                a.end_time.is_none_or(|e| e > b.start_time) && b.end_time.is_none_or(|e| e > a.start_time);
            let reach = radius[i] + radius[j] - OVERLAP_TOLERANCE;
            if both_present && a.position.distance(b.position) < reach {
                if reported == MAX_OVERLAPS_REPORTED {
                    problems.push(
                        "agents",
                        format!("more agents overlap; the first {MAX_OVERLAPS_REPORTED} overlaps are listed"),
                    );
                    return;
                }
                reported += 1;
                problems.push(
                    format!("agents[{j}].position"),
                    format!(
                        "{} overlaps agents[{i}] at {}",
                        fmt_point(b.position),
                        fmt_point(a.position)
                    ),
                );
            }
        }
    }
}
