//! Core simulation benchmarks: one tick of a dense pedestrian crowd (arrive + separation on the
//! neighbour grid), and random access into a recording.

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use crowdlab::record::{Frame, RecordingReader, RecordingWriter};
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

fn seek(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("crowdlab-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("seek.crowdrec");
    let mut world = World::new(Arc::new(lattice_crowd(1000)));
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
