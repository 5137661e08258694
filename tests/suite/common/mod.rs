//! Helpers shared by the integration tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crowdlab::record::RecordingWriter;
use crowdlab::scene::default_scene;
use crowdlab::sim::World;
use crowdlab::sim::run::header_for;

use quick_xml::events::Event;

/// Path of a file under tests/data.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// The structure of an XML document modulo formatting: one line per start tag (name and
/// attributes in order), text and end tag; comments and whitespace dropped, `<a/>` = `<a></a>`.
pub fn canonical_xml(text: &str) -> Vec<String> {
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let mut out = Vec::new();
    let start = |e: &quick_xml::events::BytesStart| {
        let attrs: Vec<String> = e
            .attributes()
            .map(|a| {
                let a = a.unwrap();
                format!(
                    "{}={}",
                    String::from_utf8_lossy(a.key.as_ref()),
                    a.unescape_value().unwrap()
                )
            })
            .collect();
        format!("<{} {}>", String::from_utf8_lossy(e.name().as_ref()), attrs.join(" "))
    };
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) => out.push(start(&e)),
            Event::Empty(e) => {
                out.push(start(&e));
                out.push(format!("</{}>", String::from_utf8_lossy(e.name().as_ref())));
            }
            Event::End(e) => out.push(format!("</{}>", String::from_utf8_lossy(e.name().as_ref()))),
            Event::Text(t) => {
                let t = t.decode().unwrap();
                if !t.trim().is_empty() {
                    out.push(t.trim().to_string());
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    out
}

use crowdlab::record::{
    AgentEntry, AgentSample, AgentTable, FLAG_ARRIVED, ForceSample, Frame, MemoryRecording, ProfileEntry,
    RecordingHeader,
};
use crowdlab::scene::{Agent, Bounds, Goal, Obstacle, Profile, Scene, Target};
use glam::Vec2;

/// Path of a golden file under tests/golden.
pub fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// True when golden files should be rewritten (`CROWDLAB_UPDATE_GOLDEN=1 cargo test`).
pub fn update_golden() -> bool {
    std::env::var_os("CROWDLAB_UPDATE_GOLDEN").is_some()
}

fn sample(
    id: u32,
    position: Vec2,
    velocity: Vec2,
    flags: u8,
    forces: &mut Vec<ForceSample>,
    f: &[(u16, Vec2)],
) -> AgentSample {
    let force_start = forces.len() as u32;
    forces.extend(f.iter().map(|&(label, force)| ForceSample {
        label,
        force,
        kept: 1.0,
    }));
    AgentSample {
        id,
        profile: u32::from(id == 1),
        position,
        velocity,
        heading: velocity.try_normalize().unwrap_or(Vec2::X),
        preferred_velocity: velocity,
        steering: f.iter().map(|x| x.1).sum(),
        avoidance: Vec2::ZERO,
        state: 0,
        flags,
        force_start,
        force_count: f.len() as u16,
    }
}

/// A small hand-made recording independent of the simulation (so export goldens only change
/// when an exporter does), 6 ticks of 0.5 s in a 12 × 6 m scene:
/// - agent 0 (profile "walker") walks east at 1 m/s with a seek force (and a separation force
///   from tick 2 on, so some rows lack it);
/// - agent 1 (profile "runner") appears at tick 2 and runs west at 3 m/s;
/// - agent 2 ("walker") stands near the wall, has arrived from tick 1 and has left after tick 3.
pub fn known_recording() -> MemoryRecording {
    let mut scene = Scene::empty();
    scene.name = "export fixture".into();
    scene.bounds = Bounds {
        min: Vec2::new(-6.0, -3.0),
        max: Vec2::new(6.0, 3.0),
    };
    scene.settings.dt = 0.5;
    scene.profiles = vec![
        Profile {
            name: "walker".into(),
            radius: 0.3,
            ..Profile::default()
        },
        Profile {
            name: "runner".into(),
            radius: 0.25,
            max_speed: 3.5,
            ..Profile::default()
        },
    ];
    let agent = |id: u32, profile: &str, x: f32, y: f32, start_time: f32| Agent {
        id,
        profile: profile.into(),
        position: Vec2::new(x, y),
        heading_deg: 0.0,
        goal: Goal::None,
        start_time,
        end_time: None,
        agent_type: None,
    };
    scene.agents = vec![
        agent(0, "walker", -4.0, 0.0, 0.0),
        agent(1, "runner", 4.0, 1.0, 1.0),
        agent(2, "walker", 2.0, -2.0, 0.0),
    ];
    scene.targets = vec![Target {
        id: "east".into(),
        position: Vec2::new(5.0, 0.0),
        radius: 0.3,
    }];
    scene.obstacles = vec![
        Obstacle::Circle {
            center: Vec2::new(0.0, 2.0),
            radius: 0.5,
        },
        Obstacle::Wall {
            a: Vec2::new(-6.0, -3.0),
            b: Vec2::new(6.0, -3.0),
        },
    ];
    let compiled = |p: &Profile| ProfileEntry {
        name: p.name.clone(),
        radius: p.radius,
        max_speed: p.max_speed,
        sensing_radius: 1.0,
        force_labels: vec![0, 1],
    };
    let entries = scene
        .agents
        .iter()
        .map(|a| AgentEntry {
            id: a.id,
            profile: u32::from(a.profile == "runner"),
            agent_type: None,
            goal: a.goal.clone(),
            spawned: false,
            position: a.position,
            start_time: a.start_time,
        })
        .collect();
    let header = RecordingHeader {
        agents: AgentTable::new(scene.profiles.iter().map(compiled).collect(), entries),
        scene,
        labels: vec!["seek".into(), "separation".into()],
        states: vec!["walking".into()],
        dt: 0.5,
        record_every: 1,
    };
    let mut recording = MemoryRecording::new(header);
    for tick in 0..6u64 {
        let t = tick as f32 * 0.5;
        let mut forces = Vec::new();
        let mut agents = Vec::new();
        let mut f0 = vec![(0u16, Vec2::new(1.5, 0.0))];
        if tick >= 2 {
            f0.push((1, Vec2::new(0.0, -0.75)));
        }
        agents.push(sample(
            0,
            Vec2::new(-4.0 + t, 0.0),
            Vec2::new(1.0, 0.0),
            0,
            &mut forces,
            &f0,
        ));
        if tick >= 2 {
            let x = 4.0 - 3.0 * (t - 1.0);
            agents.push(sample(
                1,
                Vec2::new(x, 1.0),
                Vec2::new(-3.0, 0.0),
                0,
                &mut forces,
                &[(0, Vec2::new(-2.0, 0.5))],
            ));
        }
        if tick <= 3 {
            let flags = if tick >= 1 { FLAG_ARRIVED } else { 0 };
            agents.push(sample(2, Vec2::new(2.0, -2.0), Vec2::ZERO, flags, &mut forces, &[]));
        }
        recording.push(Frame {
            tick,
            time: t,
            agents,
            forces,
            contacts: Vec::new(),
            debug: Vec::new(),
            events: Vec::new(),
        });
    }
    recording
}

/// Writes tick 0 and `ticks` stepped ticks of the default scene to the recording `path`.
pub fn record_default_scene(path: &Path, ticks: usize) {
    let mut world = World::new(Arc::new(default_scene()));
    let mut writer = RecordingWriter::create(path, &header_for(&world)).unwrap();
    writer.push(&world.snapshot_frame()).unwrap();
    for _ in 0..ticks {
        writer.push(&world.step()).unwrap();
    }
    writer.finish().unwrap();
}

/// The frames of `scene` run headless for `ticks` ticks, on the current rayon pool.
pub fn run_frames(scene: &Scene, ticks: u64) -> Vec<Frame> {
    let mut frames = Vec::new();
    crowdlab::sim::run::run_scene(
        Arc::new(scene.clone()),
        crowdlab::sim::run::RunLimit { ticks: Some(ticks) },
        &mut frames,
        |_, _| {},
    )
    .unwrap();
    frames
}

/// The configuration of the suite's property tests: `cases` cases drawn from a fixed seed, so
/// that every run (and CI) checks the same cases; change the seed to explore others.
pub fn property_cases(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x00C0_FFEE),
        ..proptest::test_runner::Config::default()
    }
}
