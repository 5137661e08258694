//! Scene files: exact round trips, syntax errors with line and column, every validation rule
//! reported by field path and value, atomic saving.

use std::path::Path;

use crowdlab::scene::{
    Obstacle, Scene, SceneError, default_scene, load_scene, parse_scene, parse_valid_scene, save_scene, scene_to_ron,
    scene_to_ron_like, validate,
};
use glam::Vec2;

fn bundled_scenes() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_bundled_scene_is_valid_and_round_trips_exactly() {
    let mut scenes = vec![("default".to_string(), default_scene())];
    for path in bundled_scenes() {
        scenes.push((
            path.display().to_string(),
            load_scene(&path).unwrap_or_else(|e| panic!("{e}")),
        ));
    }
    assert!(scenes.len() >= 2);
    for (name, scene) in scenes {
        let text = scene_to_ron(&scene);
        let again = parse_valid_scene(&text, Path::new(&name)).unwrap();
        assert_eq!(again, scene, "{name}: load → save → load changed the scene");
        assert_eq!(scene_to_ron(&again), text, "{name}: saving twice gives different text");
    }
}

/// The lines that differ between `a` and `b`, counted as multisets.
fn changed_lines(a: &str, b: &str) -> usize {
    let mut only_b: Vec<&str> = b.lines().collect();
    let mut only_a = 0;
    for line in a.lines() {
        match only_b.iter().position(|l| *l == line) {
            Some(p) => {
                only_b.swap_remove(p);
            }
            None => only_a += 1,
        }
    }
    only_a + only_b.len()
}

#[test]
fn every_bundled_scene_saves_back_as_its_own_text_and_an_edit_changes_only_its_line() {
    let mut files = bundled_scenes();
    files.push(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/default_scene.ron")).to_path_buf());
    for path in files {
        let original = std::fs::read_to_string(&path).unwrap();
        let mut scene = load_scene(&path).unwrap();
        let saved = scene_to_ron_like(&scene, &original);
        assert_eq!(changed_lines(&original, &saved), 0, "{}:\n{saved}", path.display());
        scene.settings.seed += 1;
        let edited = scene_to_ron_like(&scene, &original);
        assert!(
            changed_lines(&original, &edited) <= 2,
            "{}: a new seed changed more than its line:\n{edited}",
            path.display()
        );
        assert_eq!(parse_scene(&edited, &path).unwrap(), scene);
    }
}

#[test]
fn save_is_atomic_and_reloads_equal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scene.ron");
    let scene = default_scene();
    save_scene(&scene, &path).unwrap();
    assert_eq!(load_scene(&path).unwrap(), scene);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        vec![std::ffi::OsString::from("scene.ron")],
        "no temporary file is left behind"
    );
}

#[test]
fn syntax_error_names_file_line_and_column() {
    let text = "(\n  version: 1,\n  bounds: (min: (0.0, 0.0) max: (1.0, 1.0)),\n)\n";
    let err = parse_scene(text, Path::new("broken.ron")).unwrap_err();
    match &err {
        SceneError::Syntax { line, column, .. } => assert_eq!((*line, *column), (3, 28)),
        other => panic!("expected a syntax error, got {other}"),
    }
    assert!(err.to_string().starts_with("broken.ron:3:28: "), "{err}");
}

#[test]
fn unsupported_version_is_rejected_with_the_value() {
    let text = scene_to_ron(&default_scene()).replacen("version: 1", "version: 7", 1);
    let err = parse_scene(&text, Path::new("v.ron")).unwrap_err().to_string();
    assert!(err.contains("version: 7 is not supported"), "{err}");
}

fn problems(scene: &Scene) -> Vec<String> {
    validate(scene).iter().map(ToString::to_string).collect()
}

fn assert_problem(scene: &Scene, expected: &str) {
    let all = problems(scene);
    assert!(
        all.iter().any(|p| p.contains(expected)),
        "expected a problem containing {expected:?}, got {all:#?}"
    );
}

#[test]
fn every_validation_rule_names_the_field_and_value() {
    let base = default_scene();
    assert!(problems(&base).is_empty(), "{:#?}", problems(&base));

    let mut s = base.clone();
    s.profiles[0].radius = -0.3;
    assert_problem(&s, "profiles[0].radius: -0.3 must be a finite number greater than 0");

    let mut s = base.clone();
    s.agents[2].position = Vec2::new(f32::NAN, 1.0);
    assert_problem(&s, "agents[2].position: (NaN, 1) must have finite coordinates");

    let mut s = base.clone();
    s.obstacles.push(Obstacle::Polygon { vertices: vec![] });
    assert_problem(&s, "obstacles[4].vertices: 0 vertex(es); a polygon needs at least 3");

    let mut s = base.clone();
    s.obstacles.push(Obstacle::Polygon {
        vertices: vec![Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)],
    });
    assert_problem(&s, "obstacles[4].vertices: polygon has zero area");

    let mut s = base.clone();
    s.agents[0].goal = crowdlab::scene::Goal::Target("nowhere".into());
    assert_problem(&s, "agents[0].goal: unknown target id \"nowhere\"");

    let mut s = base.clone();
    s.agents[0].goal = crowdlab::scene::Goal::Path("nowhere".into());
    assert_problem(&s, "agents[0].goal: unknown path id \"nowhere\"");

    let mut s = base.clone();
    s.agents[0].position = Vec2::new(3.5, 3.0);
    assert_problem(
        &s,
        "agents[0].position: (3.5, 3) (radius 0.3) starts inside obstacles[0]",
    );

    let mut s = base.clone();
    s.agents[1].position = s.agents[0].position + Vec2::new(0.2, 0.0);
    assert_problem(&s, "agents[1].position: (-8.8, 0) overlaps agents[0] at (-9, 0)");

    let mut s = base.clone();
    s.settings.dt = 0.0;
    assert_problem(&s, "settings.dt: 0 must be a finite number greater than 0");

    let mut s = base.clone();
    s.settings.dt = -0.1;
    assert_problem(&s, "settings.dt: -0.1 must be a finite number greater than 0");

    let mut s = base.clone();
    s.agents[3].profile = "ghost".into();
    assert_problem(&s, "agents[3].profile: unknown profile \"ghost\"");

    let mut s = base.clone();
    s.agents[3].id = 0;
    assert_problem(&s, "agents[3].id: id 0 is used twice");

    let mut s = base.clone();
    s.paths[0].points.truncate(1);
    assert_problem(&s, "paths[0].points: 1 point(s); a path needs at least 2");

    let mut s = base.clone();
    s.targets[0].radius = f32::INFINITY;
    assert_problem(&s, "targets[0].radius: inf must be a finite number greater than 0");

    let mut s = base.clone();
    s.obstacles[2] = Obstacle::Wall {
        a: Vec2::ONE,
        b: Vec2::ONE,
    };
    assert_problem(&s, "obstacles[2]: wall from (1, 1) to itself has zero length");

    let mut s = base.clone();
    s.profiles[0].preferred_speed = 5.0;
    assert_problem(&s, "profiles[0].preferred_speed: 5 must lie between 0 and 1.8");

    let mut s = base.clone();
    s.agents[0].end_time = Some(-1.0);
    assert_problem(&s, "agents[0].end_time: -1 must be a finite time after start_time 0");

    let mut s = base.clone();
    s.measurement_areas.push(crowdlab::scene::MeasurementArea {
        id: "fd".into(),
        min: Vec2::new(2.0, 0.0),
        max: Vec2::new(1.0, 1.0),
    });
    assert_problem(
        &s,
        "measurement_areas[0]: min (2, 0) must be below and left of max (1, 1)",
    );

    let mut s = base.clone();
    let line = crowdlab::scene::MeasurementLine {
        id: "door".into(),
        a: Vec2::ONE,
        b: Vec2::ONE,
    };
    s.measurement_lines = vec![line.clone(), line];
    assert_problem(&s, "measurement_lines[0]: line from (1, 1) to itself has zero length");
    assert_problem(&s, "measurement_lines[1]: id \"door\" is used twice");

    let mut s = base.clone();
    s.settings.record_every = 0;
    assert_problem(&s, "settings.record_every: 0 must be at least 1");

    // Placed ids 0 and 4294967294 plus a spawn group of 2 would wrap to a second agent 0.
    let mut s = base.clone();
    s.agents[1].id = u32::MAX - 1;
    s.spawns.push(crowdlab::scene::SpawnGroup {
        source: crowdlab::scene::SpawnSource::Area {
            min: Vec2::new(-1.0, -1.0),
            max: Vec2::new(1.0, 1.0),
        },
        count: 2,
        profile: s.profiles[0].name.clone(),
        agent_type: None,
        goal: crowdlab::scene::Goal::None,
        start_time: 0.0,
        interval: None,
    });
    assert_problem(
        &s,
        "spawns[0].count: 2 agents after id 4294967294 would need ids beyond 4294967295",
    );
}

#[test]
fn all_problems_are_reported_at_once() {
    let mut s = default_scene();
    s.settings.dt = 0.0;
    s.profiles[0].mass = 0.0;
    s.targets[1].radius = -1.0;
    assert_eq!(validate(&s).len(), 3, "{:#?}", problems(&s));
    let err = SceneError::Invalid {
        file: "x.ron".into(),
        problems: validate(&s),
    }
    .to_string();
    assert!(err.starts_with("x.ron: 3 problem(s)"), "{err}");
}

#[test]
fn agents_present_at_different_times_may_share_a_start_point() {
    let mut s = default_scene();
    s.agents[1].position = s.agents[0].position;
    s.agents[0].end_time = Some(5.0);
    s.agents[1].start_time = 5.0;
    assert!(problems(&s).is_empty(), "{:#?}", problems(&s));
}

#[test]
fn unknown_or_misspelt_fields_are_rejected_with_path_place_and_nearest_name() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/two_agents_crossing.ron")).unwrap();
    let cases = [
        (
            "goal: Target(\"north\")",
            "goal: Target(\"north\"), start_tme: 5.0",
            "agents[1]",
            "start_tme",
            "start_time",
        ),
        ("dt: 0.1", "dtt: 0.1", "settings", "dtt", "dt"),
        ("mass: 1.0,", "mass: 1.0, colour: 3,", "profiles[0]", "colour", ""),
        (
            "(id: \"east\",",
            "(id: \"east\", radus: 1.0,",
            "targets[0]",
            "radus",
            "radius",
        ),
        (
            "Separation(view_radius: 1.5)",
            "Separation(view_radius: 1.5, fov: 90.0)",
            "behaviours[1]",
            "fov",
            "fov_deg",
        ),
        ("version: 1,", "version: 1, nmae: \"x\",", "", "nmae", "name"),
    ];
    for (from, to, path, field, nearest) in cases {
        assert!(text.contains(from), "{from}");
        let broken = text.replacen(from, to, 1);
        let err = parse_scene(&broken, Path::new("s.ron")).unwrap_err();
        let SceneError::Syntax { line, message, .. } = &err else {
            panic!("{err}")
        };
        let expected_line = broken[..broken.find(field).unwrap()].lines().count();
        assert_eq!(*line, expected_line, "{err}");
        assert!(message.contains(&format!("unknown field `{field}`")), "{err}");
        assert!(message.contains(path), "{err}");
        if !nearest.is_empty() {
            assert!(message.contains(&format!("did you mean `{nearest}`")), "{err}");
        }
    }
    // A byte order mark is not a syntax error.
    assert!(parse_valid_scene(&format!("\u{feff}{text}"), Path::new("bom.ron")).is_ok());
}
