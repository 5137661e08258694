//! SteerSuite test-case import: every element of a hand-written case, seeded random regions,
//! reported skips, and a headless run of an imported case.

use crate::common;

use std::sync::Arc;

use common::data;
use crowdlab::record::Frame;
use crowdlab::scene::import::{import_file, import_steersuite};
use crowdlab::scene::{Goal, Obstacle, Scene};
use crowdlab::sim::run::{RunLimit, run_scene};
use glam::Vec2;

fn every_element() -> (Scene, Vec<crowdlab::scene::import::Warning>) {
    import_file(&data("steersuite/every_element.xml")).unwrap()
}

fn close(a: Vec2, b: Vec2) -> bool {
    a.distance(b) < 1e-4
}

fn polygon(o: &Obstacle) -> &[Vec2] {
    match o {
        Obstacle::Polygon { vertices } => vertices,
        other => panic!("not a polygon: {other:?}"),
    }
}

#[test]
fn header_maps_to_name_description_and_bounds() {
    let (scene, _) = every_element();
    assert_eq!(scene.name, "every-element");
    assert!(
        scene.description.starts_with("Every element of the format, once."),
        "{}",
        scene.description
    );
    assert!(
        scene
            .description
            .contains("Passing criteria: All agents reach their goals.")
    );
    assert_eq!(scene.bounds.min, Vec2::new(-20.0, -10.0));
    assert_eq!(scene.bounds.max, Vec2::new(20.0, 10.0));
}

#[test]
fn obstacles_map_to_the_ground_plane() {
    let (scene, _) = every_element();
    assert_eq!(scene.obstacles.len(), 6);
    // AABB: x -2..2, z 4..5.
    let aabb = polygon(&scene.obstacles[0]);
    assert!(
        aabb.iter().all(|v| v.x.abs() == 2.0 && (v.y == 4.0 || v.y == 5.0)),
        "{aabb:?}"
    );
    // Region: three 1 m squares inside x 10..18, z -8..-2.
    for o in &scene.obstacles[1..4] {
        let v = polygon(o);
        let (min, max) = v
            .iter()
            .fold((Vec2::MAX, Vec2::MIN), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
        assert!(close(max - min, Vec2::ONE), "{v:?}");
        assert!(
            min.x >= 10.0 && max.x <= 18.0 && min.y >= -8.0 && max.y <= -2.0,
            "{v:?}"
        );
    }
    assert_eq!(
        scene.obstacles[4],
        Obstacle::Circle {
            center: Vec2::new(-10.0, 5.0),
            radius: 1.5
        }
    );
    // Oriented box 4 × 2 turned by 90°: 2 wide in x, 4 deep in z, centred on (0, -6).
    let b = polygon(&scene.obstacles[5]);
    let (min, max) = b
        .iter()
        .fold((Vec2::MAX, Vec2::MIN), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    assert!(
        close(min, Vec2::new(-1.0, -8.0)) && close(max, Vec2::new(1.0, -4.0)),
        "{b:?}"
    );
}

#[test]
fn agents_and_goal_sequences() {
    let (scene, _) = every_element();
    assert_eq!(scene.agents.len(), 4 + 5);
    let ids: Vec<u32> = scene.agents.iter().map(|a| a.id).collect();
    assert_eq!(ids, (0..9).collect::<Vec<_>>());
    // Two seeks then idle: an open path through both targets.
    let walker = &scene.agents[0];
    assert_eq!(walker.position, Vec2::new(-15.0, 0.0));
    assert_eq!(walker.heading_deg, 0.0);
    let Goal::Path(id) = &walker.goal else {
        panic!("{:?}", walker.goal)
    };
    let path = scene.path(id).unwrap();
    assert_eq!(path.points, vec![Vec2::ZERO, Vec2::new(15.0, 2.0)]);
    assert!(!path.closed);
    // Flee from (3, 0) starting at (5, 0): away along +x to the world edge (inset by the radius).
    let flee = &scene.agents[1];
    let profile = scene.profile(&flee.profile).unwrap();
    assert_eq!((profile.radius, profile.preferred_speed), (0.4, 2.0));
    assert_eq!(flee.heading_deg, 90.0, "direction +z is +y");
    let Goal::Target(id) = &flee.goal else { panic!() };
    assert!(close(scene.target(id).unwrap().position, Vec2::new(19.6, 0.0)));
    // Flow along +z from (-5, -2): to the top edge.
    let Goal::Target(id) = &scene.agents[2].goal else {
        panic!()
    };
    assert!(close(scene.target(id).unwrap().position, Vec2::new(-5.0, 9.5)));
    // Idle then an unsupported goal: no goal.
    assert_eq!(scene.agents[3].goal, Goal::None);
    // The region's agents start inside it, apart, each with its own random target in the world.
    let region = &scene.agents[4..];
    for (i, a) in region.iter().enumerate() {
        assert!(
            (-17.5..=-12.5).contains(&a.position.x) && (-5.5..=-2.5).contains(&a.position.y),
            "{a:?}"
        );
        for b in &region[i + 1..] {
            assert!(a.position.distance(b.position) >= 1.0);
        }
        let Goal::Target(id) = &a.goal else { panic!() };
        let t = scene.target(id).unwrap().position;
        assert!(t.x.abs() <= 19.5 && t.y.abs() <= 9.5);
    }
    let headings: std::collections::HashSet<i64> = region.iter().map(|a| a.heading_deg as i64).collect();
    assert!(headings.len() > 1, "random directions differ");
}

#[test]
fn random_regions_are_seeded() {
    let (a, _) = every_element();
    let (b, _) = every_element();
    assert_eq!(a, b, "the same file imports to the same scene");
    // The text entry point draws the same random values as the file entry point.
    let text = std::fs::read_to_string(data("steersuite/every_element.xml")).unwrap();
    let (c, _) = import_steersuite(&text, &data("steersuite/every_element.xml")).unwrap();
    assert_eq!(a, c);
}

#[test]
fn unsupported_elements_are_reported_with_their_lines() {
    let (_, warnings) = every_element();
    let found = |line: usize, needle: &str| {
        assert!(
            warnings.iter().any(|w| w.line == line && w.message.contains(needle)),
            "no warning at line {line} containing {needle:?}: {warnings:#?}"
        )
    };
    found(24, "<suggestedCameraView>");
    found(167, "agentEmitter imported as a spawn group");
    found(65, "agent name \"walker\"");
    found(91, "initial speed 1");
    found(99, "fleeStaticTarget approximated");
    found(115, "flowStaticDirection approximated");
    found(131, "idle pause");
    found(135, "<seekDynamicTarget>");
    found(123, "agent 3 has no goal crowdlab can walk to");
    found(167, "has no goal crowdlab can walk to");
    found(
        91,
        "timeDuration adds up to 1000 s; crowdlab runs every agent for the scene's 3000 s",
    );
    assert_eq!(warnings.len(), 14, "{warnings:#?}");
    assert!(warnings[0].to_string().contains("every_element.xml:24:"));
}

#[test]
fn malformed_cases_name_the_line() {
    let file = std::path::Path::new("case.xml");
    let no_bounds = "<SteerBenchTestCase>\n  <header>\n    <name>x</name>\n  </header>\n</SteerBenchTestCase>";
    let e = import_steersuite(no_bounds, file).unwrap_err().to_string();
    assert_eq!(e, "case.xml:2: <header> needs <worldBounds>");
    let no_header = "<SteerBenchTestCase>\n  <agent/>\n</SteerBenchTestCase>";
    let e = import_steersuite(no_header, file).unwrap_err().to_string();
    assert!(e.contains("<header> must be the first"), "{e}");
    let bad_number = "<SteerBenchTestCase>\n<header><worldBounds>\n<xmin>-1</xmin><xmax>1</xmax><ymin>0</ymin><ymax>0</ymax>\n<zmin>minus</zmin><zmax>1</zmax>\n</worldBounds></header>\n</SteerBenchTestCase>";
    let e = import_steersuite(bad_number, file).unwrap_err().to_string();
    assert_eq!(e, "case.xml:4: <zmin> \"minus\" is not a finite number");
}

#[test]
fn imported_case_runs_headless() {
    let (scene, warnings) = import_file(&data("steersuite/crossing.xml")).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut frames: Vec<Frame> = Vec::new();
    let metrics = run_scene(Arc::new(scene.clone()), RunLimit::default(), &mut frames, |_, _| {}).unwrap();
    assert_eq!(metrics.summary.agents_reached, 4, "{:?}", metrics.summary);
    // Each left at its target: gone from the last frame, its last position within the target.
    assert!(frames.last().unwrap().agents.is_empty());
    for a in &scene.agents {
        let Goal::Target(id) = &a.goal else { panic!() };
        let target = scene.target(id).unwrap();
        let m = metrics.agents.iter().find(|m| m.id == a.id).unwrap();
        assert!(
            m.final_position.distance(target.position) <= target.radius + 1e-3,
            "{m:?}"
        );
    }
}

#[test]
fn cli_import_writes_a_scene_or_exits_2_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("case.ron");
    let run = |file: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_crowdlab"))
            .arg("import")
            .arg(file)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap()
    };
    let ok = run(&data("steersuite/crossing.xml"));
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    assert_eq!(crowdlab::scene::load_scene(&out).unwrap().agents.len(), 4);
    let bad = dir.path().join("bad.xml");
    std::fs::write(
        &bad,
        "<SteerBenchTestCase>\n  <header>\n  </header>\n</SteerBenchTestCase>\n",
    )
    .unwrap();
    let failed = run(&bad);
    assert_eq!(failed.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(stderr.contains("bad.xml:2: <header> needs <worldBounds>"), "{stderr}");
}

/// A test case around `body` in a 40 × 40 m world (`<header>` supplied).
fn case(body: &str) -> String {
    format!(
        "<SteerBenchTestCase>\n<header><version>1.0</version><name>t</name><worldBounds>\n\
         <xmin>-20</xmin><xmax>20</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-20</zmin><zmax>20</zmax>\n\
         </worldBounds></header>\n{body}\n</SteerBenchTestCase>"
    )
}

#[test]
fn oriented_box_turns_like_steersuite_rotate_in_xz_plane() {
    // A 20 × 1 box at (3, -2) turned by 20°. SteerSuite's corners (x' = x cos θ + z sin θ,
    // z' = z cos θ − x sin θ about the centre), with (x, z) read as crowdlab's (x, y):
    let text = case(
        "<orientedBoxObstacle><thetaY>20</thetaY>\
         <size><x>20</x><y>1</y><z>1</z></size><position><x>3</x><y>0</y><z>-2</z></position>\
         </orientedBoxObstacle>",
    );
    let (scene, _) = import_steersuite(&text, std::path::Path::new("box.xml")).unwrap();
    let corners = polygon(&scene.obstacles[0]);
    let expected = [
        Vec2::new(-6.5679, 0.9504),
        Vec2::new(12.2259, -5.8900),
        Vec2::new(12.5679, -4.9504),
        Vec2::new(-6.2259, 1.8900),
    ];
    for e in expected {
        assert!(
            corners.iter().any(|c| c.distance(e) < 1e-3),
            "SteerSuite corner {e} missing from {corners:?}"
        );
    }
}

#[test]
fn bounds_with_min_above_max_are_swapped_with_a_warning() {
    let text = "<SteerBenchTestCase>\n<header><worldBounds>\n\
        <xmin>20</xmin><xmax>-20</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-10</zmin><zmax>10</zmax>\n\
        </worldBounds></header>\n\
        <obstacle><xmin>-1</xmin><xmax>1</xmax><ymin>0</ymin><ymax>1</ymax><zmin>3</zmin><zmax>2</zmax></obstacle>\n\
        </SteerBenchTestCase>";
    let (scene, warnings) = import_steersuite(text, std::path::Path::new("swap.xml")).unwrap();
    assert_eq!(scene.bounds.min, Vec2::new(-20.0, -10.0));
    assert_eq!(scene.bounds.max, Vec2::new(20.0, 10.0));
    let v = polygon(&scene.obstacles[0]);
    assert!(
        v.iter().all(|p| p.x.abs() == 1.0 && (p.y == 2.0 || p.y == 3.0)),
        "{v:?}"
    );
    let swapped: Vec<usize> = warnings
        .iter()
        .filter(|w| w.message.contains("min above max"))
        .map(|w| w.line)
        .collect();
    assert_eq!(swapped, vec![2, 5], "{warnings:#?}");
}

#[test]
fn agents_leave_at_their_last_goal_so_they_block_no_one_behind() {
    // A 1.2 m corridor: the front agent's goal lies in it, the one behind walks on past it.
    let seek = |x: i32| {
        format!(
            "<goalSequence><seekStaticTarget><targetLocation><x>{x}</x><y>0</y><z>0</z></targetLocation>\
             <timeDuration>100</timeDuration></seekStaticTarget></goalSequence>"
        )
    };
    let agent = |x: i32, goal: i32| {
        format!(
            "<agent><initialConditions><radius>0.5</radius><position><x>{x}</x><y>0</y><z>0</z></position>\
             </initialConditions>{}</agent>",
            seek(goal)
        )
    };
    let walls = "<obstacle><xmin>-8</xmin><xmax>8</xmax><ymin>0</ymin><ymax>1</ymax><zmin>0.6</zmin><zmax>3</zmax></obstacle>\
                 <obstacle><xmin>-8</xmin><xmax>8</xmax><ymin>0</ymin><ymax>1</ymax><zmin>-3</zmin><zmax>-0.6</zmax></obstacle>";
    let text = case(&format!("{walls}{}{}", agent(-5, 0), agent(-7, 6)));
    let (scene, _) = import_steersuite(&text, std::path::Path::new("corridor.xml")).unwrap();
    assert_eq!(scene.settings.on_arrival, crowdlab::scene::ArrivalPolicy::Remove);
    let metrics = run_scene(
        Arc::new(scene),
        RunLimit::default(),
        &mut Vec::<Frame>::new(),
        |_, _| {},
    )
    .unwrap();
    assert_eq!(metrics.summary.agents_reached, 2, "{:?}", metrics.summary);
}

#[test]
fn imported_agents_walk_with_orca_and_plan_round_obstacles() {
    let (scene, _) = import_file(&data("steersuite/crossing.xml")).unwrap();
    assert_eq!(scene.navigation.planner, crowdlab::scene::PlannerKind::AnyAngle);
    for p in &scene.profiles {
        assert!(
            matches!(p.avoidance, crowdlab::scene::avoidance::Avoidance::Orca(_)),
            "{p:?}"
        );
        assert!(p.behaviours.is_empty(), "{p:?}");
    }
    assert_eq!(crowdlab::scene::validate(&scene), vec![], "passes check");
    // Without obstacles there is nothing to plan round.
    let text = case(
        "<agent><initialConditions><position><x>0</x><y>0</y><z>0</z></position></initialConditions>\
         <goalSequence><seekStaticTarget><targetLocation><x>5</x><y>0</y><z>0</z></targetLocation>\
         </seekStaticTarget></goalSequence></agent>",
    );
    let (open, _) = import_steersuite(&text, std::path::Path::new("open.xml")).unwrap();
    assert_eq!(open.navigation.planner, crowdlab::scene::PlannerKind::Straight);
}

#[test]
fn random_targets_keep_a_metre_clear_of_obstacles() {
    // A block covers x < 8 of the 40 × 40 world: a random target has to lie at x ≥ 9.
    let text = case(
        "<obstacle><xmin>-20</xmin><xmax>8</xmax><ymin>0</ymin><ymax>1</ymax><zmin>-20</zmin><zmax>20</zmax></obstacle>\
         <agentRegion><numAgents>5</numAgents><regionBounds><xmin>8</xmin><xmax>20</xmax><ymin>0</ymin><ymax>0</ymax>\
         <zmin>-20</zmin><zmax>20</zmax></regionBounds><initialConditions><radius>0.5</radius></initialConditions>\
         <goalSequence><seekStaticTarget><targetLocation><random>true</random></targetLocation></seekStaticTarget>\
         </goalSequence></agentRegion>",
    );
    let (scene, _) = import_steersuite(&text, std::path::Path::new("random.xml")).unwrap();
    assert_eq!(scene.agents.len(), 5);
    for a in &scene.agents {
        let Goal::Target(id) = &a.goal else { panic!("{a:?}") };
        let t = scene.target(id).unwrap().position;
        assert!(t.x >= 9.0 - 1e-4, "target {t} is within 1 m of the block");
    }
}

#[test]
fn box_goals_emitters_and_durations_are_kept() {
    let (scene, warnings) = import_file(&data("steersuite/cases/box_goals.xml")).unwrap();
    // Six agents from x −9..−5 walk into the box x 5..8, z −4..4: each to the nearest point with
    // its body inside (x 5.5, its own z within −3.5..3.5).
    for a in &scene.agents[..6] {
        let Goal::Target(id) = &a.goal else { panic!("{a:?}") };
        let t = scene.target(id).unwrap().position;
        assert!(
            close(t, Vec2::new(5.5, a.position.y.clamp(-3.5, 3.5))),
            "{t} for {}",
            a.position
        );
    }
    // A box then a point: a path through the box's nearest point.
    let Goal::Path(id) = &scene.agents[6].goal else {
        panic!()
    };
    assert_eq!(
        scene.path(id).unwrap().points,
        vec![Vec2::new(0.0, 6.5), Vec2::new(8.0, 8.0)]
    );
    assert_eq!(scene.settings.duration, 400.0, "the longest total timeDuration");
    assert!(
        warnings.iter().any(|w| w.message.contains("adds up to 200 s")),
        "{warnings:#?}"
    );

    let (emitted, warnings) = import_file(&data("steersuite/cases/emitter.xml")).unwrap();
    assert_eq!(emitted.agents.len(), 1);
    let [group] = emitted.spawns.as_slice() else {
        panic!("{:?}", emitted.spawns)
    };
    assert_eq!(group.count, 1);
    let crowdlab::scene::SpawnSource::Area { min, max } = group.source else {
        panic!()
    };
    assert!(close((min + max) * 0.5, Vec2::new(-8.0, 0.0)), "{min} {max}");
    let Goal::Target(id) = &group.goal else { panic!() };
    assert_eq!(emitted.target(id).unwrap().position, Vec2::new(8.0, 0.0));
    assert!(warnings.iter().any(|w| w.message.contains("agentEmitter")));
}

#[test]
fn agents_without_a_goal_are_reported() {
    let text = case(
        "<agent><initialConditions><position><x>0</x><y>0</y><z>0</z></position></initialConditions>\
         <goalSequence><seekDynamicTarget><targetName>x</targetName></seekDynamicTarget></goalSequence></agent>",
    );
    let (_, warnings) = import_steersuite(&text, std::path::Path::new("idle.xml")).unwrap();
    assert!(
        warnings.iter().any(|w| w.message.contains("agent 0 has no goal")),
        "{warnings:#?}"
    );
}

#[test]
fn cli_import_groups_repeated_warnings_and_takes_a_method() {
    let dir = tempfile::tempdir().unwrap();
    let agents: String = (0..5)
        .map(|i| {
            format!(
                "<agent><name>a{i}</name><initialConditions><position><x>{}</x><y>0</y><z>0</z></position>\
                 </initialConditions><goalSequence><seekStaticTarget><targetLocation><x>0</x><y>0</y><z>9</z>\
                 </targetLocation></seekStaticTarget></goalSequence></agent>\n",
                2 * i - 5
            )
        })
        .collect();
    let file = dir.path().join("named.xml");
    std::fs::write(&file, case(&agents)).unwrap();
    let out = dir.path().join("named.ron");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_crowdlab"))
        .args([
            "import",
            file.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--method",
            "rvo",
        ])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stderr = String::from_utf8_lossy(&run.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("agent name")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains("agent name not kept: 5 times ("), "{stderr}");
    assert!(lines[0].contains("named.xml:5, :6, :7, …)"), "{stderr}");
    let scene = crowdlab::scene::load_scene(&out).unwrap();
    assert!(
        scene
            .profiles
            .iter()
            .all(|p| matches!(p.avoidance, crowdlab::scene::avoidance::Avoidance::Rvo(_)))
    );
}
