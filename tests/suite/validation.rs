//! The validation suite: the fast RiMEA tests pass their bands, `crowdlab validate` writes a
//! report and sets its exit code from the results, `crowdlab compare` prints every method.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

use crowdlab::validate::{Method, ValidationCase, bundled_cases, run_case};

fn crowdlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crowdlab"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// The method the fast RiMEA tests are asserted with: ORCA (the pedestrian parameters,
/// `ObstacleParams::pedestrian`) on every profile.
fn method() -> Method {
    Method::parse("orca").unwrap()
}

fn case(name: &str) -> ValidationCase {
    bundled_cases()
        .unwrap()
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no bundled case {name}"))
}

fn assert_case_passes(name: &str) {
    let case = case(name);
    assert!(case.criteria.fast, "{name} is meant for cargo test");
    let report = run_case(&case, &method(), &mut |_, _| {}, &AtomicBool::new(false)).unwrap();
    for c in &report.checks {
        assert!(c.passed, "{name}: {}: measured {}, band {}", c.what, c.measured, c.band);
    }
}

#[test]
fn every_bundled_case_loads_with_criteria_and_a_description() {
    let cases = bundled_cases().unwrap();
    let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "rimea_01_corridor",
            "rimea_04_fundamental_diagram",
            "rimea_05_premovement",
            "rimea_06_corner",
            "rimea_07_demographics",
            "rimea_09_large_room",
            "rimea_12_bottleneck"
        ]
    );
    for c in &cases {
        assert!(!c.criteria.criteria.is_empty(), "{}", c.name);
        assert!(
            c.scene.description.contains("Pass:"),
            "{} must state its criterion",
            c.name
        );
    }
    let fast: Vec<&str> = cases
        .iter()
        .filter(|c| c.criteria.fast)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        fast,
        [
            "rimea_01_corridor",
            "rimea_05_premovement",
            "rimea_06_corner",
            "rimea_07_demographics"
        ]
    );
}

#[test]
fn rimea_1_corridor_travel_time_is_within_26_to_34_s() {
    assert_case_passes("rimea_01_corridor");
}

#[test]
fn rimea_5_everyone_starts_at_the_assigned_pre_movement_time() {
    assert_case_passes("rimea_05_premovement");
}

#[test]
fn rimea_6_no_one_enters_a_wall_round_the_corner_and_everyone_arrives() {
    assert_case_passes("rimea_06_corner");
}

#[test]
fn rimea_7_every_walker_keeps_its_demographic_speed() {
    assert_case_passes("rimea_07_demographics");
}

#[test]
fn validate_writes_a_report_and_fails_when_a_criterion_fails() {
    let dir = tempfile::tempdir().unwrap();
    let scenes = dir.path().join("scenes");
    std::fs::create_dir(&scenes).unwrap();
    let corridor = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/validation/rimea_01_corridor.ron");
    std::fs::copy(&corridor, scenes.join("quick.ron")).unwrap();
    std::fs::write(
        scenes.join("quick.criteria"),
        "(test: \"quick\", criteria: [TravelTime(min: 26.0, max: 34.0)])",
    )
    .unwrap();
    std::fs::copy(&corridor, scenes.join("impossible.ron")).unwrap();
    std::fs::write(
        scenes.join("impossible.criteria"),
        "(test: \"impossible\", criteria: [TravelTime(min: 1.0, max: 2.0)])",
    )
    .unwrap();
    let out_dir = dir.path().join("report");
    let args = [
        "validate",
        "--no-bundled",
        "--out",
        out_dir.to_str().unwrap(),
        scenes.to_str().unwrap(),
    ];
    let out = crowdlab(&args);
    assert_eq!(out.status.code(), Some(1), "one test fails");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("pass  quick"), "{stdout}");
    assert!(stdout.contains("FAIL  impossible"), "{stdout}");
    let report = std::fs::read_to_string(out_dir.join("report.md")).unwrap();
    assert!(report.contains("**1 of 2 tests passed**"), "{report}");
    assert!(report.contains("| travel time | 1–2 s |"), "{report}");
    assert!(out_dir.join("quick_evacuation.png").exists());

    std::fs::remove_file(scenes.join("impossible.ron")).unwrap();
    let out = crowdlab(&args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn validate_rejects_an_unknown_method_and_a_bad_criteria_file() {
    let out = crowdlab(&["validate", "--method", "teleport"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown method \"teleport\""));

    let dir = tempfile::tempdir().unwrap();
    let corridor = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/validation/rimea_01_corridor.ron");
    std::fs::copy(&corridor, dir.path().join("s.ron")).unwrap();
    std::fs::write(dir.path().join("s.criteria"), "(test: \"s\", criteria: [Sometimes])").unwrap();
    let out = crowdlab(&["validate", "--no-bundled", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("s.criteria") && err.contains("Sometimes"), "{err}");
}

#[test]
fn compare_lists_every_method_with_composite_scores() {
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/validation/rimea_05_premovement.ron");
    let out = crowdlab(&["compare", scene.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("composite01"), "{table}");
    for m in Method::available() {
        assert!(table.contains(&format!("| {} |", m.name)), "{table}");
    }
}
