//! Command-line arguments (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// crowdlab: crowd scene editor, steering simulator and trajectory analyser.
/// Without a command it opens the GUI (on FILE, or on the embedded default scene).
#[derive(Debug, Parser)]
#[command(name = "crowdlab", version, about)]
pub struct Cli {
    /// A scene (.ron) or recording (.crowdrec) to open in the GUI.
    pub file: Option<PathBuf>,
    /// With --screenshot: run this many ticks in the GUI window before the screenshot.
    #[arg(long, requires = "screenshot", value_name = "N")]
    pub run_ticks: Option<u64>,
    /// With --run-ticks: write a PNG screenshot of the window after the ticks, then exit.
    #[arg(long, requires = "run_ticks", value_name = "PNG")]
    pub screenshot: Option<PathBuf>,
    /// Play FILE in the GUI window for this many wall seconds from the first tick drawn, then pause
    /// for 3 s; print for each part the ticks and frames per second and the frames' CPU times
    /// (median, 95th percentile, slowest), then exit.
    #[arg(long, conflicts_with = "run_ticks", value_name = "SECONDS", value_parser = positive_seconds)]
    pub play_seconds: Option<f64>,
    /// With --play-seconds: the speed to play at (0.1x, 0.25x, 0.5x, 1x, 2x, 5x, 10x or fastest).
    #[arg(long, requires = "play_seconds", value_name = "SPEED", default_value = "1x")]
    pub speed: String,
    /// What to do headless.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// A number of seconds above zero and at most a day.
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        Ok(s) => Err(format!("{s}: the play must last more than 0 and at most 86400 seconds")),
        Err(e) => Err(format!("{text:?} is not a number of seconds: {e}")),
    }
}

/// Headless commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Simulate a scene and write its recording and metrics.
    Run(RunArgs),
    /// Export a recording as PNG frames and/or skeleton XML.
    Export(ExportArgs),
    /// Import a SteerSuite test case or an IndAlgoTest .iascene (+ .iaconf) as a scene file.
    Import(ImportArgs),
    /// Write a scene in another tool's format (IndAlgoTest .iascene + .iaconf).
    ExportScene(ExportSceneArgs),
    /// Validate scene files: exit 0 if all are valid, 2 otherwise.
    Check {
        /// Scene files to check.
        #[arg(required = true)]
        scenes: Vec<PathBuf>,
    },
    /// Run the RiMEA validation scenes (and any scene folders given) and write a report:
    /// exit 0 only if every test passes.
    Validate(ValidateArgs),
    /// Run one scene with every available method and print the metrics side by side.
    Compare(CompareArgs),
}

/// Arguments of `crowdlab validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Extra folders of scenes (`NAME.ron` with an optional `NAME.criteria` beside it).
    pub folders: Vec<PathBuf>,
    /// Run every scene with this method (see `crowdlab compare --help`; default: as authored).
    #[arg(long)]
    pub method: Option<String>,
    /// Folder for report.md and its plots.
    #[arg(long, default_value = "validation-report")]
    pub out: PathBuf,
    /// Only the fast tests (those `cargo test` runs).
    #[arg(long)]
    pub fast: bool,
    /// Leave out the bundled RiMEA scenes (run only the folders given).
    #[arg(long)]
    pub no_bundled: bool,
}

/// Arguments of `crowdlab compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The scene file (.ron).
    pub scene: PathBuf,
    /// Also write the comparison table (Markdown) to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Compare only these methods, comma-separated (default: every method; see the names in
    /// the table or in the error of an unknown name).
    #[arg(long, value_delimiter = ',')]
    pub method: Vec<String>,
}

/// Arguments of `crowdlab run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The scene file (.ron).
    pub scene: PathBuf,
    /// Where to write the recording (.crowdrec).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Run exactly this many ticks (default: until every agent is done or the duration ends).
    #[arg(long)]
    pub ticks: Option<u64>,
    /// Override the scene's random seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run every profile with this avoidance method or combiner (as `validate --method`).
    #[arg(long)]
    pub method: Option<String>,
    /// Record one frame every K ticks (overrides the scene's `record_every`; for long runs).
    /// Metrics still observe every tick.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    pub record_every: Option<u32>,
    /// Worker threads (default: all cores). Two or more, up to the cores there are, each keep
    /// to a core of their own (CROWDLAB_PIN_THREADS=0 lets them move). Results are identical at
    /// any count.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Write per-agent and summary metrics as JSON.
    #[arg(long)]
    pub metrics: Option<PathBuf>,
}

/// Arguments of `crowdlab export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The recording (.crowdrec).
    pub recording: PathBuf,
    /// Write a PNG sequence (frame_000000.png…) into this folder.
    #[arg(long)]
    pub png: Option<PathBuf>,
    /// Write the Animation Renderer for Crowd skeleton XML to this file.
    #[arg(long)]
    pub skeleton_xml: Option<PathBuf>,
    /// Write CSV trajectories (one row per agent per tick, forces included) to this file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// PNG width in pixels.
    #[arg(long, default_value_t = 1280)]
    pub width: u32,
    /// PNG height in pixels.
    #[arg(long, default_value_t = 720)]
    pub height: u32,
    /// Export every K-th tick.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// First tick to export.
    #[arg(long)]
    pub from: Option<u64>,
    /// Last tick to export (inclusive).
    #[arg(long)]
    pub to: Option<u64>,
    /// PNG overlays, comma-separated: forces, steering, velocity, labels, or none.
    #[arg(long, value_delimiter = ',', default_value = "forces,steering")]
    pub overlays: Vec<OverlayName>,
    /// Leave the force and steering arrows out of the PNG frames (whatever --overlays says).
    #[arg(long)]
    pub no_forces: bool,
    /// Metres of force arrow per newton in the PNG frames.
    #[arg(long, default_value_t = 0.5)]
    pub force_scale: f32,
    /// Show this world rectangle instead of the whole scene: XMIN,YMIN,XMAX,YMAX (metres).
    #[arg(
        long,
        value_name = "XMIN,YMIN,XMAX,YMAX",
        conflicts_with = "follow",
        allow_hyphen_values = true
    )]
    pub camera_rect: Option<String>,
    /// Follow the agent with this id (centred in every frame).
    #[arg(long, value_name = "ID")]
    pub follow: Option<u32>,
    /// Width in metres shown by the follow camera.
    #[arg(long, default_value_t = 10.0)]
    pub follow_width: f32,
    /// PNG background colour as #rrggbb or #rrggbbaa (default: the canvas background).
    #[arg(long, conflicts_with = "transparent")]
    pub background: Option<String>,
    /// Transparent PNG background.
    #[arg(long)]
    pub transparent: bool,
    /// PNG file name prefix.
    #[arg(long, default_value = "frame_")]
    pub prefix: String,
    /// Number PNG files by tick or consecutively from 0 (for video encoders).
    #[arg(long, value_enum, default_value = "tick")]
    pub number_by: NumberBy,
    /// Speed (m/s) from which a pedestrian is "walking" in the skeleton XML.
    #[arg(long, default_value_t = 0.1)]
    pub walking_speed: f32,
    /// Speed (m/s) from which a pedestrian is "running" in the skeleton XML.
    #[arg(long, default_value_t = 2.5)]
    pub running_speed: f32,
    /// Skeleton XML <state> of every pedestrian without a --profile-state entry.
    #[arg(long, default_value = "agent")]
    pub state: String,
    /// Skeleton XML <state> of a profile's pedestrians, as PROFILE=STATE (repeatable).
    #[arg(long, value_name = "PROFILE=STATE")]
    pub profile_state: Vec<String>,
    /// Resample the skeleton XML to this many timesteps per second (interpolated).
    #[arg(long)]
    pub fps: Option<f32>,
}

/// One overlay of `--overlays`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OverlayName {
    /// Each behaviour's force.
    Forces,
    /// The combined steering force.
    Steering,
    /// The velocity vector.
    Velocity,
    /// Agent id labels.
    Labels,
    /// No overlay.
    None,
}

/// `--number-by` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NumberBy {
    /// The tick each frame shows.
    Tick,
    /// 0, 1, 2… in export order.
    Sequence,
}

/// Arguments of `crowdlab import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// A SteerSuite test case (.xml) or IndAlgoTest scene (.iascene).
    pub file: PathBuf,
    /// Where to write the scene (.ron).
    #[arg(short, long)]
    pub output: PathBuf,
    /// IndAlgoTest configuration (.iaconf) to apply instead of the one beside the scene.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Give every imported profile this avoidance method or combiner (as `validate --method`;
    /// default: the importer's own, ORCA for SteerSuite test cases).
    #[arg(long)]
    pub method: Option<String>,
}

/// Arguments of `crowdlab export-scene`.
#[derive(Debug, Args)]
pub struct ExportSceneArgs {
    /// The scene file (.ron).
    pub scene: PathBuf,
    /// Write the IndAlgoTest scene here; the .iaconf of the same stem is written beside it.
    #[arg(long)]
    pub iascene: PathBuf,
}
