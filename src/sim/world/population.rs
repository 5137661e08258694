//! Who is in the run: placed and spawned agents become one list of recruits, each turned into a
//! body, a mind and an entry of the recording's agent table by the same function; the spawned
//! ones are also listed with the gate they enter at, for their admission.

use std::collections::HashMap;

use glam::Vec2;

use super::AgentMind;
use super::arrivals::Arrivals;
use crate::record::{AgentEntry, AgentTable, ProfileEntry};
use crate::scene::{Goal, Scene};
use crate::sim::avoid::StallMemory;
use crate::sim::mind::{Mind, WorldMap, spawn_schedule};
use crate::sim::steer::SteerState;
use crate::sim::{Body, ResolvedProfile, Status};

/// One agent that will take part in the run, wherever it came from.
struct Recruit {
    id: u32,
    profile: usize,
    position: Vec2,
    heading: f32,
    goal: Goal,
    agent_type: Option<usize>,
    start_time: f32,
    end_time: Option<f32>,
    spawned: bool,
    /// The gate a spawned agent enters at.
    gate: Option<usize>,
}

/// Every agent of `scene`: the placed ones in scene order, then the spawn groups' (ids after
/// the largest placed id).
fn recruits(scene: &Scene, map: &WorldMap) -> Vec<Recruit> {
    let type_of = |name: &Option<String>| {
        name.as_ref()
            .and_then(|n| scene.agent_types.iter().position(|t| &t.name == n))
    };
    let mut profile_index = HashMap::with_capacity(scene.profiles.len());
    for (i, p) in scene.profiles.iter().enumerate() {
        profile_index.entry(p.name.as_str()).or_insert(i);
    }
    let placed = scene.agents.iter().map(|agent| Recruit {
        id: agent.id,
        profile: profile_index[agent.profile.as_str()],
        position: agent.position,
        heading: agent.heading_deg.to_radians(),
        goal: agent.goal.clone(),
        agent_type: type_of(&agent.agent_type),
        start_time: agent.start_time,
        end_time: agent.end_time,
        spawned: false,
        gate: None,
    });
    let first_spawned_id = scene.agents.iter().map(|a| a.id.saturating_add(1)).max().unwrap_or(0);
    let spawned = spawn_schedule(scene, map, first_spawned_id)
        .into_iter()
        .map(|s| Recruit {
            id: s.id,
            profile: s.profile,
            position: s.position,
            heading: s.heading,
            goal: s.goal,
            agent_type: s.agent_type,
            start_time: s.start_time,
            end_time: None,
            spawned: true,
            gate: s.gate,
        });
    placed.chain(spawned).collect()
}

/// The bodies, minds and agent table of every agent of `scene`, all waiting for their start,
/// and where the spawned ones arrive (no body larger than `max_radius`).
pub(super) fn populate(
    scene: &Scene,
    map: &WorldMap,
    profiles: &[ResolvedProfile],
    max_radius: f32,
) -> (Vec<Body>, Vec<AgentMind>, AgentTable, Arrivals) {
    let recruits = recruits(scene, map);
    let arrivals = Arrivals::new(
        scene.agents.len(),
        recruits.iter().filter(|r| r.spawned).map(|r| r.gate).collect(),
        max_radius,
    );
    let mut bodies = Vec::with_capacity(recruits.len());
    let mut minds = Vec::with_capacity(recruits.len());
    let mut entries = Vec::with_capacity(recruits.len());
    for r in recruits {
        let profile = &profiles[r.profile];
        let heading = Vec2::from_angle(r.heading);
        bodies.push(Body {
            id: r.id,
            profile: r.profile as u32,
            position: r.position,
            velocity: Vec2::ZERO,
            heading,
            radius: profile.radius,
            status: Status::Waiting,
        });
        let mut mind = Mind::new(r.id, &r.goal, r.agent_type, scene, map);
        mind.start_time = r.start_time;
        mind.end_time = r.end_time;
        minds.push(AgentMind {
            mind: mind.with_waypoint_reach(profile.waypoint_seek_distance),
            steer: SteerState::new(scene.settings.seed, r.id, heading, profile.heading_smoothing),
            human: Vec::new(),
            stall: StallMemory::default(),
        });
        entries.push(AgentEntry {
            id: r.id,
            profile: r.profile as u32,
            agent_type: r.agent_type.map(|t| scene.agent_types[t].name.clone()),
            goal: r.goal,
            spawned: r.spawned,
            position: r.position,
            start_time: r.start_time,
        });
    }
    let compiled = scene
        .profiles
        .iter()
        .zip(profiles)
        .map(|(p, r)| ProfileEntry {
            name: p.name.clone(),
            radius: r.radius,
            max_speed: r.max_speed,
            sensing_radius: r.neighbour_radius,
            force_labels: r.labels.clone(),
        })
        .collect();
    (bodies, minds, AgentTable::new(compiled, entries), arrivals)
}
