//! SteerSuite goal sequences as crowdlab goals: the points an agent walks through, and the
//! target or path they become.
//!
//! - `seekStaticTarget` adds its target. A random target is drawn in the world (inset by the
//!   agent's radius) until it lies at least [`RANDOM_TARGET_CLEARANCE`] from every obstacle, as
//!   SteerSuite keeps random targets clear of obstacles.
//! - `seekAxisAlignedBoxRegion` adds the point of its box nearest to where the agent is at that
//!   goal (its start or previous goal), inset by the agent's radius where the box is wide enough,
//!   so the agent ends with its body inside the box and a crowd spreads along the box's near side
//!   instead of converging on its centre.
//! - `fleeStaticTarget` adds the point where the ray from the current position directly away
//!   from the target leaves the world; `flowStaticDirection` the point where the ray along the
//!   direction leaves it (both reported as approximations).
//! - `idle` and unsupported goal types add nothing.
//! - One point becomes a target (radius = the agent's), several an open path (width = the
//!   agent's diameter); identical ones are shared.

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use super::parse::{GoalKind, RawAgent, Rect};
use super::point_in;
use crate::scene::{Goal, Path, Scene, Target, overlaps_obstacle};

/// Least distance (metres) between a random target and any obstacle (SteerSuite's 1 m).
pub const RANDOM_TARGET_CLEARANCE: f32 = 1.0;

/// Attempts at a random point before giving up.
pub const PLACEMENT_TRIES: usize = 10_000;

/// The points agent template `t` starting at `start` walks through, in order; `world` is the
/// world inset by the agent's radius. `None` when no random target clear of obstacles is found.
pub fn waypoints(t: &RawAgent, start: Vec2, world: Rect, scene: &Scene, rng: &mut Pcg32) -> Option<Vec<Vec2>> {
    let mut current = start;
    let mut points = Vec::new();
    for g in &t.goals {
        let next = match &g.kind {
            GoalKind::Seek(Some(p)) => *p,
            GoalKind::Seek(None) => random_target(world, scene, rng)?,
            GoalKind::SeekBox(b) => nearest_in_box(current, *b, t.radius),
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
        if points.last() != Some(&next) {
            points.push(next);
        }
        current = next;
    }
    Some(points)
}

/// A uniform point of `world` at least [`RANDOM_TARGET_CLEARANCE`] from every obstacle.
fn random_target(world: Rect, scene: &Scene, rng: &mut Pcg32) -> Option<Vec2> {
    (0..PLACEMENT_TRIES).map(|_| point_in(rng, world)).find(|p| {
        !scene
            .obstacles
            .iter()
            .any(|o| overlaps_obstacle(o, *p, RANDOM_TARGET_CLEARANCE, 0.0, 0.0))
    })
}

/// The point of box `b` nearest to `from`, the box inset by `radius` on each axis where it is
/// wider than the body (its centre line otherwise).
fn nearest_in_box(from: Vec2, b: Rect, radius: f32) -> Vec2 {
    let inset = |lo: f32, hi: f32| {
        if hi - lo > 2.0 * radius {
            (lo + radius, hi - radius)
        } else {
            let mid = (lo + hi) * 0.5;
            (mid, mid)
        }
    };
    let (x0, x1) = inset(b.min.x, b.max.x);
    let (y0, y1) = inset(b.min.y, b.max.y);
    Vec2::new(from.x.clamp(x0, x1), from.y.clamp(y0, y1))
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

/// The goal through `points` for a body of `radius`: none, a target, or an open path, reusing
/// an identical one already in `scene`.
pub fn goal_for(points: &[Vec2], radius: f32, scene: &mut Scene) -> Goal {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_goal_is_the_nearest_point_with_the_body_inside() {
        let b = Rect {
            min: Vec2::new(10.0, -5.0),
            max: Vec2::new(14.0, 5.0),
        };
        assert_eq!(nearest_in_box(Vec2::new(0.0, 1.0), b, 0.5), Vec2::new(10.5, 1.0));
        assert_eq!(nearest_in_box(Vec2::new(0.0, 9.0), b, 0.5), Vec2::new(10.5, 4.5));
        // A box narrower than the body: its centre line.
        let thin = Rect {
            min: Vec2::new(10.0, -5.0),
            max: Vec2::new(10.6, 5.0),
        };
        assert_eq!(nearest_in_box(Vec2::new(0.0, 0.0), thin, 0.5), Vec2::new(10.3, 0.0));
    }
}
