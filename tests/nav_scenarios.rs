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
