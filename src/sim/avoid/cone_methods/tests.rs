//! Tests of the cone methods ([`super`]): the order of the regions by level, the gate of a
//! velocity clear of the side half-planes, and the rebuild at shorter horizons.

use super::*;

/// A walker of radius 0.3 m at a random bearing, `nearest` to `nearest + spread` m away, with a
/// random velocity up to 1.5 m/s, reactive four times in five.
fn random_mover(next: &mut impl FnMut() -> f32, (nearest, spread): (f32, f32)) -> Mover {
    Mover {
        position: Vec2::from_angle(next() * 6.3) * (nearest + next() * spread),
        velocity: Vec2::from_angle(next() * 6.3) * next() * 1.5,
        radius: 0.3,
        reactive: next() < 0.8,
    }
}

#[test]
fn the_regions_present_at_a_count_come_first() {
    // Walkers around an agent between a wall and a pillar, one of them overlapping it: for
    // every method, the levels ascend, so the search at count k reads a prefix, and that
    // prefix holds exactly the regions of level at most k.
    let obstacles = AvoidObstacles::new(&[crate::scene::Obstacle::Wall {
        a: Vec2::new(-5.0, 1.0),
        b: Vec2::new(5.0, 1.0),
    }]);
    let agent = AvoidingAgent {
        position: Vec2::ZERO,
        velocity: Vec2::new(1.0, 0.2),
        radius: 0.3,
        max_speed: 1.5,
        preferred: Vec2::new(1.4, 0.0),
    };
    let mover = |x: f32, y: f32, reactive: bool| Mover {
        position: Vec2::new(x, y),
        velocity: Vec2::new(-1.0, 0.1),
        radius: 0.3,
        reactive,
    };
    let movers = [mover(1.5, 0.0, true), mover(0.5, -0.2, true), mover(3.0, -1.0, false)];
    let pillar = [mover(2.0, -2.0, false)];
    let edges: Vec<usize> = (0..obstacles.vertices.len()).collect();
    let horizons = Horizons {
        agents: 2.0,
        obstacles: 1.0,
    };
    for method in [
        ConeMethod::Vo,
        ConeMethod::Rvo,
        ConeMethod::ClearPath(ClearPathVariant::Guaranteed),
        ConeMethod::ClearPath(ClearPathVariant::Relaxed),
        ConeMethod::Brandejsky,
    ] {
        let (mut regions, mut levels, mut cones) = (Vec::new(), Vec::new(), Vec::new());
        let out = (&mut regions, &mut levels, &mut cones);
        let colliding_from = method.build(&agent, &movers, &pillar, &edges, &obstacles, horizons, 0.1, out);
        assert_eq!(colliding_from, 2, "{method:?}: the second walker overlaps");
        assert!(levels.is_sorted(), "{method:?}: {levels:?}");
        assert!(levels.contains(&0) && levels.contains(&3), "{method:?}: {levels:?}");
        for k in 0..=3 {
            let prefix = levels.partition_point(|&l| l <= k);
            assert_eq!(
                prefix,
                levels.iter().filter(|&&l| l <= k).count(),
                "{method:?}, k = {k}"
            );
        }
    }
}

#[test]
fn a_velocity_clear_of_the_sides_leaves_every_count_open() {
    // Pseudo-random agents among 1 to 8 walkers that do not overlap it, most of them
    // reactive: whenever the shortcut holds, the fixed regions' own pass agrees.
    let mut next = crate::test_rng::unit_floats(2024);
    let method = ConeMethod::ClearPath(ClearPathVariant::Guaranteed);
    let obstacles = AvoidObstacles::default();
    let mut nb = Neighbourhood::default();
    let mut clear = 0;
    for case in 0..400 {
        let mut within = |speed: f32| Vec2::from_angle(next() * 6.3) * next() * speed;
        let agent = AvoidingAgent {
            position: Vec2::ZERO,
            // Sometimes beyond max speed (after a speed change), where the sides may close.
            velocity: within(2.2),
            radius: 0.3,
            max_speed: 1.5,
            preferred: within(1.5),
        };
        nb.movers.clear();
        for _ in 0..1 + case % 8 {
            nb.movers.push(random_mover(&mut next, (0.7, 2.5)));
        }
        if !own_velocity_clear_of_sides(&agent, &nb.movers) {
            continue;
        }
        clear += 1;
        // The fixed regions' own pass, as the gate runs it when the shortcut does not hold.
        let horizons = Horizons {
            agents: 2.0,
            obstacles: 1.0,
        };
        method.build_all(&agent, &mut nb, &obstacles, horizons, 0.1);
        nb.relax.keep_fixed(&nb.regions);
        let searched = searched(&agent, (&nb.relax.fixed, &nb.relax.fixed_levels), u32::MAX);
        let mut open = vec![false; nb.movers.len() + 1];
        searched.open_counts(&mut Default::default(), &mut open);
        assert!(open.iter().all(|&o| o), "case {case}: {open:?}");
    }
    assert!(clear > 150, "the shortcut held in {clear} of 400 cases");
}

#[test]
fn retruncating_the_cones_gives_the_build_at_shorter_horizons() {
    // Pseudo-random walkers (some overlapping the agent) beside a wall and a pillar, for
    // every method: the regions, levels and cones after dividing the horizons by 2 and by
    // 64 are those a build at those horizons gives, to the bit, including the cones that
    // then lie beyond max speed and are left out.
    let mut next = crate::test_rng::unit_floats(31337);
    let obstacles = AvoidObstacles::new(&[crate::scene::Obstacle::Wall {
        a: Vec2::new(-5.0, 1.2),
        b: Vec2::new(5.0, 1.2),
    }]);
    let edges: Vec<usize> = (0..obstacles.vertices.len()).collect();
    let (mut dropped, mut kept) = (0, 0);
    for case in 0..300 {
        let method = [
            ConeMethod::Vo,
            ConeMethod::Rvo,
            ConeMethod::ClearPath(ClearPathVariant::Guaranteed),
            ConeMethod::ClearPath(ClearPathVariant::Relaxed),
            ConeMethod::Brandejsky,
        ][case % 5];
        let agent = AvoidingAgent {
            position: Vec2::ZERO,
            velocity: Vec2::from_angle(next() * 6.3) * next() * 1.5,
            radius: 0.3,
            max_speed: 1.5,
            preferred: Vec2::from_angle(next() * 6.3) * 1.4,
        };
        let mut nb = Neighbourhood::default();
        for _ in 0..1 + case % 9 {
            nb.movers.push(random_mover(&mut next, (0.4, 6.0)));
        }
        nb.static_circles.push(Mover {
            position: Vec2::new(next() * 4.0 - 2.0, -2.0),
            velocity: Vec2::ZERO,
            radius: 0.5,
            reactive: false,
        });
        nb.edges = edges.clone();
        let horizons = Horizons {
            agents: 1.0 + next() * 4.0,
            obstacles: 0.5 + next() * 2.0,
        };
        let mut fresh = nb.clone();
        let before = method.build_all(&agent, &mut nb, &obstacles, horizons, 0.1);
        let full = nb.regions.len();
        for (factor, divided) in [(2.0, 2.0), (32.0, 64.0)] {
            method.retruncate(&agent, &mut nb, factor);
            let shorter = Horizons {
                agents: horizons.agents / divided,
                obstacles: horizons.obstacles / divided,
            };
            let colliding_from = method.build_all(&agent, &mut fresh, &obstacles, shorter, 0.1);
            assert_eq!(colliding_from, before, "case {case}");
            assert_eq!(nb.regions, fresh.regions, "case {case}, ΔT / {divided}");
            assert_eq!(nb.relax.levels, fresh.relax.levels, "case {case}");
            assert_eq!(nb.relax.cones, fresh.relax.cones, "case {case}");
        }
        dropped += full - nb.regions.len();
        kept += nb.relax.cones.iter().filter(|c| c.is_some()).count();
    }
    // Most cones of these close walkers end beyond max speed at ΔT / 64, not all.
    assert!(dropped > 1000 && kept > 10, "{dropped} cones dropped, {kept} kept");
}
