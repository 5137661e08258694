//! The `crowdlab` binary end to end: check, run, export, exit codes and messages.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use quick_xml::events::Event;

fn crowdlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crowdlab"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn scene(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(name)
        .display()
        .to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn check_reports_syntax_errors_with_line_and_column_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ron");
    std::fs::write(
        &bad,
        "(\n  version: 1,\n  bounds: (min: (0.0, 0.0) max: (1.0, 1.0)),\n)\n",
    )
    .unwrap();
    let out = crowdlab(&["check", path_str(&bad)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.ron:3:28: "), "{}", stderr(&out));

    let ok = crowdlab(&["check", &scene("two_agents_crossing.ron")]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));

    let missing = crowdlab(&["check", "/nonexistent/scene.ron"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("/nonexistent/scene.ron"));
}

#[test]
fn check_lists_every_semantic_problem() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(scene("two_agents_crossing.ron")).unwrap();
    let broken = text
        .replacen("radius: 0.3,", "radius: -0.3,", 1)
        .replacen("dt: 0.1", "dt: 0.0", 1);
    let path = dir.path().join("invalid.ron");
    std::fs::write(&path, broken).unwrap();
    let out = crowdlab(&["check", path_str(&path)]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("settings.dt: 0 must be a finite number greater than 0"),
        "{err}"
    );
    assert!(err.contains("profiles[0].radius: -0.3"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(crowdlab(&["run"]).status.code(), Some(2));
    assert_eq!(
        crowdlab(&["export", "x.crowdrec", "--every", "0"]).status.code(),
        Some(2)
    );
    let out = crowdlab(&["run", &scene("two_agents_crossing.ron"), "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--threads 0"));
    // The window's timed play refuses an impossible length or speed before opening a window.
    let crossing = scene("two_agents_crossing.ron");
    let out = crowdlab(&[&crossing, "--play-seconds", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--play-seconds") && stderr(&out).contains("more than 0"),
        "{}",
        stderr(&out)
    );
    let out = crowdlab(&[&crossing, "--play-seconds", "2", "--speed", "3x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("\"3x\"") && stderr(&out).contains("fastest"),
        "{}",
        stderr(&out)
    );
    let out = crowdlab(&[&crossing, "--speed", "2x"]);
    assert_eq!(out.status.code(), Some(2), "--speed without --play-seconds");
}

/// `crowdlab` with `args` and `CROWDLAB_PIN_THREADS` set to `pinning`.
fn crowdlab_pinned(pinning: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crowdlab"))
        .env("CROWDLAB_PIN_THREADS", pinning)
        .args(args)
        .output()
        .expect("binary runs")
}

/// `crowdlab run` of the 1,000 walkers' bottleneck for 30 ticks on 2 threads into `rec`, with
/// `CROWDLAB_PIN_THREADS` set to `pinning`.
fn run_with_pinning(rec: &Path, pinning: &str) -> Output {
    let bottleneck = scene("dense_bottleneck_1000.ron");
    crowdlab_pinned(
        pinning,
        &[
            "run",
            &bottleneck,
            "--ticks",
            "30",
            "--threads",
            "2",
            "-o",
            path_str(rec),
        ],
    )
}

#[test]
fn pinned_and_free_workers_record_the_same_run_and_a_bad_setting_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let (pinned, free) = (dir.path().join("pinned.crowdrec"), dir.path().join("free.crowdrec"));
    for (rec, pinning) in [(&pinned, "1"), (&free, "0")] {
        let out = run_with_pinning(rec, pinning);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    assert!(std::fs::read(&pinned).unwrap() == std::fs::read(&free).unwrap());
    let out = run_with_pinning(&dir.path().join("never.crowdrec"), "yes");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("CROWDLAB_PIN_THREADS=\"yes\"") && stderr(&out).contains("use 1"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("never.crowdrec").exists());
    // The window refuses it too, before it opens.
    let out = crowdlab_pinned("2", &[&scene("two_agents_crossing.ron")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("CROWDLAB_PIN_THREADS=\"2\""), "{}", stderr(&out));
}

fn run_to(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let rec = dir.join(name);
    let mut args = vec!["run", "assets/default_scene.ron", "-o", path_str(&rec)];
    args.extend_from_slice(extra);
    let out = Command::new(env!("CARGO_BIN_EXE_crowdlab"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(&args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    rec
}

#[test]
fn run_twice_gives_identical_recordings_and_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let metrics = dir.path().join("m.json");
    let a = run_to(
        dir.path(),
        "a.crowdrec",
        &["--metrics", path_str(&metrics), "--threads", "1"],
    );
    let b = run_to(dir.path(), "b.crowdrec", &["--threads", "2"]);
    assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap());
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(&metrics).unwrap()).unwrap();
    let s = &m["summary"];
    for key in [
        "agents",
        "agents_reached",
        "collisions",
        "max_penetration",
        "ticks",
        "ms_per_tick",
        "wall_s",
    ] {
        assert!(s.get(key).is_some(), "summary lacks {key}: {s}");
    }
    assert_eq!(s["agents"], 9);
    let agent = &m["agents"][0];
    for key in [
        "reached_goal",
        "completion_time",
        "path_length",
        "collisions",
        "max_penetration",
        "final_position",
    ] {
        assert!(agent.get(key).is_some(), "agent metrics lack {key}: {agent}");
    }
    let c = run_to(dir.path(), "c.crowdrec", &["--seed", "99", "--ticks", "5"]);
    assert!(std::fs::read(&c).unwrap().len() < std::fs::read(&a).unwrap().len());
}

#[test]
fn export_writes_one_png_per_tick_and_well_formed_skeleton_xml() {
    let dir = tempfile::tempdir().unwrap();
    let rec = run_to(dir.path(), "run.crowdrec", &["--ticks", "12"]);
    let png_dir = dir.path().join("png");
    let xml = dir.path().join("s.xml");
    let out = crowdlab(&[
        "export",
        path_str(&rec),
        "--png",
        path_str(&png_dir),
        "--width",
        "320",
        "--height",
        "200",
        "--skeleton-xml",
        path_str(&xml),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut pngs: Vec<String> = std::fs::read_dir(&png_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    pngs.sort();
    assert_eq!(pngs.len(), 13, "ticks 0..=12");
    assert_eq!(pngs[0], "frame_000000.png");
    assert_eq!(pngs[12], "frame_000012.png");
    let img = image::open(png_dir.join(&pngs[5])).unwrap();
    assert_eq!((img.width(), img.height()), (320, 200));

    let reader = crowdlab::record::RecordingReader::open(&rec).unwrap();
    let text = std::fs::read_to_string(&xml).unwrap();
    let mut r = quick_xml::Reader::from_str(&text);
    let (mut timesteps, mut pedestrians_per_step, mut depth, mut news) = (0, Vec::new(), 0, 0);
    loop {
        match r.read_event().expect("well-formed XML") {
            Event::Start(e) => {
                depth += 1;
                match e.name().as_ref() {
                    b"timestep" => {
                        timesteps += 1;
                        pedestrians_per_step.push(0);
                    }
                    b"pedestrian" => {
                        *pedestrians_per_step.last_mut().unwrap() += 1;
                        let new = e.try_get_attribute("new").unwrap().unwrap();
                        news += usize::from(new.value.as_ref() == b"true");
                    }
                    _ => {}
                }
            }
            Event::End(_) => depth -= 1,
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0);
    assert_eq!(timesteps, 13);
    for (tick, n) in pedestrians_per_step.iter().enumerate() {
        assert_eq!(*n, reader.frame_at(tick as u64).unwrap().agents.len(), "tick {tick}");
    }
    assert_eq!(news, 9, "new=\"true\" once per agent");
}

#[test]
fn export_of_a_damaged_recording_exits_2_with_the_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.crowdrec");
    std::fs::write(&bad, b"CROWDREC\x03\x00\x00\x00garbage").unwrap();
    let out = crowdlab(&[
        "export",
        path_str(&bad),
        "--skeleton-xml",
        path_str(&dir.path().join("x.xml")),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("bad.crowdrec: header block is damaged"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("x.xml").exists());
}

#[test]
fn method_orca_gives_profiles_the_turn_rate_check_asks_of_orca() {
    // two_agents_crossing turns at 360°/s; ORCA at dt 0.1 needs 1800°/s.
    let mut scene = crowdlab::scene::load_scene(Path::new(&scene("two_agents_crossing.ron"))).unwrap();
    crowdlab::validate::Method::parse("orca").unwrap().apply(&mut scene);
    assert_eq!(crowdlab::scene::validate(&scene), vec![]);
    assert!(scene.profiles.iter().all(|p| p.max_turn_rate_deg >= 1800.0));
}

#[test]
fn run_and_compare_take_a_method() {
    let dir = tempfile::tempdir().unwrap();
    let metrics = dir.path().join("m.json");
    let out = crowdlab(&[
        "run",
        &scene("two_agents_crossing.ron"),
        "--ticks",
        "3",
        "--method",
        "orca",
        "--metrics",
        path_str(&metrics),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bad = crowdlab(&["run", &scene("two_agents_crossing.ron"), "--method", "teleport"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("unknown method \"teleport\""), "{}", stderr(&bad));

    let out = crowdlab(&["compare", &scene("two_agents_crossing.ron"), "--method", "none,orca"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| method"))
        .collect();
    assert_eq!(rows.len(), 2, "{table}");
    assert!(
        rows[0].starts_with("| none |") && rows[1].starts_with("| orca |"),
        "{table}"
    );
}
