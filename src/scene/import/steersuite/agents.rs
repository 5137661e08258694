//! SteerSuite agents and their goal sequences as crowdlab agents.
//!
//! - Each `<agent>` makes one agent, each `<agentRegion>` `numAgents`; ids in document order.
//!   Random positions are drawn in the region (inset by the radius) until the body overlaps no
//!   obstacle and no agent placed so far; random directions and random targets are uniform.
//! - Goal sequence → waypoints: `seekStaticTarget` adds its target; `fleeStaticTarget` adds the
//!   point where the ray from the current position directly away from the target leaves the
//!   world; `flowStaticDirection` adds the point where the ray along the direction leaves the
//!   world (both reported as approximations). `idle` is what an agent does after its last goal
//!   anyway; an `idle` before other goals is reported and skipped, as are the dynamic goal types.
//!   One waypoint becomes a target, several an open path; identical ones are shared.
//! - One profile per distinct (radius, desiredSpeed of the first goal), named `r{radius}-v{speed}`;
//!   a non-zero initial speed is reported (agents start at rest) and names are reported as not kept.

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use super::super::{ImportError, ImportProfiles, Report};
use super::parse::{GoalKind, RawAgent, Rect};
use super::point_in;
use crate::geom::polygon_contains_circle_overlap;
use crate::limits::MAX_AGENTS;
use crate::scene::{Agent, Goal, Obstacle, Path, Profile, Scene, Target};

/// Attempts at a random, non-overlapping position before giving up.
const PLACEMENT_TRIES: usize = 10_000;

/// SteerSuite's conventional desired speed (m/s) when a goal gives none.
const DEFAULT_SPEED: f32 = 1.3;

/// Adds the agents of every template to `scene`.
pub fn add_agents(
    templates: &[RawAgent],
    world: Rect,
    scene: &mut Scene,
    rng: &mut Pcg32,
    report: &mut Report,
) -> Result<(), ImportError> {
    let mut profiles = ImportProfiles::default();
    for t in templates {
        if scene.agents.len() as u64 + u64::from(t.count) > MAX_AGENTS {
            return Err(report.bad(
                t.line,
                format!("{} more agents exceed the limit of {MAX_AGENTS} agents", t.count),
            ));
        }
        let inset = Rect {
            min: world.min + t.radius,
            max: (world.max - t.radius).max(world.min + t.radius),
        };
        report_template(t, scene.agents.len() as u32, report);
        let speed = desired_speed(t, report);
        let profile = profiles.ensure(scene, t.radius, speed);
        for _ in 0..t.count {
            let position = match t.position {
                Some(p) => p,
                None => place(rng, t, scene).ok_or_else(|| {
                    report.bad(
                        t.line,
                        format!(
                            "no free position for agent {} (radius {}) in the region after {PLACEMENT_TRIES} tries",
                            scene.agents.len(),
                            t.radius
                        ),
                    )
                })?,
            };
            let direction = t
                .direction
                .unwrap_or_else(|| Vec2::from_angle(rng.random::<f32>() * std::f32::consts::TAU));
            let waypoints = waypoints(t, position, inset, rng);
            let goal = goal_for(&waypoints, t.radius, scene);
            scene.agents.push(Agent {
                id: scene.agents.len() as u32,
                profile: profile.clone(),
                position,
                heading_deg: direction.y.atan2(direction.x).to_degrees(),
                goal,
                start_time: 0.0,
                end_time: None,
                agent_type: None,
            });
            report.lines.agents.push(t.line);
        }
    }
    if scene.profiles.is_empty() {
        scene.profiles.push(Profile::default());
    }
    Ok(())
}

/// Reports, once per template, what the import leaves out or approximates.
fn report_template(t: &RawAgent, first_id: u32, report: &mut Report) {
    if let Some(name) = &t.name {
        report.warn(
            t.line,
            format!("agent name {name:?} is not kept; it is agent id {first_id}"),
        );
    }
    if t.speed != 0.0 {
        report.warn(
            t.line,
            format!("initial speed {} is not supported; agents start at rest", t.speed),
        );
    }
    for (i, g) in t.goals.iter().enumerate() {
        let later_goals = t.goals[i + 1..].iter().any(|g| g.kind != GoalKind::Idle);
        match &g.kind {
            GoalKind::Flee(_) => report.warn(
                g.line,
                "fleeStaticTarget approximated: walk directly away from the target to the world edge",
            ),
            GoalKind::Flow(_) => report.warn(
                g.line,
                "flowStaticDirection approximated: walk along the direction to the world edge",
            ),
            GoalKind::Idle if later_goals => {
                report.warn(g.line, "an idle pause before other goals is not supported; skipped")
            }
            GoalKind::Unsupported(name) => report.warn(g.line, format!("goal type <{name}> is not supported; skipped")),
            _ => {}
        }
    }
}

fn desired_speed(t: &RawAgent, report: &mut Report) -> f32 {
    let mut speeds = t.goals.iter().filter_map(|g| g.desired_speed.map(|s| (s, g.line)));
    let Some((first, _)) = speeds.next() else {
        return DEFAULT_SPEED;
    };
    if let Some((other, line)) = speeds.find(|(s, _)| *s != first) {
        report.warn(
            line,
            format!("desiredSpeed {other} differs from the first goal's {first}; crowdlab uses {first} for every goal"),
        );
    }
    first
}

fn overlaps(p: Vec2, radius: f32, scene: &Scene) -> bool {
    let obstacle_hit = scene.obstacles.iter().any(|o| match o {
        Obstacle::Circle { center, radius: r } | Obstacle::MovingCircle { center, radius: r, .. } => {
            p.distance(*center) < radius + r
        }
        Obstacle::Polygon { vertices } => polygon_contains_circle_overlap(p, radius, vertices, 0.0),
        Obstacle::Wall { a, b } => crate::geom::distance_to_segment(p, *a, *b) < radius,
    });
    obstacle_hit
        || scene.agents.iter().any(|a| {
            let r = scene.profile(&a.profile).map_or(0.0, |pr| pr.radius);
            a.position.distance(p) < radius + r
        })
}

fn place(rng: &mut Pcg32, t: &RawAgent, scene: &Scene) -> Option<Vec2> {
    let region = Rect {
        min: t.region.min + t.radius,
        max: (t.region.max - t.radius).max(t.region.min + t.radius),
    };
    (0..PLACEMENT_TRIES)
        .map(|_| point_in(rng, region))
        .find(|p| !overlaps(*p, t.radius, scene))
}

/// Where the ray from `from` along `dir` leaves `r` (or `from` when it already has).
fn edge_point(from: Vec2, dir: Vec2, r: Rect) -> Vec2 {
    let Some(d) = dir.try_normalize() else {
        return from;
    };
    let exit = |c: f32, d: f32, lo: f32, hi: f32| {
        if d > 0.0 {
            (hi - c) / d
        } else if d < 0.0 {
            (lo - c) / d
        } else {
            f32::INFINITY
        }
    };
    let t = exit(from.x, d.x, r.min.x, r.max.x)
        .min(exit(from.y, d.y, r.min.y, r.max.y))
        .max(0.0);
    from + d * t
}

fn waypoints(t: &RawAgent, start: Vec2, world: Rect, rng: &mut Pcg32) -> Vec<Vec2> {
    let mut current = start;
    let mut points = Vec::new();
    for g in &t.goals {
        let next = match &g.kind {
            GoalKind::Seek(p) => p.unwrap_or_else(|| point_in(rng, world)),
            GoalKind::Flee(p) => {
                let from = p.unwrap_or_else(|| point_in(rng, world));
                edge_point(current, (current - from).try_normalize().unwrap_or(Vec2::X), world)
            }
            GoalKind::Flow(d) => {
                let dir = d.unwrap_or_else(|| Vec2::from_angle(rng.random::<f32>() * std::f32::consts::TAU));
                edge_point(current, dir, world)
            }
            GoalKind::Idle | GoalKind::Unsupported(_) => continue,
        };
        points.push(next);
        current = next;
    }
    points
}

fn goal_for(points: &[Vec2], radius: f32, scene: &mut Scene) -> Goal {
    match points {
        [] => Goal::None,
        [single] => {
            if let Some(t) = scene
                .targets
                .iter()
                .find(|t| t.position == *single && t.radius == radius)
            {
                return Goal::Target(t.id.clone());
            }
            let id = format!("goal{}", scene.targets.len());
            scene.targets.push(Target {
                id: id.clone(),
                position: *single,
                radius,
            });
            Goal::Target(id)
        }
        many => {
            if let Some(p) = scene.paths.iter().find(|p| p.points == many && p.width == 2.0 * radius) {
                return Goal::Path(p.id.clone());
            }
            let id = format!("route{}", scene.paths.len());
            scene.paths.push(Path {
                id: id.clone(),
                points: many.to_vec(),
                width: 2.0 * radius,
                closed: false,
            });
            Goal::Path(id)
        }
    }
}
