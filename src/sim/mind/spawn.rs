//! Spawn groups turned into agents before the run starts: agents entering at a gate one after
//! another, with inter-arrival times ~ N(mean, sd) drawn from the group's own seeded generator
//! (negative draws count as 0), or a crowd spread over an area on a jittered lattice, skipping
//! cells that are not walkable. Each spawned agent simply waits for its start time.

use glam::Vec2;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

use super::world_map::WorldMap;
use crate::scene::{Goal, Interval, Scene, SpawnSource};

/// An agent created by a spawn group.
#[derive(Clone, Debug, PartialEq)]
pub struct SpawnedAgent {
    /// Agent id (after every placed agent's id).
    pub id: u32,
    /// Profile index.
    pub profile: usize,
    /// Where it appears.
    pub position: Vec2,
    /// Initial facing in radians.
    pub heading: f32,
    /// When it appears (s).
    pub start_time: f32,
    /// Its goal.
    pub goal: Goal,
    /// Agent type index, if any.
    pub agent_type: Option<usize>,
}

/// One standard-normal draw (Box–Muller).
fn standard_normal(rng: &mut Pcg32) -> f32 {
    let u1: f32 = rng.random_range(f32::EPSILON..1.0);
    let u2: f32 = rng.random_range(0.0..1.0);
    (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos()
}

/// A draw of `interval`, at least 0.
pub fn draw_interval(interval: Interval, rng: &mut Pcg32) -> f32 {
    (interval.mean + interval.sd * standard_normal(rng)).max(0.0)
}

/// Every agent the scene's spawn groups create, ids starting at `first_id`.
pub fn spawn_schedule(scene: &Scene, map: &WorldMap, first_id: u32) -> Vec<SpawnedAgent> {
    let mut out = Vec::new();
    let mut id = first_id;
    for (g, group) in scene.spawns.iter().enumerate() {
        let mut rng = Pcg32::seed_from_u64(scene.settings.seed ^ 0x7370_6177_6e00 ^ (g as u64) << 40);
        let profile = scene.profiles.iter().position(|p| p.name == group.profile).unwrap_or(0);
        let radius = scene.profiles.get(profile).map_or(0.3, |p| p.radius);
        let agent_type = group
            .agent_type
            .as_ref()
            .and_then(|t| scene.agent_types.iter().position(|x| &x.name == t));
        let mut time = group.start_time;
        let positions: Vec<Vec2> = match &group.source {
            SpawnSource::Gate(gate) => {
                let gate = scene.gates.iter().position(|x| &x.id == gate).unwrap_or(0);
                (0..group.count)
                    .map(|_| map.gate_point(gate, radius + 0.2, &mut rng))
                    .collect()
            }
            SpawnSource::Area { min, max } => lattice(*min, *max, group.count, map, &mut rng),
        };
        for position in positions {
            out.push(SpawnedAgent {
                id,
                profile,
                position,
                heading: (scene.bounds.center() - position).to_angle(),
                start_time: time,
                goal: group.goal.clone(),
                agent_type,
            });
            id = id.wrapping_add(1);
            if let Some(interval) = group.interval {
                time += draw_interval(interval, &mut rng);
            }
        }
    }
    out
}

/// Up to `count` walkable points on a jittered lattice over `min`–`max`, row by row.
fn lattice(min: Vec2, max: Vec2, count: u32, map: &WorldMap, rng: &mut Pcg32) -> Vec<Vec2> {
    let size = max - min;
    let n = count as f32;
    let cols = (n * size.x / size.y).sqrt().ceil().max(1.0) as u32;
    let mut rows = count.div_ceil(cols).max(1);
    let mut points = Vec::new();
    // Grow the lattice until enough cells are walkable (obstacles inside the area).
    for _ in 0..4 {
        let step = Vec2::new(size.x / cols as f32, size.y / rows as f32);
        points = (0..rows * cols)
            .map(|k| {
                let cell = Vec2::new((k % cols) as f32 + 0.5, (k / cols) as f32 + 0.5);
                let jitter = Vec2::new(rng.random_range(-0.15..0.15), rng.random_range(-0.15..0.15));
                min + (cell + jitter) * step
            })
            .filter(|&p| map.walkable(p))
            .take(count as usize)
            .collect();
        if points.len() == count as usize {
            break;
        }
        rows += rows / 2 + 1;
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_draws_have_the_requested_mean_and_spread() {
        let mut rng = Pcg32::seed_from_u64(3);
        let iv = Interval { mean: 5.0, sd: 1.0 };
        let draws: Vec<f32> = (0..4000).map(|_| draw_interval(iv, &mut rng)).collect();
        let mean = draws.iter().sum::<f32>() / draws.len() as f32;
        let var = draws.iter().map(|d| (d - mean).powi(2)).sum::<f32>() / draws.len() as f32;
        assert!((mean - 5.0).abs() < 0.08, "mean {mean}");
        assert!((var.sqrt() - 1.0).abs() < 0.08, "sd {}", var.sqrt());
    }
}
