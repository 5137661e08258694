//! IndAlgoTest import and export: the seed's §4.4 samples import to the expected scene, and
//! files → scene → files round trips are equal modulo formatting.

use crate::common;

use std::path::Path;

use common::{canonical_xml, data};
use crowdlab::scene::import::{ImportError, import_file, import_file_with_config, scene_to_indalgo};
use crowdlab::scene::{Goal, Obstacle, Scene, load_scene, save_scene};
use glam::Vec2;

fn round_trip(stem: &str) {
    let scene_path = data(&format!("indalgo/{stem}.iascene"));
    let (scene, _) = import_file(&scene_path).unwrap();
    // Through the .ron file too, so nothing kept for the export is lost on save.
    let dir = tempfile::tempdir().unwrap();
    let ron = dir.path().join("scene.ron");
    save_scene(&scene, &ron).unwrap();
    let reloaded = load_scene(&ron).unwrap();
    assert_eq!(reloaded, scene);
    let files = scene_to_indalgo(&reloaded).unwrap();
    let original_scene = std::fs::read_to_string(&scene_path).unwrap();
    let original_config = std::fs::read_to_string(scene_path.with_extension("iaconf")).unwrap();
    assert_eq!(
        canonical_xml(&files.scene),
        canonical_xml(&original_scene),
        "{}",
        files.scene
    );
    assert_eq!(
        canonical_xml(&files.config),
        canonical_xml(&original_config),
        "{}",
        files.config
    );
}

#[test]
fn seed_samples_round_trip() {
    round_trip("seed_example");
}

#[test]
fn multi_element_scene_round_trips() {
    round_trip("corridor");
}

#[test]
fn seed_samples_import_to_the_expected_scene() {
    let (scene, warnings) = import_file(&data("indalgo/seed_example.iascene")).unwrap();
    assert_eq!(scene.agents.len(), 1);
    let a = &scene.agents[0];
    assert_eq!(a.id, 0);
    assert_eq!(a.position, Vec2::new(2.0, 0.0));
    assert_eq!(a.heading_deg, 180.0, "faces its target");
    assert_eq!((a.start_time, a.end_time), (3.0, Some(6.0)));
    let profile = scene.profile(&a.profile).unwrap();
    assert_eq!((profile.radius, profile.preferred_speed), (0.4, 1.8));
    assert_eq!(a.goal, Goal::Target("ped0".into()));
    assert_eq!(scene.target("ped0").unwrap().position, Vec2::new(-2.0, 0.0));
    assert_eq!(
        scene.obstacles,
        vec![Obstacle::MovingCircle {
            center: Vec2::new(-2.0, 0.0),
            radius: 0.5,
            velocity: Vec2::new(1.0, 0.0)
        }]
    );
    let keep = scene.indalgo.as_ref().unwrap();
    assert_eq!(keep.react_distance.get(&0), Some(&1.7));
    assert_eq!(keep.obstacle_index.get(&0), Some(&1));
    assert_eq!(keep.obstacle_time_span.get(&1), Some(&(3.0, 6.0)));
    // The obstacle's time span cannot be simulated: reported with its line.
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].line, 11);
    assert!(warnings[0].message.contains("obstacle 1"), "{}", warnings[0]);
}

#[test]
fn without_configuration_defaults_apply() {
    let dir = tempfile::tempdir().unwrap();
    let lone = dir.path().join("lone.iascene");
    std::fs::copy(data("indalgo/seed_example.iascene"), &lone).unwrap();
    let (scene, _) = import_file(&lone).unwrap();
    let a = &scene.agents[0];
    assert_eq!((a.start_time, a.end_time), (0.0, None));
    assert_eq!(scene.profile(&a.profile).unwrap().preferred_speed, 1.3);
    assert!(scene.indalgo.as_ref().unwrap().react_distance.is_empty());
    // --config names another file explicitly.
    let (scene, _) = import_file_with_config(&lone, Some(&data("indalgo/seed_example.iaconf"))).unwrap();
    assert_eq!(scene.agents[0].end_time, Some(6.0));
}

#[test]
fn several_targets_become_a_path_and_static_obstacles_circles() {
    let (scene, _) = import_file(&data("indalgo/corridor.iascene")).unwrap();
    assert_eq!(scene.agents[0].goal, Goal::Path("ped0".into()));
    assert_eq!(
        scene.path("ped0").unwrap().points,
        vec![Vec2::new(0.0, 1.5), Vec2::new(5.0, 0.5)]
    );
    assert_eq!(scene.agents[2].goal, Goal::None);
    assert_eq!(
        scene.obstacles[0],
        Obstacle::Circle {
            center: Vec2::new(0.0, -2.0),
            radius: 0.75
        }
    );
    assert_eq!(scene.profiles.len(), 2, "one per distinct (radius, speed) pair");
}

fn bad(scene_text: &str) -> ImportError {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.iascene");
    std::fs::write(&path, scene_text).unwrap();
    import_file(&path).unwrap_err()
}

#[test]
fn bad_input_names_file_and_line() {
    let missing_radius = "<indAlgoConf>\n  <obstacles>\n    <pedestrian index=\"0\">\n      <location x=\"1\" y=\"2\"/>\n    </pedestrian>\n  </obstacles>\n</indAlgoConf>\n";
    let e = bad(missing_radius).to_string();
    assert!(e.contains("bad.iascene:3:") && e.contains("radius"), "{e}");
    let not_a_number = missing_radius.replace("index=\"0\"", "index=\"0\" radius=\"wide\"");
    let e = bad(&not_a_number).to_string();
    assert!(e.contains(":3:") && e.contains("\"wide\""), "{e}");
    let e = bad("<indAlgoConf>\n  <obstacles>\n</indAlgoConf>").to_string();
    assert!(e.contains("malformed XML"), "{e}");
    let e = bad("<crowd/>").to_string();
    assert!(e.contains("<crowd>"), "{e}");
}

#[test]
fn unknown_elements_are_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("extra.iascene");
    std::fs::write(
        &path,
        "<indAlgoConf>\n  <obstacles>\n    <wall index=\"0\"/>\n    <obstacle index=\"1\" radius=\"1\" colour=\"red\">\n      <location x=\"0\" y=\"0\"/>\n    </obstacle>\n  </obstacles>\n</indAlgoConf>\n",
    )
    .unwrap();
    let (scene, warnings) = import_file(&path).unwrap();
    assert_eq!(scene.obstacles.len(), 1);
    let lines: Vec<usize> = warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, vec![3, 4]);
    assert!(warnings[0].message.contains("<wall>"));
    assert!(warnings[1].message.contains("colour"));
}

#[test]
fn scenes_that_do_not_fit_are_refused_naming_the_element() {
    let mut scene = Scene::empty();
    scene.obstacles.push(Obstacle::Wall {
        a: Vec2::ZERO,
        b: Vec2::X,
    });
    let problems = scene_to_indalgo(&scene).unwrap_err();
    assert_eq!(problems.len(), 1);
    assert!(problems[0].starts_with("obstacles[0]: a wall"), "{problems:?}");
    let default = crowdlab::scene::default_scene();
    let problems = scene_to_indalgo(&default).unwrap_err();
    assert!(problems.iter().any(|p| p.contains("closed path")), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("polygon")), "{problems:?}");
    assert!(Path::new(&data("indalgo")).is_dir());
}
