//! `crowdlab export`: PNG sequence, skeleton XML and CSV trajectories of a recording.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use glam::Vec2;

use super::CliError;
use super::args::{ExportArgs, NumberBy, OverlayName};
use super::commands::recording_error;
use super::paths::refuse_overwriting;
use super::progress::bar;
use crate::atomic_file::partial_path;
use crate::draw::{Color, Overlays, palette};
use crate::export::{
    Camera, MovementThresholds, Numbering, PngOptions, SkeletonOptions, StateMapping, TickSelection, check_image_size,
    export_csv, export_png_sequence, export_skeleton_xml,
};
use crate::limits::{MAX_FPS, MAX_TIMESTEPS};
use crate::record::{RecordingError, RecordingReader};
use crate::scene::Bounds;

/// Parses `#rrggbb` or `#rrggbbaa`.
fn parse_color(text: &str) -> Result<Color, CliError> {
    let bad = || CliError::input(format!("--background {text:?}: expected #rrggbb or #rrggbbaa"));
    let hex = text.strip_prefix('#').ok_or_else(bad)?;
    if !(hex.len() == 6 || hex.len() == 8) || !hex.is_ascii() {
        return Err(bad());
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
    let alpha = if hex.len() == 8 { byte(6)? } else { 255 };
    Ok(Color([byte(0)?, byte(2)?, byte(4)?, alpha]))
}

/// Parses `XMIN,YMIN,XMAX,YMAX`.
fn parse_rect(text: &str) -> Result<Bounds, CliError> {
    let values: Vec<f32> = text
        .split(',')
        .map(|v| v.trim().parse::<f32>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            CliError::input(format!(
                "--camera-rect {text:?}: expected four numbers XMIN,YMIN,XMAX,YMAX"
            ))
        })?;
    match values.as_slice() {
        &[x0, y0, x1, y1] if x1 > x0 && y1 > y0 => Ok(Bounds {
            min: Vec2::new(x0, y0),
            max: Vec2::new(x1, y1),
        }),
        _ => Err(CliError::input(format!(
            "--camera-rect {text:?}: expected four numbers XMIN,YMIN,XMAX,YMAX with XMAX > XMIN and YMAX > YMIN"
        ))),
    }
}

fn overlays(args: &ExportArgs) -> Result<Overlays, CliError> {
    if !(args.force_scale.is_finite() && args.force_scale > 0.0) {
        return Err(CliError::input(format!(
            "--force-scale {} must be greater than 0",
            args.force_scale
        )));
    }
    let has = |o: OverlayName| args.overlays.contains(&o);
    Ok(Overlays {
        forces: has(OverlayName::Forces) && !args.no_forces,
        steering: has(OverlayName::Steering) && !args.no_forces,
        velocity: has(OverlayName::Velocity),
        labels: has(OverlayName::Labels),
        force_scale: args.force_scale,
        ..Overlays::default()
    })
}

fn png_options(args: &ExportArgs, ticks: TickSelection) -> Result<PngOptions, CliError> {
    check_image_size(args.width, args.height).map_err(CliError::input)?;
    if !(args.follow_width.is_finite() && args.follow_width > 0.0) {
        return Err(CliError::input(format!(
            "--follow-width {} must be a finite number of metres greater than 0",
            args.follow_width
        )));
    }
    if args.prefix.contains(['/', '\\']) || args.prefix == ".." {
        return Err(CliError::input(format!(
            "--prefix {:?}: a file name prefix cannot contain a path separator (frames stay in the --png folder)",
            args.prefix
        )));
    }
    let camera = match (&args.camera_rect, args.follow) {
        (Some(rect), _) => Camera::Rect(parse_rect(rect)?),
        (None, Some(agent)) => Camera::Follow {
            agent,
            width: args.follow_width,
        },
        (None, None) => Camera::FitScene,
    };
    let background = match (&args.background, args.transparent) {
        (_, true) => None,
        (Some(text), false) => Some(parse_color(text)?),
        (None, false) => Some(palette().background),
    };
    Ok(PngOptions {
        width: args.width,
        height: args.height,
        ticks,
        overlays: overlays(args)?,
        camera,
        background,
        prefix: args.prefix.clone(),
        numbering: match args.number_by {
            NumberBy::Tick => Numbering::Tick,
            NumberBy::Sequence => Numbering::Sequence,
        },
    })
}

fn skeleton_options(args: &ExportArgs, ticks: TickSelection) -> Result<SkeletonOptions, CliError> {
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
    if let Some(fps) = args.fps.filter(|f| !(f.is_finite() && *f > 0.0 && *f <= MAX_FPS)) {
        return Err(CliError::input(format!(
            "--fps {fps} must be greater than 0 and at most {MAX_FPS}"
        )));
    }
    let mut states = StateMapping {
        default: args.state.clone(),
        ..StateMapping::default()
    };
    for entry in &args.profile_state {
        let (profile, state) = entry
            .split_once('=')
            .ok_or_else(|| CliError::input(format!("--profile-state {entry:?}: expected PROFILE=STATE")))?;
        states.by_profile.insert(profile.to_string(), state.to_string());
    }
    Ok(SkeletonOptions {
        ticks,
        thresholds,
        states,
        fps: args.fps,
    })
}

/// An export error: a damaged recording is bad input (2), anything else a failure (1).
fn export_error(e: anyhow::Error) -> CliError {
    if e.downcast_ref::<RecordingError>().is_some() {
        CliError::input(format!("{e:#}"))
    } else {
        CliError::other(e)
    }
}

fn open_recording(path: &Path) -> Result<RecordingReader, CliError> {
    let partial = partial_path(path);
    if !path.exists() && partial.exists() {
        return Err(CliError::input(format!(
            "{}: not found; an interrupted recording exists at {} — export that file to recover its complete chunks",
            path.display(),
            partial.display()
        )));
    }
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    if let (Some(old), Some(new)) = (modified(path), modified(&partial))
        && new > old
    {
        eprintln!(
            "warning: {} is older than the interrupted recording {} beside it (of a later run, perhaps of \
             another scene); export that file to recover its complete chunks",
            path.display(),
            partial.display()
        );
    }
    let reader = RecordingReader::open(path).map_err(recording_error)?;
    if let Some(note) = reader.recovery_note() {
        eprintln!("warning: {}: {note}", path.display());
    }
    Ok(reader)
}

/// Runs a streamed export under a progress bar labelled `what`.
fn with_progress(
    what: &str,
    work: impl FnOnce(&mut dyn FnMut(u64, u64)) -> anyhow::Result<()>,
) -> Result<(), CliError> {
    let progress = bar(0, what);
    work(&mut |done, total| {
        progress.set_length(total);
        progress.set_position(done);
    })
    .map_err(export_error)?;
    progress.finish_and_clear();
    Ok(())
}

/// Runs `crowdlab export`: every requested output, options checked before any work starts.
pub fn export(args: ExportArgs) -> Result<(), CliError> {
    if args.png.is_none() && args.skeleton_xml.is_none() && args.csv.is_none() {
        return Err(CliError::input(
            "nothing to export: give --png DIR, --skeleton-xml FILE and/or --csv FILE",
        ));
    }
    refuse_overwriting(
        &[&args.recording],
        &[
            ("--png", args.png.as_deref()),
            ("--skeleton-xml", args.skeleton_xml.as_deref()),
            ("--csv", args.csv.as_deref()),
        ],
    )?;
    let ticks = TickSelection {
        from: args.from,
        to: args.to,
        every: args.every,
    };
    let png = args.png.as_ref().map(|_| png_options(&args, ticks)).transpose()?;
    let skeleton = skeleton_options(&args, ticks)?;
    if let (Some(from), Some(to)) = (args.from, args.to)
        && from > to
    {
        return Err(CliError::input(format!(
            "--from {from} is after --to {to}: no tick to export"
        )));
    }
    let reader = open_recording(&args.recording)?;
    if ticks.ticks(&reader).is_empty() {
        let (first, last) = (reader.first_tick(), reader.last_tick());
        return Err(CliError::input(format!(
            "{}: --from/--to select no recorded tick (the recording holds ticks {first}..={last})",
            args.recording.display()
        )));
    }
    if let Some(fps) = args.fps.filter(|_| args.skeleton_xml.is_some()) {
        let selected = ticks.ticks(&reader);
        let span = (selected[selected.len() - 1] - selected[0]) as f64 * f64::from(reader.header().dt);
        let steps = span * f64::from(fps);
        if steps > MAX_TIMESTEPS as f64 {
            return Err(CliError::input(format!(
                "--fps {fps} over {span} s gives {steps:.0} timesteps; at most {MAX_TIMESTEPS} are allowed \
                 (lower --fps or narrow --from/--to)"
            )));
        }
    }
    if let Some(agent) = args.follow.filter(|&id| reader.header().agents.agent(id).is_none()) {
        return Err(CliError::input(format!(
            "--follow {agent}: {} has no agent with that id",
            args.recording.display()
        )));
    }
    if let (Some(dir), Some(options)) = (&args.png, png) {
        let progress = bar(0, "png");
        let cancel = AtomicBool::new(false);
        let report = |done, total| {
            progress.set_length(total);
            progress.set_position(done);
        };
        let written = export_png_sequence(&reader, dir, &options, &report, &cancel).map_err(export_error)?;
        progress.finish_and_clear();
        println!("wrote {} PNG frame(s) to {}", written.len(), dir.display());
    }
    if let Some(path) = &args.skeleton_xml {
        with_progress("xml", |report| export_skeleton_xml(&reader, path, &skeleton, report))?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &args.csv {
        with_progress("csv", |report| export_csv(&reader, path, ticks, report))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_rectangles_parse_or_name_the_value() {
        assert_eq!(parse_color("#ff8000").unwrap(), Color([255, 128, 0, 255]));
        assert_eq!(parse_color("#00000080").unwrap(), Color([0, 0, 0, 128]));
        assert!(parse_color("red").unwrap_err().message.contains("\"red\""));
        assert!(parse_color("#12345").is_err());
        let r = parse_rect("-1,-2,3,4").unwrap();
        assert_eq!((r.min, r.max), (Vec2::new(-1.0, -2.0), Vec2::new(3.0, 4.0)));
        assert!(parse_rect("1,2,0,4").is_err());
        assert!(parse_rect("1,2,3").unwrap_err().message.contains("four numbers"));
    }
}
