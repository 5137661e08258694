//! Spawn groups turned into agents before the run starts: agents entering at a gate one after
//! another, with inter-arrival times ~ N(mean, sd) drawn from the group's own seeded generator
//! (negative draws count as 0) or all at once on evenly spaced slots, or a crowd spread over an
//! area (`scene::area_points`: apart and clear of obstacles). Each spawned agent simply waits for
//! its start time.

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use super::world_map::WorldMap;
use crate::scene::{Goal, Interval, Scene, SpawnSource, area_points, gate_slot, spawn_rng};

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
        let mut rng = spawn_rng(scene.settings.seed, g);
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
                let depth = radius + 0.2;
                match group.interval {
                    Some(_) => (0..group.count)
                        .map(|_| map.gate_point(gate, depth, &mut rng))
                        .collect(),
                    None => (0..group.count)
                        .map(|k| map.gate_slot_point(gate, depth, gate_slot(k, group.count)))
                        .collect(),
                }
            }
            SpawnSource::Area { min, max } => {
                area_points(scene, (*min, *max), group.count, radius, group.start_time, &mut rng)
            }
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

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

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
