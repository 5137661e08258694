//! Core simulation benchmarks: one tick of a dense pedestrian crowd (arrive + separation on the
//! neighbour grid), and random access into a recording.

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use crowdlab::record::{Frame, RecordingReader, RecordingWriter};
use crowdlab::scene::{Agent, Bounds, Goal, Scene, Target, default_scene};
use crowdlab::sim::World;
use crowdlab::sim::run::header_for;
use glam::Vec2;

/// `n` walkers on a square lattice 1 m apart, each heading for the mirrored point.
fn crowd(n: usize) -> Scene {
    let mut scene = default_scene();
    let side = (n as f32).sqrt().ceil() as usize;
    let half = side as f32 * 0.5;
    scene.bounds = Bounds {
        min: Vec2::splat(-half - 5.0),
        max: Vec2::splat(half + 5.0),
    };
    scene.obstacles.clear();
    scene.paths.clear();
    scene.targets.clear();
    scene.agents.clear();
    for i in 0..n {
        let p = Vec2::new((i % side) as f32 - half, (i / side) as f32 - half);
        scene.targets.push(Target {
            id: format!("t{i}"),
            position: -p,
            radius: 0.3,
        });
        scene.agents.push(Agent {
            id: i as u32,
            profile: "walker".into(),
            position: p,
            heading_deg: 0.0,
            goal: Goal::Target(format!("t{i}")),
            start_time: 0.0,
            end_time: None,
            agent_type: None,
        });
    }
    scene
}

fn step(c: &mut Criterion) {
    let mut world = World::new(Arc::new(crowd(2000)));
    for _ in 0..20 {
        world.step();
    }
    c.bench_function("step 2000 pedestrians (arrive + separation, grid)", |b| {
        b.iter(|| world.step())
    });
}

fn seek(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("crowdlab-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("seek.crowdrec");
    let mut world = World::new(Arc::new(crowd(1000)));
    let mut writer = RecordingWriter::create(&path, &header_for(&world)).unwrap();
    writer.push(&world.snapshot_frame()).unwrap();
    for _ in 0..600 {
        let frame: Frame = world.step();
        writer.push(&frame).unwrap();
    }
    writer.finish().unwrap();
    let reader = RecordingReader::open(&path).unwrap();
    let mut tick = 0u64;
    c.bench_function("seek to a random tick (1000 agents x 600 ticks)", |b| {
        b.iter(|| {
            tick = (tick * 7919 + 127) % 601;
            reader.frame_at(tick).unwrap()
        })
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

criterion_group!(benches, step, seek);
criterion_main!(benches);
