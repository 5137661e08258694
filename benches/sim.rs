//! Core simulation benchmarks: one tick of a dense pedestrian crowd (arrive + separation on the
//! neighbour grid), the size of a flock's recording, and random access into a long recording.

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use crowdlab::record::{Frame, RecordingReader, RecordingWriter};
use crowdlab::scene::{Scene, load_scene};
use crowdlab::sim::World;

#[path = "support/crowd.rs"]
mod crowd;
use crowd::lattice_crowd;
use crowdlab::sim::run::header_for;

fn step(c: &mut Criterion) {
    let mut world = World::new(Arc::new(lattice_crowd(2000)));
    for _ in 0..20 {
        world.step();
    }
    c.bench_function("step 2000 pedestrians (arrive + separation, grid)", |b| {
        b.iter(|| world.step())
    });
}

/// Records `ticks` ticks of `scene` into `path` and returns the number of agent-ticks written.
fn record(scene: Scene, ticks: u64, path: &std::path::Path) -> u64 {
    let mut world = World::new(Arc::new(scene));
    let mut writer = RecordingWriter::create(path, &header_for(&world)).unwrap();
    let mut frame: Frame = world.snapshot_frame();
    let mut agent_ticks = 0;
    for _ in 0..=ticks {
        agent_ticks += frame.agents.len() as u64;
        writer.push(&frame).unwrap();
        frame = world.step();
    }
    writer.finish().unwrap();
    agent_ticks
}

/// Not a timing: the on-disk size of a 10,000-agent flock (four labelled forces per agent)
/// recorded for 200 ticks, printed in bytes per agent-tick (issue target: at most 48).
fn recording_size(_: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flock.crowdrec");
    let scene = load_scene(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/flock_10000.ron")).unwrap();
    let agent_ticks = record(scene, 200, &path);
    let bytes = std::fs::metadata(&path).unwrap().len();
    println!(
        "recording size: 10,000-agent flock x 200 ticks = {bytes} bytes, {:.1} bytes per agent-tick",
        bytes as f64 / agent_ticks as f64
    );
}

fn seek(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seek.crowdrec");
    record(lattice_crowd(1000), 6000, &path);
    let reader = RecordingReader::open(&path).unwrap();
    let mut tick = 0u64;
    c.bench_function("seek to a random tick (1000 agents x 6000 ticks)", |b| {
        b.iter(|| {
            tick = (tick * 7919 + 127) % 6001;
            reader.frame_at(tick).unwrap()
        })
    });
}

criterion_group!(benches, step, recording_size, seek);
criterion_main!(benches);
