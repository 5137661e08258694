//! Property tests of ORCA: random two- and three-agent encounters, started apart with feasible
//! speeds, never overlap by more than 1e-4 m.

mod avoidance_support;

use std::sync::Arc;

use glam::Vec2;
use proptest::prelude::*;

use avoidance_support::{add_walker, goal_profile, scene};
use crowdlab::scene::avoidance::{Avoidance, ObstacleParams};
use crowdlab::sim::World;

/// Largest overlap (m) between any two agents of the world's current state.
fn deepest_overlap(world: &World) -> f32 {
    let bodies = world.bodies();
    let mut deepest: f32 = 0.0;
    for (i, a) in bodies.iter().enumerate() {
        for b in &bodies[i + 1..] {
            deepest = deepest.max(a.radius + b.radius - a.position.distance(b.position));
        }
    }
    deepest
}

fn point() -> impl Strategy<Value = Vec2> {
    (-6.0f32..6.0, -6.0f32..6.0).prop_map(|(x, y)| Vec2::new(x, y))
}

fn encounter() -> impl Strategy<Value = (Vec<(Vec2, Vec2, f32)>, f32, f32)> {
    let agent = (point(), point(), 0.2f32..0.6);
    (prop::collection::vec(agent, 2..=3), 1.0f32..2.0, 1.0f32..5.0)
}

/// True when every pair of starts and every pair of goals is clear by 0.05 m.
fn apart(agents: &[(Vec2, Vec2, f32)]) -> bool {
    agents.iter().enumerate().all(|(i, a)| {
        agents[i + 1..]
            .iter()
            .all(|b| a.0.distance(b.0) > a.2 + b.2 + 0.05 && a.1.distance(b.1) > a.2 + b.2 + 0.05)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn orca_encounters_never_overlap((agents, max_speed, tau) in encounter()) {
        prop_assume!(apart(&agents));
        let mut s = scene("encounter", "", 20.0, 0.1, 30.0, 2.0);
        for (k, (from, to, radius)) in agents.iter().enumerate() {
            let name = format!("p{k}");
            let params = ObstacleParams { time_horizon: tau, ..ObstacleParams::default() };
            s.profiles.push(goal_profile(&name, *radius, max_speed, max_speed * 0.8, Avoidance::Orca(params)));
            add_walker(&mut s, &name, *from, *to, 0.05);
        }
        let mut world = World::new(Arc::new(s));
        for _ in 0..200 {
            world.step();
            let overlap = deepest_overlap(&world);
            prop_assert!(overlap <= 1e-4, "overlap {overlap} m at tick {}", world.tick());
        }
    }
}
