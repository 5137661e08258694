//! Scenario tests of global navigation and agent minds: bundled scenes run headless with
//! `World::step`, asserting the outcomes the seed texts describe.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use crowdlab::scene::{Scene, load_scene};
use crowdlab::sim::mind::StackGoal;
use crowdlab::sim::{Status, World};

fn scene(name: &str) -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)).unwrap()
}

#[test]
fn two_region_world_agents_for_g2_leave_through_g2_and_nobody_enters_there() {
    let mut world = World::new(Arc::new(scene("stria_two_regions.ron")));
    let g2 = 1;
    let mut heading_g2 = HashSet::new();
    let mut first_seen: HashMap<u32, f32> = HashMap::new();
    let mut crossed_portal = HashSet::new();
    while !world.duration_reached() && !world.all_done() {
        world.step();
        for (body, mind) in world.bodies().iter().zip(world.minds()) {
            if body.status.present() {
                first_seen.entry(body.id).or_insert(body.position.x);
                if body.position.x > 21.0 {
                    crossed_portal.insert(body.id);
                }
            }
            if let Some(stack) = mind.goal_stack()
                && stack.entries().contains(&StackGoal::Leave { gate: g2 })
            {
                heading_g2.insert(body.id);
            }
        }
    }
    assert!(
        first_seen.values().all(|&x| x < 1.0),
        "every agent enters at g1 (x = 0): {first_seen:?}"
    );
    let left_by_g2: Vec<u32> = world
        .bodies()
        .iter()
        .zip(world.minds())
        .filter(|(_, m)| m.left_by == Some(g2))
        .map(|(b, _)| b.id)
        .collect();
    assert!(
        left_by_g2.len() >= 5,
        "only {} agents left through g2",
        left_by_g2.len()
    );
    for (body, mind) in world.bodies().iter().zip(world.minds()) {
        if heading_g2.contains(&body.id) && body.status == Status::Removed {
            assert_eq!(mind.left_by, Some(g2), "agent {} was heading for g2", body.id);
        }
        if mind.left_by == Some(g2) {
            assert!(
                crossed_portal.contains(&body.id),
                "agent {} reached g2 through r2",
                body.id
            );
        }
    }
    // Agents that chose g2 and left did so through g2; those who left by g2 had chosen it.
    assert!(left_by_g2.iter().all(|id| heading_g2.contains(id)));
    let g2_share = heading_g2.len() as f32 / first_seen.len() as f32;
    assert!((0.2..0.8).contains(&g2_share), "about half choose g2: {g2_share}");
}

/// Runs an evacuation scene with `count` agents in its first spawn group until everyone has
/// left; returns (time the last agent escaped, agents escaped, agents spawned).
fn evacuate(mut scene: Scene, count: u32) -> (f32, usize, usize) {
    scene.spawns[0].count = count;
    let mut world = World::new(Arc::new(scene));
    let mut last_escape = 0.0;
    while !world.all_done() && !world.duration_reached() {
        world.step();
        if world.bodies().iter().any(|b| b.status.present()) {
            last_escape = world.time();
        }
    }
    let escaped = world.minds().filter(|m| m.escaped).count();
    (last_escape, escaped, world.bodies().len())
}

#[test]
fn evacuation_everyone_reaches_a_shelter_and_time_grows_with_the_crowd() {
    let base = scene("oblak_evacuation.ron");
    // Oblak observed ≈ 43 / 60 / 90 / 120 s for these counts (about 4.1–4.6 agents/s).
    let counts = [175, 275, 400, 540];
    let mut times = Vec::new();
    for &n in &counts {
        let (time, escaped, spawned) = evacuate(base.clone(), n);
        eprintln!(
            "evacuation: {n} agents, last escape at {time:.1} s ({:.2} agents/s)",
            n as f32 / time
        );
        assert_eq!(spawned, n as usize);
        assert_eq!(escaped, spawned, "everyone reaches a shelter ({n} agents)");
        times.push(time);
    }
    assert!(
        times.windows(2).all(|w| w[1] > w[0]),
        "more agents take longer: {times:?}"
    );
    // Roughly linear growth (a bottleneck-limited outflow): the throughput (agents per second)
    // stays about the same for every crowd size.
    let throughput: Vec<f32> = counts.iter().zip(&times).map(|(&n, &t)| n as f32 / t).collect();
    let (lo, hi) = throughput
        .iter()
        .fold((f32::MAX, 0.0f32), |(lo, hi), &q| (lo.min(q), hi.max(q)));
    assert!(hi < 1.6 * lo, "throughput {throughput:?} agents/s");
}

/// Runs an evacuation to the end; returns (last escape time, escapes per exit).
fn exits_used(scene: Scene) -> (f32, Vec<usize>) {
    let exits = scene.evacuation.exits.len();
    let mut world = World::new(Arc::new(scene));
    let mut last = 0.0;
    while !world.all_done() && !world.duration_reached() {
        world.step();
        if world.bodies().iter().any(|b| b.status.present()) {
            last = world.time();
        }
    }
    let mut per_exit = vec![0; exits];
    for m in world.minds() {
        if let Some(e) = m.exit_used {
            per_exit[e] += 1;
        }
    }
    (last, per_exit)
}

#[test]
fn exit_balancing_uses_all_three_exits_and_empties_the_room_sooner() {
    let balanced = scene("oblak_three_exits.ron");
    let mut nearest = balanced.clone();
    nearest.evacuation.balancing = None;
    let (t_on, used_on) = exits_used(balanced);
    let (t_off, used_off) = exits_used(nearest);
    eprintln!("three exits: balancing on {t_on:.1} s {used_on:?}, off {t_off:.1} s {used_off:?}");
    assert_eq!(used_on.iter().sum::<usize>(), 300);
    assert_eq!(used_off.iter().sum::<usize>(), 300);
    assert!(used_on.iter().all(|&n| n >= 20), "every exit is used: {used_on:?}");
    assert!(
        used_off[1] > 200,
        "without balancing most take the middle exit: {used_off:?}"
    );
    assert!(t_on < t_off, "balancing lowers the total time: {t_on} s vs {t_off} s");
}

#[test]
fn zombies_escaped_plus_converted_plus_inside_is_always_the_initial_count() {
    let scene = scene("oblak_zombies.ron");
    let residents = scene.spawns[0].count as usize;
    let mut world = World::new(Arc::new(scene));
    let (mut caught, mut max_converted) = (0, 0);
    while !world.duration_reached() {
        world.step();
        let (mut escaped, mut converted, mut inside) = (0, 0, 0);
        for (body, mind) in world.bodies().iter().zip(world.minds()).take(residents) {
            if mind.escaped {
                escaped += 1;
            } else if mind.converted {
                converted += 1;
            } else if body.status.present() {
                inside += 1;
                caught += usize::from(mind.machine().is_some_and(|m| m.caught()));
            }
        }
        assert_eq!(escaped + converted + inside, residents, "at {:.1} s", world.time());
        max_converted = max_converted.max(converted);
    }
    assert!(caught > 0 && max_converted > 0, "zombies caught and converted someone");
    let escaped = world.minds().take(residents).filter(|m| m.escaped).count();
    eprintln!("zombies: {escaped} escaped, {max_converted} converted of {residents}");
}

#[test]
fn fire_spreads_panic_and_people_escape_through_exits_they_learned_of() {
    let mut world = World::new(Arc::new(scene("oblak_fire.ron")));
    let mut calm_before_fire = true;
    while !world.duration_reached() && !world.all_done() {
        world.step();
        if world.time() < 14.0 {
            calm_before_fire &= world.minds().all(|m| m.machine().is_none_or(|x| x.panic() == 0.0));
        }
    }
    assert!(calm_before_fire, "nobody panics before the fire");
    let escaped = world.minds().filter(|m| m.escaped).count();
    eprintln!("fire: {escaped} of 80 escaped");
    assert!(escaped >= 40, "most people escape: {escaped}");
}

/// The recorded state names of agent 0, tick by tick, in a scene with one person of type
/// "person" at the origin of an empty room (idle 1 s, wander 2 s) and a fire appearing at 4 s.
fn person_states() -> Vec<&'static str> {
    let text = r#"(
      version: 1,
      bounds: (min: (-20.0, -20.0), max: (20.0, 20.0)),
      settings: (dt: 0.1, seed: 1, duration: 12.0),
      profiles: [(name: "p", radius: 0.3, mass: 1.0, max_speed: 1.5, preferred_speed: 1.0, max_force: 4.0,
                  max_turn_rate_deg: 720.0, behaviours: [(behaviour: Arrive(deceleration: Fast), weight: 1.0)])],
      agents: [(id: 0, profile: "p", position: (0.0, 0.0), heading_deg: 0.0, agent_type: Some("person"))],
      targets: [(id: "door", position: (19.0, 0.0), radius: 1.0)],
      agent_types: [(name: "person", idle_time: 1.0, wander_time: 2.0, perception: 8.0, flee_distance: 6.0)],
      hazards: [(position: (2.0, 2.0), start_time: 4.0)],
      evacuation: (exits: ["door"]),
    )"#;
    let scene = crowdlab::scene::parse_scene(text, Path::new("inline.ron")).unwrap();
    let mut world = World::new(Arc::new(scene));
    let mut states = Vec::new();
    while !world.duration_reached() && world.bodies()[0].status.present() {
        world.step();
        states.push(crowdlab::sim::STATE_NAMES[world.minds().next().unwrap().state_index() as usize]);
    }
    states
}

#[test]
fn person_state_transitions_take_effect_one_tick_later() {
    let states = person_states();
    // Idle for idle_time: ticks 1..=10 run at t = 0.0..0.9; the tick at t = 1.0 decides to wander,
    // and the next tick is the first wander tick.
    assert!(states[..11].iter().all(|s| *s == "idle"), "{:?}", &states[..12]);
    assert_eq!(states[11], "wander");
    // Wander lasts wander_time, then idle again (again one tick later).
    let wander_end = states.iter().skip(11).position(|s| *s != "wander").unwrap() + 11;
    assert_eq!(states[wander_end], "idle", "{states:?}");
    assert!(
        (20..=22).contains(&(wander_end - 11)),
        "wandered {} ticks",
        wander_end - 11
    );
    // The fire appears at 4 s (tick 41 runs at t = 4.0): flee from the tick after it is sensed.
    let flee = states.iter().position(|s| *s == "flee").expect("flees the fire");
    assert_eq!(flee, 41, "{:?}", &states[38..44]);
    // Panic with a known exit in view: after fleeing far enough, move to the exit and escape.
    let after: Vec<_> = states[flee..].iter().filter(|s| **s != "flee").collect();
    assert!(after.iter().all(|s| **s == "move" || **s == "search"), "{after:?}");
}
