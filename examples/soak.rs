//! Soak run: a scene for many ticks with a recording stride, reporting resident memory every
//! 1,000 ticks and failing on any non-finite recorded value.
//!
//! `cargo run --release --no-default-features --example soak -- SCENE TICKS RECORD_EVERY OUT.crowdrec`
//! prints `tick rss_mib peak_rss_mib elapsed_s` lines (from /proc/self/status) and exits 1 if a
//! recorded position, velocity or force is NaN or infinite.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crowdlab::record::{Frame, RecordingError, RecordingHeader, RecordingWriter};
use crowdlab::scene::load_scene;
use crowdlab::sim::run::{RunLimit, RunSink, run_scene};

/// Writes the recording and counts non-finite values.
struct Sink {
    path: PathBuf,
    writer: Option<RecordingWriter>,
    non_finite: u64,
}

impl RunSink for Sink {
    type Error = RecordingError;

    fn begin(&mut self, header: &RecordingHeader) -> Result<(), RecordingError> {
        self.writer = Some(RecordingWriter::create(&self.path, header)?);
        Ok(())
    }

    fn frame(&mut self, frame: &Frame) -> Result<(), RecordingError> {
        let vectors = frame
            .agents
            .iter()
            .flat_map(|a| [a.position, a.velocity, a.heading, a.steering])
            .chain(frame.forces.iter().map(|f| f.force));
        self.non_finite += vectors.filter(|v| !v.is_finite()).count() as u64;
        self.writer.as_mut().expect("begun").push(frame)
    }
}

/// `VmRSS` and `VmHWM` of this process in MiB.
fn memory_mib() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(f64::NAN, |kb| kb / 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, scene, ticks, every, out] = args.as_slice() else {
        eprintln!("usage: soak SCENE TICKS RECORD_EVERY OUT.crowdrec");
        return std::process::ExitCode::from(2);
    };
    let mut scene = load_scene(Path::new(scene)).unwrap_or_else(|e| panic!("{e}"));
    let ticks: u64 = ticks.parse().expect("TICKS is a number");
    scene.settings.record_every = every.parse().expect("RECORD_EVERY is a number");
    scene.settings.duration = scene.settings.duration.max(ticks as f32 * scene.settings.dt);
    let agents = scene.agents.len() as u64 + scene.spawns.iter().map(|s| u64::from(s.count)).sum::<u64>();
    println!("# {agents} agents, {ticks} ticks, record_every {every}");
    println!("tick rss_mib peak_rss_mib elapsed_s");
    let started = Instant::now();
    let mut sink = Sink {
        path: PathBuf::from(out),
        writer: None,
        non_finite: 0,
    };
    run_scene(
        Arc::new(scene),
        RunLimit { ticks: Some(ticks) },
        &mut sink,
        |tick, _| {
            if tick % 1000 == 0 {
                let (rss, peak) = memory_mib();
                println!("{tick} {rss:.1} {peak:.1} {:.1}", started.elapsed().as_secs_f64());
            }
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    sink.writer
        .take()
        .expect("begun")
        .finish()
        .unwrap_or_else(|e| panic!("{e}"));
    let (rss, peak) = memory_mib();
    println!(
        "# done: rss {rss:.1} MiB, peak {peak:.1} MiB, {:.1} s, non-finite values: {}",
        started.elapsed().as_secs_f64(),
        sink.non_finite
    );
    if sink.non_finite == 0 {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(1)
    }
}
