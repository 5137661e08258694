//! Scene builders shared by the avoidance tests and the generator of the bundled avoidance
//! scenes (`scenes/*.ron` are exactly what these functions return; see `bundled_scenes.rs`).

#![allow(dead_code)]

pub mod scenes;

use glam::Vec2;

use crowdlab::scene::avoidance::{Avoidance, PreferredVelocity};
use crowdlab::scene::{
    Agent, ArrivalPolicy, Bounds, Goal, NeighbourIndex, Obstacle, Profile, Scene, SimSettings, Target,
};

/// A profile that walks straight at its goal (RVO2's preferred velocity) with `avoidance`.
pub fn goal_profile(name: &str, radius: f32, max_speed: f32, preferred_speed: f32, avoidance: Avoidance) -> Profile {
    Profile {
        name: name.into(),
        radius,
        mass: 1.0,
        max_speed,
        preferred_speed,
        max_force: 10.0,
        max_turn_rate_deg: 100_000.0,
        behaviours: Vec::new(),
        preferred_velocity: PreferredVelocity::TowardGoal { perturbation: 0.0 },
        avoidance,
        ..Profile::default()
    }
}

/// An empty scene with the given settings; agents, targets and obstacles are added by the caller.
pub fn scene(name: &str, description: &str, half_size: f32, dt: f32, duration: f32, cell: f32) -> Scene {
    Scene {
        name: name.into(),
        description: description.into(),
        bounds: Bounds {
            min: Vec2::splat(-half_size),
            max: Vec2::splat(half_size),
        },
        settings: SimSettings {
            dt,
            seed: 1,
            duration,
            on_arrival: ArrivalPolicy::Stop,
            neighbour_index: NeighbourIndex::Grid { cell_size: cell },
            ..SimSettings::default()
        },
        profiles: Vec::new(),
        ..Scene::empty()
    }
}

/// Adds an agent of `profile` at `from` heading for a new target at `to` (arrival radius `reach`).
pub fn add_walker(scene: &mut Scene, profile: &str, from: Vec2, to: Vec2, reach: f32) {
    let id = scene.agents.len() as u32;
    let target = format!("goal{id}");
    scene.targets.push(Target {
        id: target.clone(),
        position: to,
        radius: reach,
    });
    let d = to - from;
    scene.agents.push(Agent {
        id,
        profile: profile.into(),
        position: from,
        heading_deg: d.y.atan2(d.x).to_degrees(),
        goal: Goal::Target(target),
        start_time: 0.0,
        end_time: None,
        agent_type: None,
    });
}

/// Adds a moving non-reactive circle.
pub fn add_moving_circle(scene: &mut Scene, center: Vec2, radius: f32, velocity: Vec2) {
    scene.obstacles.push(Obstacle::MovingCircle {
        center,
        radius,
        velocity,
    });
}

/// Adds an axis-aligned square block with corners `min` and `max`.
pub fn add_block(scene: &mut Scene, min: Vec2, max: Vec2) {
    scene.obstacles.push(Obstacle::Polygon {
        vertices: vec![min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)],
    });
}
