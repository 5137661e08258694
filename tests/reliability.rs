//! Reliability: determinism at every thread count, finite values on random valid scenes,
//! interrupted recordings still readable.

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
    let mut frames = Vec::new();
    pool.install(|| {
        run_scene(
            Arc::new(scene.clone()),
            RunLimit { ticks: Some(ticks) },
            &mut frames,
            |_, _| {},
        )
    })
    .unwrap();
    frames
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
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

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
