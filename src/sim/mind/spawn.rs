//! Spawn groups turned into agents before the run starts: agents entering at a gate one after
//! another, with inter-arrival times ~ N(mean, sd) drawn from the group's own seeded generator
//! (negative draws count as 0) or all at once on evenly spaced slots, or a crowd spread over an
//! area (`scene::area_points`: apart and clear of obstacles). Each spawned agent waits for its
//! start time and for its place to be clear; a gate arrival whose place is taken may use another
//! of the gate's slots ([`gate_slots_near`]).

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use super::world_map::WorldMap;
use crate::scene::{
    GATE_SPAN, Goal, Interval, ObstacleIndex, Scene, SpawnSource, area_points, gate_capacity, gate_slot, spawn_rng,
};

/// How far inside the world, beyond its radius, a gate arrival appears (metres).
const GATE_MARGIN: f32 = 0.2;

/// Most of a gate's slots tried for one arrival in one tick.
const MAX_SLOT_TRIES: usize = 64;

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
    /// The gate it enters at (index in the scene's gates); `None` for an area's agent.
    pub gate: Option<usize>,
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
    let obstacles = ObstacleIndex::new(&scene.obstacles);
    for (g, group) in scene.spawns.iter().enumerate() {
        let mut rng = spawn_rng(scene.settings.seed, g);
        let profile = scene.profiles.iter().position(|p| p.name == group.profile).unwrap_or(0);
        let radius = scene.profiles.get(profile).map_or(0.3, |p| p.radius);
        let agent_type = group
            .agent_type
            .as_ref()
            .and_then(|t| scene.agent_types.iter().position(|x| &x.name == t));
        let mut time = group.start_time;
        let (gate, positions): (Option<usize>, Vec<Vec2>) = match &group.source {
            SpawnSource::Gate(id) => {
                let gate = scene.gates.iter().position(|x| &x.id == id).unwrap_or(0);
                let depth = radius + GATE_MARGIN;
                let positions = match group.interval {
                    Some(_) => (0..group.count)
                        .map(|_| map.gate_point(gate, depth, &mut rng))
                        .collect(),
                    None => (0..group.count)
                        .map(|k| map.gate_slot_point(gate, depth, gate_slot(k, group.count)))
                        .collect(),
                };
                (Some(gate), positions)
            }
            SpawnSource::Area { min, max } => (
                None,
                area_points(
                    scene,
                    &obstacles,
                    (*min, *max),
                    group.count,
                    radius,
                    group.start_time,
                    &mut rng,
                ),
            ),
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
                gate,
            });
            id = id.wrapping_add(1);
            if let Some(interval) = group.interval {
                time += draw_interval(interval, &mut rng);
            }
        }
    }
    out
}

/// The slots of gate `gate` for bodies of `radius` (its arrival span divided among as many as
/// fit side by side, `scene::gate_capacity`), nearest to `at` first, at most `MAX_SLOT_TRIES`,
/// skipping slots that are not walkable.
pub fn gate_slots_near(scene: &Scene, map: &WorldMap, gate: usize, radius: f32, at: Vec2) -> Vec<Vec2> {
    let capacity = scene
        .gates
        .get(gate)
        .map_or(0, |g| gate_capacity(g, radius))
        .min(u64::from(u32::MAX)) as u32;
    let Some(span) = map.gates.get(gate).filter(|_| capacity > 0) else {
        return Vec::new();
    };
    let along = span.to - span.from;
    let t = (at - span.from).dot(along) / along.length_squared();
    let nearest = ((t - GATE_SPAN.0) / (GATE_SPAN.1 - GATE_SPAN.0) * capacity as f32 - 0.5).round();
    let nearest = nearest.clamp(0.0, (capacity - 1) as f32) as i64;
    let window =
        (nearest - MAX_SLOT_TRIES as i64).max(0)..=(nearest + MAX_SLOT_TRIES as i64).min(i64::from(capacity) - 1);
    let mut slots: Vec<(f32, Vec2)> = window
        .map(|k| map.gate_slot_point(gate, radius + GATE_MARGIN, gate_slot(k as u32, capacity)))
        .map(|p| (p.distance(at), p))
        .collect();
    // A stable sort: equally near slots keep their order along the gate.
    slots.sort_by(|a, b| a.0.total_cmp(&b.0));
    slots
        .into_iter()
        .take(MAX_SLOT_TRIES)
        .map(|(_, p)| p)
        .filter(|&p| map.walkable(p))
        .collect()
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

    #[test]
    fn gate_slots_come_nearest_first_apart_and_inside_the_world() {
        let mut scene = crate::scene::default_scene();
        scene.bounds = crate::scene::Bounds {
            min: Vec2::splat(-10.0),
            max: Vec2::splat(10.0),
        };
        scene.gates = vec![crate::scene::Gate {
            id: "g".into(),
            from: Vec2::new(-10.0, -5.0),
            to: Vec2::new(-10.0, 5.0),
            direction: crate::scene::GateDirection::In,
        }];
        let map = WorldMap::new(&scene);
        let slots = gate_slots_near(&scene, &map, 0, 0.3, Vec2::new(-9.5, 1.1));
        // 8 m of arrival span hold 13 bodies of radius 0.3; the one nearest y = 1.1 first.
        assert_eq!(slots.len(), 13);
        let ys: Vec<f32> = slots.iter().map(|p| p.y).collect();
        assert!(
            ys.windows(2).all(|w| (w[0] - 1.1).abs() <= (w[1] - 1.1).abs() + 1e-4),
            "{ys:?}"
        );
        for (i, a) in slots.iter().enumerate() {
            assert!((a.x + 9.5).abs() < 1e-4, "slot {a} is 0.5 m inside the west edge");
            assert!(
                slots[i + 1..].iter().all(|b| a.distance(*b) >= 0.6),
                "slots {a} overlap"
            );
        }
        assert!(
            gate_slots_near(&scene, &map, 0, 6.0, Vec2::new(-9.5, 0.0)).is_empty(),
            "no room"
        );
    }
}
