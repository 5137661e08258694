//! Reliability: determinism at every thread count, finite values on random valid scenes,
//! interrupted recordings still readable.

use crate::common::{property_cases, run_frames};

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crowdlab::record::{Frame, FrameSource, RecordingReader};
use crowdlab::scene::{Agent, Bounds, Goal, Obstacle, Scene, Target, default_scene, load_scene, save_scene, validate};
use crowdlab::sim::run::{RunLimit, run_scene};
use glam::Vec2;
use proptest::prelude::*;

fn frames_with_threads(scene: &Scene, ticks: u64, threads: usize) -> Vec<Frame> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| run_frames(scene, ticks))
}

/// Bit-level comparison (NaN-safe, -0.0 ≠ 0.0) of two runs.
fn bits(frames: &[Frame]) -> Vec<u32> {
    frames
        .iter()
        .flat_map(|f| {
            f.agents
                .iter()
                .flat_map(|a| {
                    [
                        a.position,
                        a.velocity,
                        a.heading,
                        a.preferred_velocity,
                        a.steering,
                        a.avoidance,
                    ]
                    .into_iter()
                    .flat_map(|v| [v.x.to_bits(), v.y.to_bits()])
                    .chain([a.id, a.flags as u32, a.state as u32])
                })
                .chain(
                    f.forces
                        .iter()
                        .flat_map(|g| [g.force.x.to_bits(), g.force.y.to_bits(), g.kept.to_bits()]),
                )
        })
        .collect()
}

#[test]
fn bundled_scenes_are_bit_identical_at_1_2_and_8_threads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut scenes: Vec<(String, Scene)> = vec![("default".into(), default_scene())];
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            scenes.push((path.display().to_string(), load_scene(&path).unwrap()));
        }
    }
    for (name, scene) in scenes {
        // Representative and quick: every scene, a tick budget scaled to its size.
        let ticks = (60_000 / (scene.agents.len() as u64 + 1)).clamp(20, 300);
        let one = bits(&frames_with_threads(&scene, ticks, 1));
        assert_eq!(
            one,
            bits(&frames_with_threads(&scene, ticks, 2)),
            "{name}: 1 vs 2 threads"
        );
        assert_eq!(
            one,
            bits(&frames_with_threads(&scene, ticks, 8)),
            "{name}: 1 vs 8 threads"
        );
    }
}

prop_compose! {
    fn random_scene()(
        seed in any::<u64>(),
        dt in 0.01f32..0.5,
        radius in 0.05f32..1.0,
        mass in 0.01f32..100.0,
        max_speed in 0.0f32..50.0,
        max_force in 0.0f32..1000.0,
        turn in 1.0f32..5000.0,
        agents in prop::collection::vec((-20.0f32..20.0, -20.0f32..20.0, -20.0f32..20.0, -20.0f32..20.0, 0.0f32..360.0), 1..25),
        circles in prop::collection::vec((-20.0f32..20.0, -20.0f32..20.0, 0.1f32..3.0, -2.0f32..2.0), 0..5),
    ) -> Scene {
        let mut s = default_scene();
        s.settings.seed = seed;
        s.settings.dt = dt;
        s.bounds = Bounds { min: Vec2::splat(-25.0), max: Vec2::splat(25.0) };
        s.paths.clear();
        s.targets.clear();
        s.agents.clear();
        let p = &mut s.profiles[0];
        p.radius = radius;
        p.mass = mass;
        p.max_speed = max_speed;
        p.preferred_speed = max_speed * 0.8;
        p.max_force = max_force;
        p.max_turn_rate_deg = turn;
        s.obstacles = circles.iter().map(|&(x, y, r, v)| if v.abs() > 1.0 {
            Obstacle::MovingCircle { center: Vec2::new(x, y), radius: r, velocity: Vec2::new(v, -v) }
        } else {
            Obstacle::Circle { center: Vec2::new(x, y), radius: r }
        }).collect();
        for (i, &(x, y, tx, ty, h)) in agents.iter().enumerate() {
            s.targets.push(Target { id: format!("t{i}"), position: Vec2::new(tx, ty), radius: 0.2 });
            s.agents.push(Agent { id: i as u32, profile: "walker".into(), position: Vec2::new(x, y), heading_deg: h, goal: Goal::Target(format!("t{i}")), start_time: 0.0, end_time: None, agent_type: None });
        }
        // Keep only what validation accepts: drop agents that start inside obstacles or each other.
        loop {
            let problems = validate(&s);
            let Some(bad) = problems.iter().find_map(|p| p.path.strip_prefix("agents[").and_then(|r| r.split(']').next()).and_then(|i| i.parse::<usize>().ok())) else { break };
            s.agents.remove(bad);
        }
        s
    }
}

proptest! {
    #![proptest_config(property_cases(12))]

    #[test]
    fn random_valid_scenes_record_only_finite_values_for_1000_ticks(scene in random_scene()) {
        prop_assume!(validate(&scene).is_empty());
        let mut frames = Vec::new();
        run_scene(Arc::new(scene.clone()), RunLimit { ticks: Some(1000) }, &mut frames, |_, _| {}).unwrap();
        let max_speed = scene.profiles[0].max_speed;
        for f in &frames {
            for a in &f.agents {
                for v in [a.position, a.velocity, a.heading, a.preferred_velocity, a.steering, a.avoidance] {
                    prop_assert!(v.is_finite(), "tick {} agent {}: {v}", f.tick, a.id);
                }
                prop_assert!(a.velocity.length() <= max_speed * 1.0001 + 1e-6, "speed above max");
            }
            for g in &f.forces {
                prop_assert!(g.force.is_finite() && g.kept.is_finite());
            }
            for c in &f.contacts {
                prop_assert!(c.depth.is_finite());
            }
        }
    }
}

/// A scene that runs for a long time: a big crowd with a long duration.
fn long_scene() -> Scene {
    let mut s = default_scene();
    s.settings.duration = 100_000.0;
    s.paths.clear();
    s.obstacles.clear();
    s.targets = vec![Target {
        id: "far".into(),
        position: Vec2::new(1e4, 0.0),
        radius: 0.5,
    }];
    s.bounds = Bounds {
        min: Vec2::splat(-100.0),
        max: Vec2::splat(100.0),
    };
    s.agents = (0..3000)
        .map(|i| Agent {
            id: i,
            profile: "walker".into(),
            position: Vec2::new((i % 60) as f32 - 30.0, (i / 60) as f32 - 25.0),
            heading_deg: 0.0,
            goal: Goal::Target("far".into()),
            start_time: 0.0,
            end_time: None,
            agent_type: None,
        })
        .collect();
    s
}

#[test]
fn a_killed_run_leaves_a_partial_recording_readable_up_to_its_last_complete_chunk() {
    let dir = tempfile::tempdir().unwrap();
    let scene_path = dir.path().join("long.ron");
    save_scene(&long_scene(), &scene_path).unwrap();
    let rec = dir.path().join("long.crowdrec");
    let partial = dir.path().join("long.crowdrec.partial");
    let mut child = Command::new(env!("CARGO_BIN_EXE_crowdlab"))
        .args(["run", scene_path.to_str().unwrap(), "-o", rec.to_str().unwrap()])
        .spawn()
        .unwrap();
    // Wait until a few chunks (each at most 1 MiB) are on disk, then kill the process.
    let started = Instant::now();
    while std::fs::metadata(&partial).map_or(0, |m| m.len()) < 3 << 20 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the run never wrote 3 MiB"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was killed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !rec.exists(),
        "an unfinished recording never appears under the real name"
    );
    let reader = RecordingReader::open(&partial).unwrap();
    assert!(reader.recovery_note().unwrap().contains("recovered"));
    let (first, last) = reader.tick_range();
    assert_eq!(first, 0);
    assert!(last >= 2, "at least the first chunks: last tick {last}");
    for tick in first..=last {
        let frame = reader.frame_at(tick).unwrap();
        assert_eq!(frame.tick, tick);
        assert_eq!(frame.agents.len(), 3000);
    }

    // The CLI points the user at the partial file.
    let out = Command::new(env!("CARGO_BIN_EXE_crowdlab"))
        .args([
            "export",
            rec.to_str().unwrap(),
            "--skeleton-xml",
            dir.path().join("s.xml").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("long.crowdrec.partial"));
}

// ---- Hardening (issue 17): crafted input fails cleanly, in bounded time, with a clear message.

/// Runs `work` on its own thread and fails the test if it takes longer than 20 s (a hang).
fn within_20s<T: Send + 'static>(what: &str, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(work());
    });
    rx.recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("{what}: no result within 20 s"))
}

/// `crowdlab ARGS…` in this process: exit code (0, 1 or 2) and message.
fn cli(args: &[&str]) -> (u8, String) {
    let args: Vec<String> = std::iter::once("crowdlab".to_string())
        .chain(args.iter().map(|a| a.to_string()))
        .collect();
    let what = args.join(" ");
    within_20s(&what, move || match crowdlab::cli::run_from(args) {
        Ok(()) => (0, String::new()),
        Err(e) => (e.code, e.message),
    })
}

/// A small scene text: a 20 m square with gate `g` on its west edge, one profile `w`
/// (`profile_extra` appended to it), `settings` and `rest` (more top-level fields).
fn scene_text(settings: &str, profile_extra: &str, rest: &str) -> String {
    format!(
        "(version: 1, bounds: (min: (-10.0, -10.0), max: (10.0, 10.0)),
  settings: (dt: 0.1, seed: 1, duration: 10.0, {settings}),
  profiles: [(name: \"w\", radius: 0.3, mass: 1.0, max_speed: 1.8, preferred_speed: 1.3, max_force: 4.0,
              max_turn_rate_deg: 360.0, behaviours: [], {profile_extra})],
  agents: [],
  gates: [(id: \"g\", from: (-10.0, -5.0), to: (-10.0, 5.0), direction: In)],
  {rest})"
    )
}

/// Writes `text` to `name` in `dir` and returns its path as a string.
fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// `check` and `run` of the scene both exit 2 with a message containing `expected` (the
/// message of `check` comes from the library, which prints it).
fn assert_refused(dir: &Path, text: &str, expected: &str) {
    let path = write(dir, "crafted.ron", text);
    let err = crowdlab::scene::load_scene(Path::new(&path)).unwrap_err().to_string();
    assert!(err.contains(expected), "expected {expected:?} in:\n{err}");
    assert_eq!(cli(&["check", &path]).0, 2);
    let (code, message) = cli(&["run", &path, "--ticks", "2"]);
    assert_eq!(code, 2, "{message}");
    assert!(message.contains(expected), "expected {expected:?} in:\n{message}");
}

#[test]
fn oversized_counts_and_settings_are_refused_before_any_allocation() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_refused(
        d,
        &scene_text("", "heading_smoothing: 4294967295", ""),
        "profiles[0].heading_smoothing: 4294967295 is above the limit of 1000",
    );
    for source in ["Gate(\"g\")", "Area(min: (-5.0, -5.0), max: (5.0, 5.0))"] {
        assert_refused(
            d,
            &scene_text(
                "",
                "",
                &format!("spawns: [(source: {source}, count: 4294967295, profile: \"w\")]"),
            ),
            "spawns[0].count: 4294967295 brings the scene to 4294967295 agents; at most 100000 are allowed",
        );
    }
    assert_refused(
        d,
        &scene_text("", "", "").replace("dt: 0.1", "dt: 1e-30"),
        "settings.dt: 0.000000000000000000000000000001 with duration 10 gives 1.000e31 ticks; at most 10000000",
    );
    assert_refused(
        d,
        &scene_text("", "", "").replace("max: (10.0, 10.0)", "max: (1e30, 10.0)"),
        "bounds.max: (1000000000000000000000000000000, 10) lies beyond ±1000000 m",
    );
    let ok = write(d, "ok.ron", scene_text("", "", ""));
    let (code, message) = cli(&["run", &ok, "--threads", "100000"]);
    assert_eq!(code, 2);
    assert!(
        message.contains("--threads 100000: must be between 1 and 256"),
        "{message}"
    );
    let (code, message) = cli(&["run", &ok, "--ticks", "18446744073709551615"]);
    assert_eq!(code, 2);
    assert!(
        message.contains("--ticks 18446744073709551615: at most 10000000"),
        "{message}"
    );
}

#[test]
fn spawn_groups_are_placed_apart_and_clear_of_obstacles_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let area = |min: &str, max: &str, count: u32| {
        scene_text(
            "",
            "",
            &format!("spawns: [(source: Area(min: {min}, max: {max}), count: {count}, profile: \"w\")]"),
        )
    };
    // Infinite, degenerate and outside-the-bounds areas.
    assert_refused(
        d,
        &area("(-inf, -5.0)", "(inf, 5.0)", 10),
        "spawns[0].source.min: (-inf, -5) must have finite coordinates",
    );
    assert_refused(
        d,
        &area("(1.0, 1.0)", "(1.0, 5.0)", 10),
        "spawns[0].source: area min (1, 1) must be below and left of max (1, 5)",
    );
    assert_refused(
        d,
        &area("(20.0, 20.0)", "(30.0, 30.0)", 10),
        "spawns[0].source: area (20, 20)–(30, 30) reaches outside the bounds",
    );
    // More agents than the area holds apart.
    assert_refused(
        d,
        &area("(0.0, 0.0)", "(2.0, 2.0)", 50),
        "spawns[0].count: 50 agents of radius 0.3 do not fit the area (0, 0)–(2, 2)",
    );
    // 10,000 arriving at once at one 10 m gate: refused at once, not a minute-long tick.
    assert_refused(
        d,
        &scene_text("", "", "spawns: [(source: Gate(\"g\"), count: 10000, profile: \"w\")]"),
        "spawns[0].count: 10000 agents of radius 0.3 arriving at once do not fit side by side at gate \"g\" (room for 13)",
    );

    // An area with an obstacle in it: every spawned body starts apart and outside it (Straight planner).
    let text = scene_text(
        "",
        "",
        "obstacles: [Circle(center: (0.0, 0.0), radius: 3.0), Polygon(vertices: [(5.0, -9.0), (9.0, -9.0), (9.0, -5.0)])],
         spawns: [(source: Area(min: (-9.0, -9.0), max: (9.0, 9.0)), count: 200, profile: \"w\"),
                  (source: Gate(\"g\"), count: 12, profile: \"w\")]",
    );
    let scene = crowdlab::scene::parse_valid_scene(&text, Path::new("spawn.ron")).unwrap_or_else(|e| panic!("{e}"));
    let frames = frames_with_threads(&scene, 1, 1);
    let agents = &frames[0].agents;
    assert_eq!(agents.len(), 212);
    for (i, a) in agents.iter().enumerate() {
        assert!(
            a.position.length() >= 3.3 - 1e-3,
            "agent {} inside the circle at {}",
            a.id,
            a.position
        );
        for o in &scene.obstacles {
            assert!(
                !crowdlab::scene::overlaps_obstacle(o, a.position, 0.3, 0.0, 1e-4),
                "agent {} in {o:?}",
                a.id
            );
        }
        for b in &agents[i + 1..] {
            assert!(
                a.position.distance(b.position) >= 0.6 - 1e-3,
                "agents {} and {} overlap",
                a.id,
                b.id
            );
        }
    }
}

/// Every agent that appears in a frame of `frames` (an `Appeared` event) keeps its distance
/// there from every other agent of the frame: no body appears overlapping another.
fn assert_no_agent_appears_overlapping(frames: &[Frame], radius: f32) -> usize {
    let mut appeared = 0;
    for frame in frames {
        for event in &frame.events {
            let crowdlab::record::AgentEvent::Appeared { agent } = *event else {
                continue;
            };
            appeared += 1;
            let a = frame.agent(agent).expect("an agent that appeared is in its frame");
            for b in frame.agents.iter().filter(|b| b.id != agent) {
                assert!(
                    a.position.distance(b.position) >= 2.0 * radius - 1e-4,
                    "tick {}: agent {agent} appears at {} overlapping agent {} at {}",
                    frame.tick,
                    a.position,
                    b.id,
                    b.position
                );
            }
        }
    }
    appeared
}

#[test]
fn gate_arrivals_never_appear_overlapping_and_wait_for_a_free_slot() {
    let walker = "(behaviour: Arrive(deceleration: Fast), weight: 1.0)";
    let scene = |spawns: &str| {
        let text = scene_text(
            "",
            "",
            &format!("targets: [(id: \"t\", position: (8.0, 0.0), radius: 0.5)], spawns: [{spawns}]"),
        )
        .replace("behaviours: []", &format!("behaviours: [{walker}]"));
        crowdlab::scene::parse_valid_scene(&text, Path::new("gate.ron")).unwrap_or_else(|e| panic!("{e}"))
    };
    let group = |count: u32, mean: f32, sd: f32| {
        format!(
            "(source: Gate(\"g\"), count: {count}, profile: \"w\", goal: Target(\"t\"), interval: Some((mean: {mean}, sd: {sd})))"
        )
    };
    // 5,000 agents a millisecond apart at one 10 m gate (13 slots), two groups sharing the gate
    // with a burst arriving at once beside them, and two bursts filling the gate a tick apart,
    // the second finding its slots taken with nobody arriving after it: all 26 get in.
    let crowded = scene(&group(5000, 0.001, 0.0));
    let shared = scene(&format!(
        "{}, {}, (source: Gate(\"g\"), count: 13, profile: \"w\", goal: Target(\"t\"), start_time: 1.0)",
        group(300, 0.05, 0.05),
        group(300, 0.02, 0.1)
    ));
    let burst = |start: f32| {
        format!("(source: Gate(\"g\"), count: 13, profile: \"w\", goal: Target(\"t\"), start_time: {start:?})")
    };
    let bursts = scene(&format!("{}, {}", burst(0.0), burst(0.1)));
    for (name, scene, at_least) in [
        ("crowded", crowded, 100),
        ("shared", shared, 100),
        ("bursts", bursts, 26),
    ] {
        let started = Instant::now();
        let run = scene.clone();
        let frames = within_20s(name, move || frames_with_threads(&run, 150, 1));
        let appeared = assert_no_agent_appears_overlapping(&frames, 0.3);
        eprintln!(
            "{name}: {appeared} agents appeared in 150 ticks, {:?}",
            started.elapsed()
        );
        assert!(appeared >= at_least, "{name}: only {appeared} agents got in");
        // Admission happens in agent order in the sequential phase: the same run at any thread count.
        assert_eq!(
            bits(&frames),
            bits(&frames_with_threads(&scene, 150, 2)),
            "{name}: 1 vs 2 threads"
        );
    }
}

#[test]
fn agents_in_one_column_or_on_one_point_are_checked_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let agent = |i: usize, x: f32, y: f32| {
        format!("(id: {i}, profile: \"w\", position: ({x:?}, {y:?}), heading_deg: 0.0, goal: None)")
    };
    let text = |agents: Vec<String>| {
        format!(
            "(version: 1, bounds: (min: (-1.0, -1.0), max: (1.0, 60001.0)),
  settings: (dt: 0.1, seed: 1, duration: 10.0),
  profiles: [(name: \"w\", radius: 0.3, mass: 1.0, max_speed: 1.8, preferred_speed: 1.3, max_force: 4.0,
              max_turn_rate_deg: 360.0, behaviours: [])],
  agents: [{}])",
            agents.join(",\n")
        )
    };
    // 60,000 agents 1 m apart in one column: an x-sorted sweep compares every pair (1.8·10⁹).
    let column = write(
        dir.path(),
        "column.ron",
        text((0..60_000).map(|i| agent(i, 0.0, i as f32)).collect()),
    );
    let started = Instant::now();
    assert_eq!(cli(&["check", &column]), (0, String::new()));
    eprintln!("check of a 60,000-agent column: {:?}", started.elapsed());

    // 60,000 agents on one point: every pair overlaps; the first 100 are listed, then a summary.
    let pile = write(
        dir.path(),
        "pile.ron",
        text((0..60_000).map(|i| agent(i, 0.0, 5.0)).collect()),
    );
    let started = Instant::now();
    let (code, message) = cli(&["check", &pile]);
    eprintln!("check of 60,000 agents on one point: {:?}", started.elapsed());
    assert_eq!(code, 2, "{message}");
    let err = crowdlab::scene::load_scene(std::path::Path::new(&pile))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("agents[1].position: (0, 5) overlaps agents[0] at (0, 5)"),
        "{err}"
    );
    assert!(
        err.contains("agents: more agents overlap; the first 100 overlaps are listed"),
        "{err}"
    );
    assert!(err.lines().count() < 200, "a bounded report, not 1.8·10⁹ lines");
}

#[test]
fn many_agents_among_many_obstacles_check_in_near_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 100,000 small discs (the limit) on a 2 m lattice over 500 m × 800 m, 40,000 agents between
    // them and an area of 10,000 more among them: a scan of every obstacle for every body would be
    // 5·10⁹ tests, far beyond the 20 s watchdog of each command.
    let obstacles: Vec<String> = (0..100_000)
        .map(|k| {
            format!(
                "Circle(center: ({}.0, {}.0), radius: 0.2)",
                (k % 250) * 2 + 1,
                (k / 250) * 2 + 1
            )
        })
        .collect();
    let agent = |i: usize, x: f32, y: f32| {
        format!("(id: {i}, profile: \"w\", position: ({x:?}, {y:?}), heading_deg: 0.0, goal: None)")
    };
    let mut agents: Vec<String> = (0..40_000)
        .map(|i| agent(i, ((i % 200) * 2) as f32, ((i / 200) * 2) as f32))
        .collect();
    let text = |agents: &[String]| {
        format!(
            "(version: 1, bounds: (min: (-1.0, -1.0), max: (501.0, 801.0)),
  settings: (dt: 0.1, seed: 1, duration: 10.0),
  profiles: [(name: \"w\", radius: 0.3, mass: 1.0, max_speed: 1.8, preferred_speed: 1.3, max_force: 4.0,
              max_turn_rate_deg: 360.0, behaviours: [])],
  agents: [{}],
  obstacles: [{}],
  spawns: [(source: Area(min: (400.0, 0.0), max: (500.0, 800.0)), count: 10000, profile: \"w\")])",
            agents.join(",\n"),
            obstacles.join(",\n")
        )
    };
    let valid = write(d, "valid.ron", text(&agents));
    let started = Instant::now();
    assert_eq!(cli(&["check", &valid]), (0, String::new()));
    eprintln!(
        "check of 50,000 agents among 100,000 obstacles: {:?}",
        started.elapsed()
    );
    let started = Instant::now();
    let rec = d.join("run.crowdrec").to_str().unwrap().to_string();
    assert_eq!(cli(&["run", &valid, "--ticks", "2", "-o", &rec]), (0, String::new()));
    eprintln!("run of 2 ticks: {:?}", started.elapsed());

    // One agent moved onto a disc: refused, naming the agent, the obstacle and the position.
    agents[40_000 - 1] = agent(39_999, 399.0, 397.0);
    let started = Instant::now();
    let (code, message) = cli(&["check", &write(d, "inside.ron", text(&agents))]);
    eprintln!("check of the invalid scene: {:?}", started.elapsed());
    assert_eq!(code, 2, "{message}");
    let err = crowdlab::scene::load_scene(&d.join("inside.ron"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("agents[39999].position: (399, 397) (radius 0.3) starts inside obstacles[49699]"),
        "{err}"
    );

    // Beyond the limits: 100,001 obstacles, 1,001 moving circles.
    let mut scene = default_scene();
    let disc = |x: f32| Obstacle::Circle {
        center: Vec2::new(x, 50.0),
        radius: 0.1,
    };
    scene.obstacles = (0..100_001).map(|i| disc(i as f32)).collect();
    let problems: Vec<String> = validate(&scene).iter().map(|p| p.to_string()).collect();
    assert!(
        problems.contains(&"obstacles: 100001 obstacles; at most 100000 are allowed".to_string()),
        "{problems:?}"
    );
    scene.obstacles = (0..1001)
        .map(|i| Obstacle::MovingCircle {
            center: Vec2::new(i as f32, 50.0),
            radius: 0.1,
            velocity: Vec2::X,
        })
        .collect();
    let problems: Vec<String> = validate(&scene).iter().map(|p| p.to_string()).collect();
    assert!(
        problems.contains(&"obstacles: 1001 moving circles; at most 1000 are allowed".to_string()),
        "{problems:?}"
    );
}

/// A recording of ticks 0..=70 of the two-agent scene in `dir`: its path, header and the
/// frames of ticks 0..70.
fn small_recording(dir: &Path) -> (String, crowdlab::record::RecordingHeader, Vec<Frame>) {
    let scene = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/two_agents_crossing.ron");
    let rec = dir.join("small.crowdrec").to_str().unwrap().to_string();
    assert_eq!(cli(&["run", scene, "-o", &rec, "--ticks", "70"]).0, 0);
    let reader = RecordingReader::open(Path::new(&rec)).unwrap();
    let frames = (0..70).map(|t| reader.frame_at(t).unwrap()).collect();
    (rec, reader.header().clone(), frames)
}

/// Writes a recording with `header` and `frames` to `dir/name`.
fn write_recording(dir: &Path, name: &str, header: &crowdlab::record::RecordingHeader, frames: &[Frame]) -> String {
    let path = dir.join(name);
    let mut w = crowdlab::record::RecordingWriter::create(&path, header).unwrap();
    for f in frames {
        w.push(f).unwrap();
    }
    w.finish().unwrap();
    path.to_str().unwrap().to_string()
}

/// The little-endian u32 at `at`.
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// Rewrites the block starting at `at` (tag, length, CRC, payload) after `edit` changed its
/// payload in place, with a fresh CRC so only the crafted values are wrong.
fn edit_block(bytes: &mut [u8], at: usize, edit: impl FnOnce(&mut [u8])) {
    let len = u32_at(bytes, at + 4) as usize;
    edit(&mut bytes[at + 12..at + 12 + len]);
    let crc = crc32fast::hash(&bytes[at + 12..at + 12 + len]);
    bytes[at + 8..at + 12].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn crafted_recordings_are_refused_or_recovered_never_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (rec, header, frames) = small_recording(d);
    let csv = d.join("out.csv").to_str().unwrap().to_string();
    let export_csv = |path: &str| cli(&["export", path, "--csv", &csv]);

    // Ticks near the end of u64: 2^63 exports, ticks that would overflow are refused.
    let shifted = |start: u64| -> Vec<Frame> {
        frames
            .iter()
            .enumerate()
            .map(|(i, f)| Frame {
                tick: start.wrapping_add(i as u64),
                ..f.clone()
            })
            .collect()
    };
    let far = write_recording(d, "far.crowdrec", &header, &shifted(1 << 63));
    assert_eq!(export_csv(&far), (0, String::new()));
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 1 + 70 * 2);
    let overflowing = write_recording(d, "overflow.crowdrec", &header, &shifted(u64::MAX - 10));
    let (code, message) = export_csv(&overflowing);
    assert_eq!(code, 2, "{message}");
    assert!(message.contains("holds no complete frame"), "{message}");

    // A 26-byte file whose header claims 1 GiB.
    let mut tiny = b"CROWDREC".to_vec();
    tiny.extend(3u32.to_le_bytes());
    tiny.extend(b"HEAD");
    tiny.extend((1u32 << 30).to_le_bytes());
    tiny.extend([0u8; 6]);
    assert_eq!(tiny.len(), 26);
    let (code, message) = export_csv(&write(d, "tiny.crowdrec", &tiny));
    assert_eq!(code, 2);
    assert!(message.contains("header block is damaged or cut short"), "{message}");

    // 0xFFFFFFFF frames in the index, in a chunk, and a reversed index.
    let bytes = std::fs::read(&rec).unwrap();
    let index_at = u64::from_le_bytes(bytes[bytes.len() - 16..bytes.len() - 8].try_into().unwrap()) as usize;
    let first_chunk = 24 + u32_at(&bytes, 16) as usize;
    let mut huge_index = bytes.clone();
    edit_block(&mut huge_index, index_at, |p| {
        p[1 + 8..1 + 12].copy_from_slice(&u32::MAX.to_le_bytes())
    });
    let mut huge_chunk = bytes.clone();
    edit_block(&mut huge_chunk, first_chunk, |p| {
        p[8..12].copy_from_slice(&u32::MAX.to_le_bytes())
    });
    let mut reversed = bytes.clone();
    edit_block(&mut reversed, index_at, |p| {
        assert_eq!(p[0], 2, "two chunks of 64 and 6 frames");
        let (a, b) = p[1..41].split_at_mut(20);
        a.swap_with_slice(b);
    });
    assert_eq!(export_csv(&rec), (0, String::new()));
    let full = std::fs::read_to_string(&csv).unwrap();
    for (name, crafted) in [("huge_index", huge_index), ("reversed", reversed)] {
        let path = write(d, &format!("{name}.crowdrec"), crafted);
        assert_eq!(export_csv(&path), (0, String::new()), "{name}");
        // Recovered by scanning the chunks: every frame exported.
        assert_eq!(std::fs::read_to_string(&csv).unwrap(), full, "{name}");
        let note = RecordingReader::open(Path::new(&path))
            .unwrap()
            .recovery_note()
            .unwrap()
            .to_string();
        assert!(
            note.contains("the index is damaged") && note.contains("recovered 71 frame(s)"),
            "{note}"
        );
    }
    let path = write(d, "huge_chunk.crowdrec", huge_chunk);
    let (code, message) = export_csv(&path);
    assert_eq!(code, 2, "{message}");
    assert!(message.contains("chunk 0"), "{message}");

    // An embedded scene that is not valid is refused on open.
    let mut bad = header.clone();
    bad.scene.version = 99;
    let (code, message) = export_csv(&write_recording(d, "v99.crowdrec", &bad, &frames));
    assert_eq!(code, 2);
    assert!(message.contains("embedded scene has version 99"), "{message}");
    let mut bad = header.clone();
    std::mem::swap(&mut bad.scene.bounds.min, &mut bad.scene.bounds.max);
    bad.scene.profiles[0].radius = -1.0;
    let (code, message) = export_csv(&write_recording(d, "inverted.crowdrec", &bad, &frames));
    assert_eq!(code, 2);
    assert!(
        message.contains("embedded scene is not valid") && message.contains("profiles[0].radius: -1"),
        "{message}"
    );
}

#[test]
fn bad_option_values_exit_2_naming_the_option_and_value() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (rec, _, _) = small_recording(d);
    let png = d.join("png").to_str().unwrap().to_string();
    let xml = d.join("s.xml").to_str().unwrap().to_string();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--png", &png, "--width", "0"],
            "--width 0 --height 720: each side must be between 1 and 8192",
        ),
        (
            &["--png", &png, "--width", "16384", "--height", "16384"],
            "--width 16384 --height 16384: each side",
        ),
        (
            &["--png", &png, "--width", "8192", "--height", "8192"],
            "67108864 pixels; at most 33554432",
        ),
        (&["--png", &png, "--follow", "999"], "--follow 999: "),
        (
            &["--png", &png, "--follow", "0", "--follow-width", "NaN"],
            "--follow-width NaN must be a finite number",
        ),
        (
            &["--png", &png, "--prefix", "../x"],
            "--prefix \"../x\": a file name prefix cannot contain a path separator",
        ),
        (
            &["--csv", &xml, "--from", "50", "--to", "10"],
            "--from 50 is after --to 10",
        ),
        (
            &["--csv", &xml, "--from", "5000"],
            "select no recorded tick (the recording holds ticks 0..=70)",
        ),
        (
            &["--skeleton-xml", &xml, "--fps", "1e9"],
            "--fps 1000000000 must be greater than 0 and at most 1000",
        ),
        (
            &["--png", &png, "--camera-rect", "-5,-5,-6,5"],
            "--camera-rect \"-5,-5,-6,5\": expected four numbers",
        ),
    ];
    for (options, expected) in cases {
        let mut args = vec!["export", rec.as_str()];
        args.extend_from_slice(options);
        let (code, message) = cli(&args);
        assert_eq!(code, 2, "{options:?}: {message}");
        assert!(
            message.contains(expected),
            "{options:?}: expected {expected:?} in {message:?}"
        );
    }
    assert!(!Path::new(&png).exists(), "no output folder for refused options");
    // A negative camera rectangle is a value, not a flag.
    assert_eq!(
        cli(&["export", &rec, "--png", &png, "--camera-rect", "-5,-5,5,5", "--to", "1"]),
        (0, String::new())
    );

    // Import: non-UTF-8 text and a byte order mark.
    let xml_in = write(
        d,
        "latin1.xml",
        b"<SteerBenchTestCase>\n<header><name>caf\xe9</name></header>\n</SteerBenchTestCase>",
    );
    let out = d.join("imported.ron").to_str().unwrap().to_string();
    let (code, message) = cli(&["import", &xml_in, "-o", &out]);
    assert_eq!(code, 2, "{message}");
    assert!(
        message.contains("latin1.xml:2: byte 0xe9 at offset 38 is not UTF-8 text"),
        "{message}"
    );
    let crossing = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/steersuite/crossing.xml"
    ))
    .unwrap();
    let bom = write(d, "bom.xml", [b"\xef\xbb\xbf".as_slice(), &crossing].concat());
    assert_eq!(cli(&["import", &bom, "-o", &out]).0, 0);
}

#[test]
fn crafted_xml_imports_fail_fast_or_import_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("imported.ron").to_str().unwrap().to_string();
    let import = |name: &str, text: String| cli(&["import", &write(d, name, text), "-o", &out]);
    let steer = |body: &str| {
        format!(
            "<SteerBenchTestCase>\n<header><worldBounds><xmin>-50</xmin><xmax>50</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-50</zmin><zmax>50</zmax></worldBounds></header>\n{body}\n</SteerBenchTestCase>"
        )
    };

    // 200,000 nested elements and 200,000 attributes on one element.
    let deep = format!("{}{}", "<a>".repeat(200_000), "</a>".repeat(200_000));
    let (code, message) = import("deep.xml", deep);
    assert_eq!(code, 2);
    assert!(
        message.contains("deep.xml:1: malformed XML: elements nest deeper than 256 levels"),
        "{message}"
    );
    let attributes: String = (0..200_000).map(|i| format!(" a{i}=\"1\"")).collect();
    let (code, message) = import("attrs.xml", format!("<SteerBenchTestCase{attributes}/>"));
    assert_eq!(code, 2);
    assert!(
        message.contains("<SteerBenchTestCase> has more than 256 attributes"),
        "{message}"
    );

    // Region counts from the file are bounded before anything is generated.
    let (code, message) = import(
        "obstacles.xml",
        steer(
            "<obstacleRegion>\n<numObstacles>4294967295</numObstacles><obstacleSize>1</obstacleSize><regionBounds><xmin>-5</xmin><xmax>5</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-5</zmin><zmax>5</zmax></regionBounds></obstacleRegion>",
        ),
    );
    assert_eq!(code, 2);
    assert!(
        message.contains("obstacles.xml:4: numObstacles \"4294967295\" is not a count from 0 to 10000"),
        "{message}"
    );
    let (code, message) = import(
        "agents.xml",
        steer(
            "<agentRegion>\n<numAgents>4294967295</numAgents><regionBounds><xmin>-5</xmin><xmax>5</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-5</zmin><zmax>5</zmax></regionBounds><initialConditions><radius>0.5</radius></initialConditions></agentRegion>",
        ),
    );
    assert_eq!(code, 2);
    assert!(
        message.contains("agents.xml:4: numAgents \"4294967295\" is not a count from 0 to 10000"),
        "{message}"
    );

    // Validation problems of the imported scene point at the element's line, not line 1.
    let overlapping = "<indAlgoConf>\n<obstacles>\n\
        <pedestrian index=\"0\" radius=\"0.5\"><location x=\"0\" y=\"0\"/><velocity x=\"0\" y=\"0\"/><targets/></pedestrian>\n\
        <obstacle index=\"1\" radius=\"0.5\"><location x=\"5\" y=\"0\"/><velocity x=\"0\" y=\"0\"/></obstacle>\n\
        <pedestrian index=\"2\" radius=\"0.5\"><location x=\"0.2\" y=\"0\"/><velocity x=\"0\" y=\"0\"/><targets/></pedestrian>\n\
        </obstacles>\n</indAlgoConf>\n";
    let (code, message) = import("overlap.iascene", overlapping.to_string());
    assert_eq!(code, 2);
    assert!(
        message.contains("overlap.iascene:5: agents[1].position: (0.2, 0) overlaps agents[0]"),
        "{message}"
    );

    // 20,000 pedestrians of distinct radii (one profile each): import and check are linear.
    let pedestrians: String = (0..20_000)
        .map(|i| {
            let (x, y) = ((i % 200) as f32 * 2.0, (i / 200) as f32 * 2.0);
            format!(
                "<pedestrian index=\"{i}\" radius=\"{}\"><location x=\"{x}\" y=\"{y}\"/><velocity x=\"0\" y=\"0\"/><targets><target x=\"{x}\" y=\"{}\"/></targets></pedestrian>\n",
                0.2 + i as f32 * 1e-5,
                y + 1.0
            )
        })
        .collect();
    let scene = format!("<indAlgoConf>\n<obstacles>\n{pedestrians}</obstacles>\n</indAlgoConf>\n");
    assert_eq!(import("many.iascene", scene), (0, String::new()));
    assert_eq!(cli(&["check", &out]), (0, String::new()));
}

#[test]
fn outputs_never_destroy_inputs_and_failed_png_exports_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (rec, _, _) = small_recording(d);
    let scene = write(
        d,
        "scene.ron",
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/two_agents_crossing.ron")).unwrap(),
    );
    let xml = write(
        d,
        "case.xml",
        std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/steersuite/crossing.xml"
        ))
        .unwrap(),
    );
    let before: Vec<Vec<u8>> = [&rec, &scene, &xml].iter().map(|p| std::fs::read(p).unwrap()).collect();
    let same_dir = format!("{}/../{}", d.display(), d.file_name().unwrap().to_str().unwrap());
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["export", &rec, "--csv", &rec], "--csv"),
        (vec!["export", &rec, "--skeleton-xml", &rec], "--skeleton-xml"),
        (vec!["run", &scene, "-o", &scene], "-o"),
        (vec!["run", &scene, "--metrics", &scene], "--metrics"),
        (vec!["import", &xml, "-o", &xml], "-o"),
        (vec!["compare", &scene, "--out", &scene], "--out"),
    ];
    for (args, option) in &cases {
        let (code, message) = cli(args);
        assert_eq!(code, 2, "{args:?}: {message}");
        assert!(
            message.starts_with(&format!("{option} ")) && message.contains("is the input file"),
            "{message}"
        );
    }
    // The same file reached through another spelling, and two outputs on one file.
    let other_spelling = format!("{same_dir}/small.crowdrec");
    assert_eq!(cli(&["export", &rec, "--csv", &other_spelling]).0, 2);
    let out = d.join("o.txt").to_str().unwrap().to_string();
    let (code, message) = cli(&["export", &rec, "--csv", &out, "--skeleton-xml", &out]);
    assert_eq!(code, 2);
    assert!(message.contains("--skeleton-xml writes the same file"), "{message}");
    let after: Vec<Vec<u8>> = [&rec, &scene, &xml].iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert!(before == after, "an input was changed");

    // A PNG export that fails on a damaged second chunk (after the first chunk's frames are
    // written) leaves no frames and no .partial folder.
    let mut bytes = std::fs::read(&rec).unwrap();
    let first_chunk = 24 + u32_at(&bytes, 16) as usize;
    let second_chunk = first_chunk + 12 + u32_at(&bytes, first_chunk + 4) as usize;
    edit_block(&mut bytes, second_chunk, |p| p[12] ^= 1); // a wrong uncompressed length, valid CRC
    let damaged = write(d, "damaged.crowdrec", bytes);
    let frames = d.join("frames");
    let (code, message) = cli(&[
        "export",
        &damaged,
        "--png",
        frames.to_str().unwrap(),
        "--width",
        "64",
        "--height",
        "64",
    ]);
    assert_eq!(code, 2, "{message}");
    assert!(message.contains("chunk 1"), "{message}");
    assert!(
        !frames.exists() && !d.join("frames.partial").exists(),
        "a failed export left files behind"
    );
}

/// Sends `signal` (e.g. "-TERM") to the process `pid`.
fn send(signal: &str, pid: u32) {
    assert!(
        Command::new("kill")
            .args([signal, &pid.to_string()])
            .status()
            .unwrap()
            .success()
    );
}

#[test]
fn sigterm_and_sigint_leave_no_partial_export_and_name_the_kept_recording() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (rec, _, _) = small_recording(d);
    let frames = d.join("frames");
    let partial = d.join("frames.partial");
    let mut child = Command::new(env!("CARGO_BIN_EXE_crowdlab"))
        .args([
            "export",
            &rec,
            "--png",
            frames.to_str().unwrap(),
            "--width",
            "4096",
            "--height",
            "4096",
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_dir(&partial).map_or(0, |f| f.count()) == 0 {
        assert!(started.elapsed() < Duration::from_secs(60), "no frame was written");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the export ended before the signal"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    send("-TERM", child.id());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        !partial.exists() && !frames.exists(),
        "the interrupted export left files behind"
    );

    // An interrupted run keeps its recording under .partial and says so; the previous
    // recording under the real name (of another scene) is left alone, and exporting it warns
    // about the newer interrupted one.
    let scene_path = d.join("long.ron");
    save_scene(&long_scene(), &scene_path).unwrap();
    let long = d.join("long.crowdrec");
    std::fs::copy(&rec, &long).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    let kept = d.join("long.crowdrec.partial");
    let mut child = Command::new(env!("CARGO_BIN_EXE_crowdlab"))
        .args(["run", scene_path.to_str().unwrap(), "-o", long.to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::metadata(&kept).map_or(0, |m| m.len()) < 1 << 20 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the run never wrote 1 MiB"
        );
        assert!(child.try_wait().unwrap().is_none(), "the run ended before the signal");
        std::thread::sleep(Duration::from_millis(20));
    }
    send("-INT", child.id());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("the recording so far is kept in {}", kept.display())),
        "{stderr}"
    );
    assert!(RecordingReader::open(&kept).unwrap().frame_count() > 0);
    assert_eq!(std::fs::read(&long).unwrap(), std::fs::read(&rec).unwrap());
    let out = Command::new(env!("CARGO_BIN_EXE_crowdlab"))
        .args([
            "export",
            long.to_str().unwrap(),
            "--csv",
            d.join("old.csv").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("is older than the interrupted recording"), "{stderr}");
}
