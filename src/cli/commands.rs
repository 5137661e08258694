//! The implementation of each command.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::CliError;
use super::args::{Cli, Command, ExportArgs, ExportSceneArgs, ImportArgs, RunArgs};
use super::progress::bar;
use crate::atomic_file::{partial_name, write_atomic};
use crate::draw::Overlays;
use crate::export::{
    MovementThresholds, PngOptions, SkeletonOptions, TickSelection, export_png_sequence, export_skeleton_xml,
};
use crate::record::{Frame, RecordingError, RecordingHeader, RecordingReader, RecordingWriter};
use crate::scene::import::{ImportError, export_indalgo, import_file_with_config};
use crate::scene::{SceneError, load_scene, save_scene};
use crate::sim::run::{RunLimit, RunSink, run_scene};

/// Runs the parsed command line.
pub fn dispatch(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        None => crate::app::run_native(cli.file).map_err(CliError::other),
        Some(Command::Run(args)) => run(args),
        Some(Command::Export(args)) => export(args),
        Some(Command::Check { scenes }) => check(&scenes),
        Some(Command::Import(args)) => import(args),
        Some(Command::ExportScene(args)) => export_scene(args),
    }
}

fn scene_error(e: SceneError) -> CliError {
    match e {
        SceneError::Io { .. } | SceneError::Syntax { .. } | SceneError::Invalid { .. } => CliError::input(e),
    }
}

fn recording_error(e: RecordingError) -> CliError {
    match e {
        RecordingError::Io { ref source, .. } if source.kind() != std::io::ErrorKind::NotFound => CliError::other(e),
        _ => CliError::input(e),
    }
}

fn check(scenes: &[std::path::PathBuf]) -> Result<(), CliError> {
    let mut failures = 0;
    for path in scenes {
        match load_scene(path) {
            Ok(scene) => println!("{}: ok ({} agents)", path.display(), scene.agents.len()),
            Err(e) => {
                failures += 1;
                eprintln!("{e}");
            }
        }
    }
    if failures == 0 {
        Ok(())
    } else {
        Err(CliError::input(format!(
            "{failures} of {} scene(s) invalid",
            scenes.len()
        )))
    }
}

fn run(args: RunArgs) -> Result<(), CliError> {
    let mut scene = load_scene(&args.scene).map_err(scene_error)?;
    if let Some(seed) = args.seed {
        scene.settings.seed = seed;
    }
    let scene = Arc::new(scene);
    let limit = RunLimit { ticks: args.ticks };
    let progress = bar(limit.max_ticks(&scene), "ticks");
    let pool = thread_pool(args.threads)?;
    let mut sink = FileSink {
        path: args.output.clone(),
        writer: None,
    };
    let metrics = pool.install(|| {
        run_scene(scene.clone(), limit, &mut sink, |tick, max| {
            progress.set_length(max.max(tick));
            progress.set_position(tick);
        })
    });
    progress.finish_and_clear();
    let metrics = metrics.map_err(CliError::other)?;
    if let Some(w) = sink.writer {
        w.finish().map_err(CliError::other)?;
    }
    let s = &metrics.summary;
    println!(
        "{} ticks, {}/{} agents reached their goal, {} collisions (max penetration {:.4} m), {:.3} ms/tick, {:.2} s",
        s.ticks, s.agents_reached, s.agents, s.collisions, s.max_penetration, s.ms_per_tick, s.wall_s
    );
    if let Some(path) = &args.metrics {
        let json = serde_json::to_vec_pretty(&metrics).expect("metrics serialise");
        write_atomic(path, &json).map_err(|e| CliError::other(format!("{}: {e}", path.display())))?;
    }
    Ok(())
}

/// Streams the run into a recording file when an output path was given.
struct FileSink {
    path: Option<PathBuf>,
    writer: Option<RecordingWriter>,
}

impl RunSink for FileSink {
    type Error = RecordingError;

    fn begin(&mut self, header: &RecordingHeader) -> Result<(), RecordingError> {
        if let Some(path) = &self.path {
            self.writer = Some(RecordingWriter::create(path, header)?);
        }
        Ok(())
    }

    fn frame(&mut self, frame: &Frame) -> Result<(), RecordingError> {
        self.writer.as_mut().map_or(Ok(()), |w| w.push(frame))
    }
}

fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    if threads == Some(0) {
        return Err(CliError::input("--threads 0: at least one thread is needed"));
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        builder = builder.num_threads(n);
    }
    builder.build().map_err(CliError::other)
}

fn export(args: ExportArgs) -> Result<(), CliError> {
    if args.png.is_none() && args.skeleton_xml.is_none() {
        return Err(CliError::input(
            "nothing to export: give --png DIR and/or --skeleton-xml FILE",
        ));
    }
    let thresholds = MovementThresholds {
        walking: args.walking_speed,
        running: args.running_speed,
    };
    if !(thresholds.walking >= 0.0 && thresholds.running > thresholds.walking) {
        return Err(CliError::input(format!(
            "--walking-speed {} and --running-speed {} must satisfy 0 <= walking < running",
            thresholds.walking, thresholds.running
        )));
    }
    let partial = args.recording.with_file_name(partial_name(
        &args.recording.file_name().unwrap_or_default().to_string_lossy(),
    ));
    if !args.recording.exists() && partial.exists() {
        return Err(CliError::input(format!(
            "{}: not found; an interrupted recording exists at {} — export that file to recover its complete chunks",
            args.recording.display(),
            partial.display()
        )));
    }
    let reader = RecordingReader::open(&args.recording).map_err(recording_error)?;
    if let Some(note) = reader.recovery_note() {
        eprintln!("warning: {}: {note}", args.recording.display());
    }
    let ticks = TickSelection {
        from: args.from,
        to: args.to,
        every: args.every,
    };
    if let Some(dir) = &args.png {
        export_png(&reader, dir, &args, ticks)?;
    }
    if let Some(path) = &args.skeleton_xml {
        let options = SkeletonOptions {
            ticks,
            thresholds,
            ..SkeletonOptions::default()
        };
        let progress = bar(0, "xml");
        export_skeleton_xml(&reader, path, &options, &mut |done, total| {
            progress.set_length(total);
            progress.set_position(done);
        })
        .map_err(CliError::other)?;
        progress.finish_and_clear();
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn export_png(reader: &RecordingReader, dir: &Path, args: &ExportArgs, ticks: TickSelection) -> Result<(), CliError> {
    let overlays = Overlays {
        forces: !args.no_forces,
        steering: !args.no_forces,
        ..Overlays::default()
    };
    let options = PngOptions {
        width: args.width,
        height: args.height,
        ticks,
        overlays,
    };
    let progress = bar(0, "png");
    let cancel = AtomicBool::new(false);
    let written = export_png_sequence(
        reader,
        dir,
        &options,
        &|done, total| {
            progress.set_length(total);
            progress.set_position(done);
        },
        &cancel,
    )
    .map_err(|e| {
        if e.downcast_ref::<RecordingError>().is_some() {
            CliError::input(format!("{e:#}"))
        } else {
            CliError::other(e)
        }
    })?;
    progress.finish_and_clear();
    println!("wrote {} PNG frame(s) to {}", written.len(), dir.display());
    Ok(())
}

fn import_error(e: ImportError) -> CliError {
    match e {
        ImportError::Io { ref source, .. } if source.kind() != std::io::ErrorKind::NotFound => CliError::other(e),
        _ => CliError::input(e),
    }
}

fn import(args: ImportArgs) -> Result<(), CliError> {
    let (scene, warnings) = import_file_with_config(&args.file, args.config.as_deref()).map_err(import_error)?;
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    save_scene(&scene, &args.output).map_err(CliError::other)?;
    println!(
        "wrote {} ({} agents, {} obstacles, {} warning(s))",
        args.output.display(),
        scene.agents.len(),
        scene.obstacles.len(),
        warnings.len()
    );
    Ok(())
}

fn export_scene(args: ExportSceneArgs) -> Result<(), CliError> {
    let scene = load_scene(&args.scene).map_err(scene_error)?;
    export_indalgo(&scene, &args.iascene).map_err(import_error)?;
    println!(
        "wrote {} and {}",
        args.iascene.display(),
        args.iascene.with_extension("iaconf").display()
    );
    Ok(())
}
