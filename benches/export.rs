//! Export benchmarks: PNG frames of a 1,000- and a 10,000-agent crowd at 1280×720 with force
//! arrows (targets ≥ 60 and ≥ 15 frames/s on 2 cores, measured end to end: draw list,
//! rasterising, PNG encoding, file writes, in parallel) and skeleton XML throughput (target
//! ≥ 50 MB/s of XML).
//!
//! Run: `cargo bench --no-default-features --bench export` (`-- png` for the PNG rows only).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use crowdlab::draw::{Focus, Overlays, View, build_frame_draw_list, palette, render_to_pixmap};
use crowdlab::export::{
    PngOptions, SkeletonOptions, TickSelection, encode_png, export_png_sequence, write_skeleton_xml,
};
use crowdlab::record::{FrameSource, MemoryRecording};
use crowdlab::sim::World;

#[path = "support/crowd.rs"]
mod crowd;
use crowd::lattice_crowd;
use crowdlab::sim::run::header_for;
use glam::Vec2;

/// `n` walkers on a lattice 1 m apart, each heading for the mirrored point, recorded for
/// `ticks` ticks after 20 warm-up steps (so every agent has moving forces).
fn crowd_recording(n: usize, ticks: usize) -> MemoryRecording {
    let scene = lattice_crowd(n);
    let mut world = World::new(Arc::new(scene));
    for _ in 0..20 {
        world.step();
    }
    let mut recording = MemoryRecording::new(header_for(&world));
    for _ in 0..ticks {
        recording.push(world.step());
    }
    recording
}

/// PNG rows for 1,000 and 10,000 agents.
fn png(c: &mut Criterion) {
    png_row(c, 1000);
    png_row(c, 10_000);
}

/// The whole sequence export of 16 frames of `n` agents, then its parts on one frame.
fn png_row(c: &mut Criterion, n: usize) {
    const FRAMES: usize = 16;
    let recording = crowd_recording(n, FRAMES);
    let dir = tempfile::tempdir().unwrap();
    let options = PngOptions {
        width: 1280,
        height: 720,
        ticks: TickSelection::default(),
        overlays: Overlays::default(),
        ..PngOptions::default()
    };
    let mut group = c.benchmark_group(format!("png {n} agents 1280x720 forces"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(FRAMES as u64));
    group.bench_function("export sequence (frames/s)", |b| {
        b.iter(|| export_png_sequence(&recording, dir.path(), &options, &|_, _| {}, &AtomicBool::new(false)).unwrap())
    });
    group.throughput(Throughput::Elements(1));
    let (first, _) = recording.tick_range();
    let frame = recording.frame(first).unwrap();
    let header = recording.header();
    let view = View::fit(header.scene.bounds, Vec2::new(1280.0, 720.0));
    let mut pixmap = tiny_skia::Pixmap::new(1280, 720).unwrap();
    group.bench_function("draw list only", |b| {
        b.iter(|| build_frame_draw_list(header, &frame, &options.overlays, &Focus::default()))
    });
    let list = build_frame_draw_list(header, &frame, &options.overlays, &Focus::default());
    group.bench_function("rasterise only", |b| {
        b.iter(|| render_to_pixmap(&list, &view, Some(palette().background), &mut pixmap))
    });
    group.bench_function("encode only", |b| b.iter(|| encode_png(&pixmap).unwrap()));
    group.finish();
}

/// Counts bytes instead of storing them.
struct Count(u64);

impl Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn skeleton(c: &mut Criterion) {
    let recording = crowd_recording(1000, 50);
    let options = SkeletonOptions::default();
    let mut size = Count(0);
    write_skeleton_xml(&recording, &mut size, &options, &mut |_, _| {}).unwrap();
    let mut group = c.benchmark_group("skeleton xml 1000 agents x 50 ticks");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(size.0));
    group.bench_function("write (bytes/s)", |b| {
        b.iter(|| {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, Count(0));
            write_skeleton_xml(&recording, &mut out, &options, &mut |_, _| {}).unwrap();
        })
    });
    group.finish();
}

criterion_group!(benches, png, skeleton);
criterion_main!(benches);
