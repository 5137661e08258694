//! The bundled avoidance scenes, built in code so their many agents stay exact
//! (`scenes/<file>.ron` holds each one as a plain scene file).

use std::f32::consts::TAU;

use glam::Vec2;

use super::{add_block, add_moving_circle, add_walker, goal_profile, scene};
use crowdlab::scene::Scene;
use crowdlab::scene::avoidance::{Avoidance, BrandejskyParams, ObstacleParams, PreferredVelocity};

/// File name (without `.ron`) and scene of every bundled avoidance scene.
pub fn bundled() -> Vec<(&'static str, Scene)> {
    let mut list = vec![
        ("orca_circle", orca_circle(250, 200.0)),
        ("orca_blocks", orca_blocks()),
        ("oblak_circle_crossing", oblak_circle_crossing()),
        ("oblak_road_crossing", oblak_road_crossing()),
    ];
    list.extend(indalgotest());
    list
}

/// RVO2's agent defaults of the Circle example (15, 10, 10, 10).
fn rvo2_circle_params() -> ObstacleParams {
    ObstacleParams::default()
}

/// RVO2's Circle: `n` agents evenly on a circle of `radius` m walk to the antipodal point;
/// dt 0.25, radius 1.5, max speed 2, preferred velocity a unit vector toward the goal.
pub fn orca_circle(n: usize, radius: f32) -> Scene {
    let mut s = scene(
        "ORCA circle",
        &format!(
            "RVO2's Circle benchmark: {n} agents evenly spaced on a circle of radius {radius} m each walk to the \
             antipodal point with ORCA (neighbor_dist 15, max_neighbors 10, time horizons 10 s, radius 1.5 m, max \
             speed 2 m/s, preferred velocity a unit vector toward the goal, dt 0.25 s). Watch the ring contract, \
             the crowd swirl around the centre and every agent come to rest within its radius of its goal. \
             ORCA's guarantee holds for one time step in continuous time, so in the jam at the centre bodies do \
             overlap: the deepest overlap measured here is 0.64 m (RVO2 itself reaches 0.66 m on this scene)."
        ),
        radius + 10.0,
        0.25,
        (radius * 6.0).max(300.0),
        15.0,
    );
    s.profiles.push(goal_profile(
        "orca",
        1.5,
        2.0,
        1.0,
        Avoidance::Orca(rvo2_circle_params()),
    ));
    for i in 0..n {
        let p = Vec2::from_angle(i as f32 * TAU / n as f32) * radius;
        add_walker(&mut s, "orca", p, -p, 1.5);
    }
    s
}

/// RVO2's Blocks: four 5×5 groups cross between four 30×30 blocks to the opposite corner
/// (without RVO2's roadmap, agents slide along the blocks and jam in the central crossing for
/// several minutes before the last ones get through).
pub fn orca_blocks() -> Scene {
    let mut s = scene(
        "ORCA blocks",
        "RVO2's Blocks benchmark: 100 agents in four 5×5 groups walk to the opposite corner between four 30×30 m \
         blocks with ORCA (neighbor_dist 15, max_neighbors 10, time horizons 5 s / 5 s, radius 2 m, max speed 2 \
         m/s, preferred velocity a unit vector toward the goal with a 1e-4 m/s random perturbation against \
         symmetric deadlocks). Watch the groups meet in the central crossing, jam there for minutes while agents \
         slide along the blocks, and trickle out to their corners; no agent enters a block. An agent is done \
         within 20 m of its corner, as in RVO2.",
        110.0,
        0.25,
        2400.0,
        15.0,
    );
    let mut profile = goal_profile(
        "orca",
        2.0,
        2.0,
        1.0,
        Avoidance::Orca(ObstacleParams {
            time_horizon: 5.0,
            time_horizon_obst: 5.0,
            ..ObstacleParams::default()
        }),
    );
    profile.preferred_velocity = PreferredVelocity::TowardGoal { perturbation: 1e-4 };
    s.profiles.push(profile);
    for i in 0..5 {
        for j in 0..5 {
            let (x, y) = (55.0 + i as f32 * 10.0, 55.0 + j as f32 * 10.0);
            for (sx, sy) in [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
                add_walker(
                    &mut s,
                    "orca",
                    Vec2::new(sx * x, sy * y),
                    Vec2::new(-sx * 75.0, -sy * 75.0),
                    20.0,
                );
            }
        }
    }
    for (sx, sy) in [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
        let a = Vec2::new(sx * 10.0, sy * 10.0);
        let b = Vec2::new(sx * 40.0, sy * 40.0);
        add_block(&mut s, a.min(b), a.max(b));
    }
    s
}

/// Oblak's circle crossing (§6.1.3): 480 agents on a circle walk to the antipode with ORCA.
fn oblak_circle_crossing() -> Scene {
    let n = 480;
    let radius = 60.0;
    let mut s = scene(
        "Oblak circle crossing",
        "Oblak's circle crossing (thesis §6.1.3): 480 agents of radius 0.25 m on a 60 m circle each walk to the \
         diametrically opposite point with ORCA (sensing 5 m, time horizon 3 s). All straight paths meet in the \
         centre: watch a dense round jam form, slowly rotate and dissolve as agents find their way through, \
         taking minutes for the last ones, without overlaps.",
        70.0,
        0.1,
        900.0,
        5.0,
    );
    s.profiles.push(goal_profile(
        "pedestrian",
        0.25,
        1.8,
        1.4,
        Avoidance::Orca(ObstacleParams {
            neighbor_dist: 5.0,
            max_neighbors: 10,
            time_horizon: 3.0,
            time_horizon_obst: 1.0,
            ..ObstacleParams::default()
        }),
    ));
    for i in 0..n {
        let p = Vec2::from_angle(i as f32 * TAU / n as f32) * radius;
        add_walker(&mut s, "pedestrian", p, -p, 0.5);
    }
    s
}

/// Oblak's road crossing (§6.1.4): four groups cross a four-lane road with traffic in
/// alternating directions; vehicles are moving non-reactive circles.
fn oblak_road_crossing() -> Scene {
    let mut s = scene(
        "Oblak road crossing",
        "Oblak's crossing of dynamic obstacles (thesis §6.1.4): four groups of 40 pedestrians cross a four-lane \
         road from both sides while vehicles (moving circles of radius 1.2 m at 6 m/s, alternating directions per \
         lane) pass without reacting. The pedestrians use ORCA and take full responsibility for the vehicles: \
         watch them slow down and wait at lane edges, dash across in lines behind a vehicle or curve around it. \
         A vehicle faster than a pedestrian can still catch one that is mid-lane (a few contacts are expected).",
        60.0,
        0.1,
        120.0,
        5.0,
    );
    s.profiles.push(goal_profile(
        "pedestrian",
        0.3,
        2.0,
        1.4,
        Avoidance::Orca(ObstacleParams {
            neighbor_dist: 15.0,
            max_neighbors: 10,
            time_horizon: 3.0,
            time_horizon_obst: 2.0,
            ..ObstacleParams::default()
        }),
    ));
    for (group, (x0, y0, dir)) in [
        (-25.0, -14.0, 1.0),
        (15.0, -14.0, 1.0),
        (-25.0, 14.0, -1.0),
        (15.0, 14.0, -1.0),
    ]
    .into_iter()
    .enumerate()
    {
        for k in 0..40 {
            let (col, row) = ((k % 8) as f32, (k / 8) as f32);
            let offset = if group % 2 == 0 { 0.0 } else { 0.5 };
            let from = Vec2::new(x0 + col * 1.3 + offset, y0 - dir * row * 1.3);
            let to = Vec2::new(from.x, -from.y);
            add_walker(&mut s, "pedestrian", from, to, 0.5);
        }
    }
    for (lane, y) in [-4.5f32, -1.5, 1.5, 4.5].into_iter().enumerate() {
        let dir = if lane % 2 == 0 { 1.0 } else { -1.0 };
        for k in 0..32 {
            let x = -dir * (k as f32 * 25.0 + lane as f32 * 7.0) + dir * 40.0;
            add_moving_circle(&mut s, Vec2::new(x, y), 1.2, Vec2::new(6.0 * dir, 0.0));
        }
    }
    s
}

/// Brandejský's pedestrian profile (IndAlgoTest's XML values: radius 0.4, speed 1.8, reaction 1.7 m).
fn brandejsky_profile(name: &str, radius: f32, speed: f32, reaction_distance: f32) -> crowdlab::scene::Profile {
    goal_profile(
        name,
        radius,
        speed,
        speed,
        Avoidance::Brandejsky(BrandejskyParams {
            reaction_distance,
            ..BrandejskyParams::default()
        }),
    )
}

fn indalgo_scene(name: &str, description: &str, half_size: f32, duration: f32) -> Scene {
    scene(name, description, half_size, 0.1, duration, 2.0)
}

/// IndAlgoTest's experiments (Brandejský ch. 5), E1–E11.
pub fn indalgotest() -> Vec<(&'static str, Scene)> {
    let mut out = Vec::new();
    let double = 2.0 * 1.7;
    let head_on = |name: &str, description: &str, speeds: (f32, f32), reaction: f32| {
        let mut s = indalgo_scene(name, description, 8.0, 20.0);
        s.profiles.push(brandejsky_profile("ped0", 0.4, speeds.0, reaction));
        s.profiles.push(brandejsky_profile("ped1", 0.4, speeds.1, reaction));
        add_walker(&mut s, "ped0", Vec2::new(-6.0, 0.0), Vec2::new(6.0, 0.0), 0.2);
        add_walker(&mut s, "ped1", Vec2::new(6.0, 0.0), Vec2::new(-6.0, 0.0), 0.2);
        s
    };
    out.push((
        "indalgo_two_pedestrians1",
        head_on(
            "IndAlgoTest E1: two pedestrians head-on",
            "Brandejský E1 (two-pedestrians1): two pedestrians walk head-on, both with double reaction distance \
             (3.4 m). Each ignores the other's velocity obstacle while its preferred velocity is outside it, \
             slows down once it enters, passes on the right side of the VO and resumes its preferred velocity; \
             no collision.",
            (1.8, 1.8),
            double,
        ),
    ));
    out.push((
        "indalgo_two_pedestrians2",
        head_on(
            "IndAlgoTest E2: head-on at unequal speeds",
            "Brandejský E2 (two-pedestrians2): as E1, but pedestrian 0 walks twice as fast as pedestrian 1. The \
             pass is collision-free; the velocity may oscillate (the thesis attributes this to the truncated cone \
             apex).",
            (1.8, 0.9),
            double,
        ),
    ));
    let mut e3 = indalgo_scene(
        "IndAlgoTest E3: oblique crossing, unequal radii",
        "Brandejský E3 (two-pedestrians3): two pedestrians cross at a slight angle; pedestrian 1 is 1.5 times as \
         wide as pedestrian 0. They pass without problem.",
        8.0,
        20.0,
    );
    e3.profiles.push(brandejsky_profile("ped0", 0.4, 1.8, 1.7));
    e3.profiles.push(brandejsky_profile("ped1", 0.6, 1.8, 1.7));
    add_walker(&mut e3, "ped0", Vec2::new(-6.0, 0.0), Vec2::new(6.0, 0.0), 0.2);
    add_walker(&mut e3, "ped1", Vec2::new(6.0, -1.2), Vec2::new(-6.0, 1.2), 0.2);
    out.push(("indalgo_two_pedestrians3", e3));
    let with_obstacle = |name: &str, description: &str, obstacle_speed: f32| {
        let mut s = indalgo_scene(name, description, 10.0, 20.0);
        s.profiles.push(brandejsky_profile("ped0", 0.4, 1.8, 1.7));
        add_walker(&mut s, "ped0", Vec2::new(6.0, 0.0), Vec2::new(-6.0, 0.0), 0.2);
        add_moving_circle(&mut s, Vec2::new(-6.0, 0.0), 0.5, Vec2::new(obstacle_speed, 0.0));
        s
    };
    out.push((
        "indalgo_pedestrian_and_obstacle1",
        with_obstacle(
            "IndAlgoTest E4: moving obstacle at half speed",
            "Brandejský E4 (pedestrian-and-obstacle1): a pedestrian meets a moving non-reactive obstacle head-on; \
             the obstacle moves at half the pedestrian's speed, so the pedestrian avoids it alone (VO apex at the \
             obstacle's velocity). Avoidance succeeds.",
            0.9,
        ),
    ));
    out.push((
        "indalgo_pedestrian_and_obstacle2",
        with_obstacle(
            "IndAlgoTest E5: moving obstacle at equal speed (known limit)",
            "Brandejský E5 (pedestrian-and-obstacle2): as E4, but the obstacle is as fast as the pedestrian. The \
             thesis reports a collision: a non-reciprocating obstacle that fast, noticed only within the reaction \
             distance, cannot always be escaped. A documented known limit of the method.",
            1.8,
        ),
    ));
    let mut e6 = indalgo_scene(
        "IndAlgoTest E6: five pedestrians",
        "Brandejský E6 (five-pedestrians): three pedestrians from the right and two from the left walk \
         horizontally toward each other. The outer ones pass quickly; the middle one nearly stops and waits for \
         the others to separate. No collision.",
        8.0,
        30.0,
    );
    e6.profiles.push(brandejsky_profile("ped", 0.4, 1.8, 1.7));
    for y in [-1.0, 0.0, 1.0] {
        add_walker(&mut e6, "ped", Vec2::new(6.0, y), Vec2::new(-6.0, y), 0.2);
    }
    for y in [-0.5, 0.5] {
        add_walker(&mut e6, "ped", Vec2::new(-6.0, y), Vec2::new(6.0, y), 0.2);
    }
    out.push(("indalgo_five_pedestrians", e6));
    let four_way = |name: &str, description: &str, reaction: f32| {
        let mut s = indalgo_scene(name, description, 8.0, 30.0);
        s.profiles.push(brandejsky_profile("ped", 0.4, 1.8, reaction));
        for k in 0..4 {
            let p = Vec2::from_angle(k as f32 * TAU / 4.0 - TAU / 4.0) * 5.0;
            add_walker(&mut s, "ped", p, -p, 0.2);
        }
        s
    };
    out.push((
        "indalgo_four_pedestrians1",
        four_way(
            "IndAlgoTest E7: four-way crossing",
            "Brandejský E7 (four-pedestrians1): four pedestrians come from four sides toward the centre. They meet \
             in the middle and form a counter-clockwise vortex that lets them through, with some oscillation.",
            1.7,
        ),
    ));
    out.push((
        "indalgo_four_pedestrians2",
        four_way(
            "IndAlgoTest E8: four-way crossing, double reaction distance (known limit)",
            "Brandejský E8 (four-pedestrians2): as E7 with the reaction distance doubled. The thesis reports that \
             all four get stuck in a deadlock (shifting one target slightly breaks it). A documented known limit \
             of the method.",
            double,
        ),
    ));
    let group = |s: &mut Scene, profile: &str, center: Vec2, travel: Vec2, rows: usize, cols: usize| {
        for r in 0..rows {
            for c in 0..cols {
                let from = center
                    + Vec2::new(
                        (c as f32 - (cols - 1) as f32 / 2.0) * 1.2,
                        (r as f32 - (rows - 1) as f32 / 2.0) * 1.2,
                    );
                add_walker(s, profile, from, from + travel, 0.5);
            }
        }
    };
    let mut e9 = indalgo_scene(
        "IndAlgoTest E9: two crossing groups",
        "Brandejský E9 (crowd-two-groups-crossing): a group heading up-left crosses a group heading up-right. \
         Velocities oscillate at times, but overall the crossing is smooth and collision-free.",
        20.0,
        40.0,
    );
    e9.profiles.push(brandejsky_profile("magenta", 0.4, 1.8, 1.7));
    e9.profiles.push(brandejsky_profile("white", 0.4, 1.8, 1.7));
    group(&mut e9, "magenta", Vec2::new(8.0, -8.0), Vec2::new(-16.0, 16.0), 4, 5);
    group(&mut e9, "white", Vec2::new(-8.0, -8.0), Vec2::new(16.0, 16.0), 4, 5);
    let mut e10 = e9.clone();
    e10.name = "IndAlgoTest E10: three crossing groups".into();
    e10.description = "Brandejský E10 (crowd-three-groups-crossing): the two groups of E9 plus a group heading \
                       down through the crossing. Pedestrians slow down a lot in the middle, but everything \
                       resolves without collision."
        .into();
    e10.profiles.push(brandejsky_profile("cyan", 0.4, 1.8, 1.7));
    group(&mut e10, "cyan", Vec2::new(0.0, 12.0), Vec2::new(0.0, -24.0), 4, 5);
    out.push(("indalgo_crowd_two_groups_crossing", e9));
    out.push(("indalgo_crowd_three_groups_crossing", e10));
    let mut e11 = indalgo_scene(
        "IndAlgoTest E11: two opposing groups of 80",
        "Brandejský E11 (crowd-two-groups): 160 pedestrians in two groups walk directly against each other. \
         Lanes form as in real crowds; at an advanced stage the flow clogs and clears once no more pedestrians \
         arrive; the motion is slightly jerky.",
        40.0,
        80.0,
    );
    e11.profiles.push(brandejsky_profile("ped", 0.4, 1.8, 1.7));
    group(&mut e11, "ped", Vec2::new(-22.0, 0.0), Vec2::new(44.0, 0.0), 10, 8);
    group(&mut e11, "ped", Vec2::new(22.0, 0.0), Vec2::new(-44.0, 0.0), 10, 8);
    out.push(("indalgo_crowd_two_groups", e11));
    out
}
