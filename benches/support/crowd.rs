//! The benchmark crowd shared by several benches: `n` walkers of the default profile on a square
//! lattice 1 m apart, each heading for the point mirrored through the origin.

use crowdlab::scene::{Agent, Bounds, Goal, Scene, Target, default_scene};
use glam::Vec2;

/// The default scene emptied and filled with the lattice crowd of `n` agents.
pub fn lattice_crowd(n: usize) -> Scene {
    let mut scene = default_scene();
    let side = (n as f32).sqrt().ceil() as usize;
    let half = side as f32 * 0.5;
    scene.bounds = Bounds {
        min: Vec2::splat(-half - 5.0),
        max: Vec2::splat(half + 5.0),
    };
    scene.obstacles.clear();
    scene.paths.clear();
    scene.targets.clear();
    scene.agents.clear();
    for i in 0..n {
        let p = Vec2::new((i % side) as f32 - half, (i / side) as f32 - half);
        add_mirrored_walker(&mut scene, i, p, "walker", 0.3);
    }
    scene
}

/// Adds agent `i` of `profile` at `p`, heading for its own target (arrival radius `radius`) at
/// the point mirrored through the origin.
pub fn add_mirrored_walker(scene: &mut Scene, i: usize, p: Vec2, profile: &str, radius: f32) {
    scene.targets.push(Target {
        id: format!("t{i}"),
        position: -p,
        radius,
    });
    scene.agents.push(Agent {
        id: i as u32,
        profile: profile.into(),
        position: p,
        heading_deg: 0.0,
        goal: Goal::Target(format!("t{i}")),
        start_time: 0.0,
        end_time: None,
        agent_type: None,
    });
}
