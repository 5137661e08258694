//! SteerSuite agents as crowdlab agents.
//!
//! - Each `<agent>` makes one agent, each `<agentRegion>` `numAgents`; ids in document order.
//!   Random positions are drawn in the region (inset by the radius) until the body overlaps no
//!   obstacle and no agent placed so far; random directions are uniform.
//! - An `<agentEmitter>` makes a spawn group of one agent at its position (reported: SteerSuite's
//!   later emissions are not reproduced).
//! - The goal sequence becomes a target or path as described in [`super::goals`]; an `idle`
//!   before other goals is reported and skipped, as are the dynamic goal types, and an agent
//!   left with no goal to walk to is reported (it stands still).
//! - The scene runs for the longest total `timeDuration` of an agent's goals (SteerSuite's
//!   100,000 s for a goal without one); agents whose own total is shorter are reported.
//! - One profile per distinct (radius, desiredSpeed of the first goal), named `r{radius}-v{speed}`;
//!   a non-zero initial speed is reported (agents start at rest) and names are reported as not kept.

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use super::super::{ImportError, ImportProfiles, Report};
use super::goals::{PLACEMENT_TRIES, RANDOM_TARGET_CLEARANCE, goal_for, waypoints};
use super::parse::{GoalKind, RawAgent, Rect};
use super::point_in;
use crate::limits::{MAX_AGENTS, MAX_TICKS};
use crate::scene::{Agent, Goal, Profile, Scene, SpawnGroup, SpawnSource, overlaps_obstacle};

/// SteerSuite's conventional desired speed (m/s) when a goal gives none.
const DEFAULT_SPEED: f32 = 1.3;

/// The `timeDuration` (s) SteerSuite's reader gives a goal without one.
const DEFAULT_TIME_DURATION: f32 = 100_000.0;

/// Room (metres) around an emitter's body in its spawn area.
const EMITTER_MARGIN: f32 = 0.05;

/// Adds the agents of every template to `scene` (an emitter's as a spawn group), and sets the
/// scene's duration to the longest total `timeDuration` of an agent's goals.
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
        report_template(t, scene.agents.len(), report);
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
            let points = waypoints(t, position, inset, scene, rng).ok_or_else(|| {
                report.bad(
                    t.line,
                    format!(
                        "no random target {RANDOM_TARGET_CLEARANCE} m clear of the obstacles in the world after {PLACEMENT_TRIES} tries"
                    ),
                )
            })?;
            let goal = goal_for(&points, t.radius, scene);
            if goal == Goal::None {
                report.warn_kind(
                    t.line,
                    "agent without a goal to walk to (it stands still)",
                    format!(
                        "{} has no goal crowdlab can walk to; it stands still",
                        who(t, scene.agents.len())
                    ),
                );
            }
            if t.emitter {
                add_emitter(t, position, goal, &profile, scene, report);
                continue;
            }
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
    set_duration(templates, scene, report);
    Ok(())
}

/// An `<agentEmitter>` as a spawn group of one agent over the square around its body: SteerSuite
/// emits its first agent there at the start (later emissions are reported, not reproduced).
fn add_emitter(t: &RawAgent, position: Vec2, goal: Goal, profile: &str, scene: &mut Scene, report: &mut Report) {
    let half = Vec2::splat(t.radius + EMITTER_MARGIN);
    scene.spawns.push(SpawnGroup {
        source: SpawnSource::Area {
            min: (position - half).max(scene.bounds.min),
            max: (position + half).min(scene.bounds.max),
        },
        count: 1,
        profile: profile.to_string(),
        agent_type: None,
        goal,
        start_time: 0.0,
        interval: None,
    });
    report.warn(
        t.line,
        "agentEmitter imported as a spawn group of one agent at its position; later emissions are not reproduced",
    );
}

/// Sets the scene's duration to the longest total `timeDuration` of a template's goals (within
/// the tick limit), reporting templates whose own total is shorter: crowdlab runs every agent
/// for the whole scene.
fn set_duration(templates: &[RawAgent], scene: &mut Scene, report: &mut Report) {
    let total = |t: &RawAgent| -> f32 {
        t.goals
            .iter()
            .map(|g| g.time_duration.unwrap_or(DEFAULT_TIME_DURATION))
            .sum()
    };
    let Some(longest) = templates.iter().map(total).reduce(f32::max).filter(|d| *d > 0.0) else {
        return;
    };
    let dt = scene.settings.dt;
    scene.settings.duration = longest.clamp(dt, MAX_TICKS as f32 * dt);
    for t in templates
        .iter()
        .filter(|t| (0.0..longest).contains(&total(t)) && !t.goals.is_empty())
    {
        report.warn_kind(
            t.line,
            "a shorter timeDuration is not kept (agents run for the scene's duration)",
            format!(
                "the goals' timeDuration adds up to {} s; crowdlab runs every agent for the scene's {} s",
                total(t),
                scene.settings.duration
            ),
        );
    }
}

/// How warnings name the agent of template `t` that would get `id`: `agent 3`, or the emitter's
/// agent (which gets its id when it spawns).
fn who(t: &RawAgent, id: usize) -> String {
    if t.emitter {
        "the agentEmitter's agent".into()
    } else {
        format!("agent {id}")
    }
}

/// Reports, once per template, what the import leaves out or approximates.
fn report_template(t: &RawAgent, first_id: usize, report: &mut Report) {
    if let Some(name) = &t.name {
        report.warn_kind(
            t.line,
            "agent name not kept",
            format!("agent name {name:?} is not kept; it is {}", who(t, first_id)),
        );
    }
    if t.speed != 0.0 {
        report.warn_kind(
            t.line,
            "initial speed not supported (agents start at rest)",
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
        report.warn_kind(
            line,
            "desiredSpeed differs within a goal sequence",
            format!("desiredSpeed {other} differs from the first goal's {first}; crowdlab uses {first} for every goal"),
        );
    }
    first
}

fn overlaps(p: Vec2, radius: f32, scene: &Scene) -> bool {
    scene
        .obstacles
        .iter()
        .any(|o| overlaps_obstacle(o, p, radius, 0.0, 0.0))
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
