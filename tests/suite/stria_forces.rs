//! Stria's reactive layer through the public API: perception memory (7 agents, nearest first, field
//! of view) and the priority-selection combiner (order, skip probabilities).

use glam::Vec2;
use rand::SeedableRng;
use rand_pcg::Pcg32;

use crowdlab::scene::steering::stria::{StriaForce, StriaKind};
use crowdlab::scene::steering::{Behaviour, BehaviourSpec, Combiner};
use crowdlab::scene::{Bounds, NeighbourIndex, Profile};
use crowdlab::sim::steer::stria::{perceive_agents, select};
use crowdlab::sim::steer::{GoalPoint, SteerMemory, SteeringContext};
use crowdlab::sim::{Body, NeighbourGrid, ResolvedProfile, StaticGeometry, Status};

fn body(id: u32, x: f32, y: f32, v: Vec2) -> Body {
    Body {
        id,
        profile: 0,
        position: Vec2::new(x, y),
        velocity: v,
        heading: v.try_normalize().unwrap_or(Vec2::X),
        radius: 0.3,
        status: Status::Active,
    }
}

/// Fresh behaviour memory (Stria's forces do not use it).
fn memory() -> SteerMemory {
    SteerMemory { wander_target: Vec2::X }
}

fn stria(force: StriaKind, skip: f32) -> BehaviourSpec {
    BehaviourSpec::new(Behaviour::Stria(StriaForce { force, skip }), 1.0)
}

fn profile(behaviours: Vec<BehaviourSpec>) -> ResolvedProfile {
    let scene_profile = Profile {
        behaviours,
        combiner: Combiner::PrioritySelection,
        max_force: 10.0,
        ..Profile::default()
    };
    ResolvedProfile::new(&scene_profile, &mut Vec::new())
}

fn context<'a>(
    bodies: &'a [Body],
    neighbours: &'a [u32],
    profile: &'a ResolvedProfile,
    statics: &'a StaticGeometry,
) -> SteeringContext<'a> {
    SteeringContext {
        body: &bodies[0],
        profile,
        goal: Some(GoalPoint {
            position: Vec2::new(20.0, 0.0),
            is_final: true,
        }),
        neighbours,
        grid: Box::leak(Box::new(NeighbourGrid::new(
            NeighbourIndex::BruteForce,
            Bounds {
                min: Vec2::splat(-50.0),
                max: Vec2::splat(50.0),
            },
        ))),
        index: 0,
        max_radius: bodies.iter().map(|b| b.radius).fold(0.0, f32::max),
        bodies,
        dt: 0.1,
        statics,
        agents: Box::leak(Box::default()),
        obstacles: Box::leak(Box::default()),
        time: 0.0,
        path: None,
        memo: Default::default(),
    }
}

#[test]
fn perception_memory_keeps_the_seven_nearest_in_the_field_of_view() {
    let mut bodies = vec![body(0, 0.0, 0.0, Vec2::X)];
    for i in 1..=10 {
        bodies.push(body(i, i as f32, 0.1 * i as f32, Vec2::ZERO));
    }
    bodies.push(body(11, -0.5, 0.0, Vec2::ZERO));
    let neighbours: Vec<u32> = (1..bodies.len() as u32).rev().collect();
    let p = profile(vec![]);
    let statics = StaticGeometry::new(&[]);
    let ctx = context(&bodies, &neighbours, &p, &statics);
    let seen: Vec<u32> = perceive_agents(&ctx, 150.0, 50.0).iter().map(|b| b.id).collect();
    assert_eq!(
        seen,
        vec![1, 2, 3, 4, 5, 6, 7],
        "nearest first, capped at 7, the one behind unseen"
    );
}

#[test]
fn the_first_needed_force_wins_and_the_rest_are_not_examined() {
    let bodies = [body(0, 0.0, 0.0, Vec2::X), body(1, 4.0, 0.1, -Vec2::X)];
    let statics = StaticGeometry::new(&[]);
    let agents = StriaKind::AgentAvoidance {
        fov_deg: 180.0,
        range: 10.0,
        horizon: 5.0,
        strength: 3.0,
    };
    let p = profile(vec![
        stria(
            StriaKind::ObstacleAvoidance {
                fov_deg: 150.0,
                ray_spacing_deg: 10.0,
                range: 5.0,
                strength: 5.0,
            },
            0.0,
        ),
        stria(agents, 0.0),
        stria(StriaKind::Seek, 0.0),
    ]);
    let ctx = context(&bodies, &[1], &p, &statics);
    let out = select(&ctx, &mut memory(), &mut Pcg32::seed_from_u64(1));
    assert_eq!(out.parts[0].force, Vec2::ZERO, "no obstacle: not needed");
    assert_eq!(out.parts[1].kept, 1.0, "the head-on neighbour is the first need");
    assert!(out.force.y.abs() > 2.9, "a sideways swerve: {}", out.force);
    assert_eq!(
        (out.parts[2].force, out.parts[2].kept),
        (Vec2::ZERO, 0.0),
        "seek never examined"
    );
}

#[test]
fn skip_probability_passes_over_a_needed_force_that_often() {
    let bodies = [body(0, 0.0, 0.0, Vec2::X)];
    let statics = StaticGeometry::new(&[]);
    let p = profile(vec![stria(StriaKind::DirectPull, 0.25), stria(StriaKind::Seek, 0.0)]);
    let ctx = context(&bodies, &[], &p, &statics);
    let mut rng = Pcg32::seed_from_u64(7);
    let skipped = (0..4000)
        .filter(|_| select(&ctx, &mut memory(), &mut rng).parts[1].kept > 0.0)
        .count();
    assert!((900..1100).contains(&skipped), "about a quarter skipped: {skipped}");
}
