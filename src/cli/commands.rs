//! The implementation of each command.

use std::path::PathBuf;
use std::sync::Arc;

use super::CliError;
use super::args::{Cli, Command, ExportSceneArgs, ImportArgs, RunArgs};
use super::export::export;
use super::paths::refuse_overwriting;
use super::progress::bar;
use crate::atomic_file::write_atomic;
use crate::limits::{MAX_THREADS, MAX_TICKS};
use crate::record::{Frame, RecordingError, RecordingHeader, RecordingWriter};
use crate::scene::import::{ImportError, export_indalgo, import_file_with_config, summarize};
use crate::scene::{SceneError, load_scene, save_scene};
use crate::sim::run::{RunLimit, RunSink, run_scene};
use crate::validate::Method;
use crate::workers::Pinning;

/// Runs the parsed command line.
pub fn dispatch(cli: Cli) -> Result<(), CliError> {
    // The window's simulation, PNG frames and validation runs work on rayon's global pool, started
    // here with pinned workers; `run` builds a pool of its own, the other commands use none.
    let uses_global_pool = matches!(
        cli.command,
        None | Some(Command::Export(_) | Command::Validate(_) | Command::Compare(_))
    );
    if uses_global_pool {
        crate::workers::start_global_pool(pinning()?);
    }
    match cli.command {
        None => open_gui(cli),
        Some(Command::Run(args)) => run(args),
        Some(Command::Export(args)) => export(args),
        Some(Command::Check { scenes }) => check(&scenes),
        Some(Command::Import(args)) => import(args),
        Some(Command::ExportScene(args)) => export_scene(args),
        Some(Command::Validate(args)) => super::validate::validate(args),
        Some(Command::Compare(args)) => super::validate::compare(args),
    }
}

#[cfg(feature = "gui")]
fn open_gui(cli: Cli) -> Result<(), CliError> {
    use crate::app::{Speed, WindowRun};
    let run = match (cli.run_ticks.zip(cli.screenshot), cli.play_seconds) {
        (Some((ticks, png)), _) => Some(WindowRun::Screenshot(ticks, png)),
        (None, Some(seconds)) => {
            let speed = Speed::ALL.into_iter().find(|s| s.name() == cli.speed).ok_or_else(|| {
                let names: Vec<_> = Speed::ALL.iter().map(|s| s.name()).collect();
                CliError::input(format!(
                    "--speed {:?}: not a speed; use one of {}",
                    cli.speed,
                    names.join(", ")
                ))
            })?;
            Some(WindowRun::TimedPlay(seconds, speed))
        }
        (None, None) => None,
    };
    crate::app::run_native(cli.file, run).map_err(CliError::other)
}

#[cfg(not(feature = "gui"))]
fn open_gui(_cli: Cli) -> Result<(), CliError> {
    Err(CliError::input(
        "this build has no GUI (built without the `gui` feature); use a command such as `crowdlab run`",
    ))
}

pub(super) fn scene_error(e: SceneError) -> CliError {
    match e {
        SceneError::Io { .. } | SceneError::Syntax { .. } | SceneError::Invalid { .. } => CliError::input(e),
    }
}

/// A recording error: unreadable for reasons other than absence is a failure (1), else bad input (2).
pub(super) fn recording_error(e: RecordingError) -> CliError {
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
    if let Some(ticks) = args.ticks.filter(|&t| t > MAX_TICKS) {
        return Err(CliError::input(format!(
            "--ticks {ticks}: at most {MAX_TICKS} ticks are allowed"
        )));
    }
    refuse_overwriting(
        &[&args.scene],
        &[("-o", args.output.as_deref()), ("--metrics", args.metrics.as_deref())],
    )?;
    let method = parse_method(args.method.as_deref())?;
    let pool = thread_pool(args.threads)?;
    let mut scene = load_scene(&args.scene).map_err(scene_error)?;
    method.apply(&mut scene);
    if let Some(seed) = args.seed {
        scene.settings.seed = seed;
    }
    if let Some(k) = args.record_every {
        scene.settings.record_every = k;
    }
    let scene = Arc::new(scene);
    let limit = RunLimit { ticks: args.ticks };
    let progress = bar(limit.max_ticks(&scene), "ticks");
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

/// The method `--method NAME` names (bad usage when unknown), or the scene as authored.
pub(super) fn parse_method(name: Option<&str>) -> Result<Method, CliError> {
    name.map_or_else(
        || Ok(Method::as_authored()),
        |n| Method::parse(n).map_err(CliError::input),
    )
}

/// Whether the workers of a pool keep to a CPU each, as `CROWDLAB_PIN_THREADS` says (bad usage
/// when it names neither).
fn pinning() -> Result<Pinning, CliError> {
    Pinning::from_env().map_err(CliError::input)
}

/// The pool `run` steps its world on: `threads` workers (all cores when `None`), pinned unless
/// `CROWDLAB_PIN_THREADS` says otherwise.
fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    if let Some(n) = threads.filter(|n| !(1..=MAX_THREADS).contains(n)) {
        return Err(CliError::input(format!(
            "--threads {n}: must be between 1 and {MAX_THREADS}"
        )));
    }
    crate::workers::pool_builder(threads, pinning()?).build().map_err(|e| {
        CliError::other(format!(
            "--threads {}: cannot start the worker threads: {e}",
            threads.map_or("(all cores)".to_string(), |n| n.to_string())
        ))
    })
}

fn import_error(e: ImportError) -> CliError {
    match e {
        ImportError::Io { ref source, .. } if source.kind() != std::io::ErrorKind::NotFound => CliError::other(e),
        _ => CliError::input(e),
    }
}

fn import(args: ImportArgs) -> Result<(), CliError> {
    let mut inputs = vec![args.file.as_path()];
    inputs.extend(args.config.as_deref());
    refuse_overwriting(&inputs, &[("-o", Some(&args.output))])?;
    let method = parse_method(args.method.as_deref())?;
    let (mut scene, warnings) = import_file_with_config(&args.file, args.config.as_deref()).map_err(import_error)?;
    method.apply(&mut scene);
    for line in summarize(&warnings) {
        eprintln!("warning: {line}");
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
    let config = args.iascene.with_extension("iaconf");
    refuse_overwriting(
        &[&args.scene],
        &[
            ("--iascene", Some(&args.iascene)),
            ("--iascene (.iaconf)", Some(&config)),
        ],
    )?;
    let scene = load_scene(&args.scene).map_err(scene_error)?;
    export_indalgo(&scene, &args.iascene).map_err(import_error)?;
    println!(
        "wrote {} and {}",
        args.iascene.display(),
        args.iascene.with_extension("iaconf").display()
    );
    Ok(())
}
