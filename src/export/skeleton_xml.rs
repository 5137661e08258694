//! Skeleton XML for the Animation Renderer for Crowd (Brandejský's IndAlgoTest "skeleton
//! recording", reference 004 §4.4(c)), streamed tick by tick so no document is held in memory:
//!
//! ```xml
//! <crowd>
//!   <timestep t="0">
//!     <pedestrian id="0" new="true">
//!       <position x="1.15" y="0"/>
//!       <direction x="-1" y="0"/>
//!       <state>agent</state>
//!       <movement>walking</movement>
//!     </pedestrian>
//!   </timestep>
//! </crowd>
//! ```
//! Decisions where the seed is silent: `new="false"` on every later timestep of an agent; an
//! agent that has left is simply absent; `direction` is the unit heading; `movement` comes
//! from the speed with [`MovementThresholds`]; no XML declaration (as in the seed's example).

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use super::ticks::TickSelection;
use crate::atomic_file::AtomicFile;
use crate::record::FrameSource;

/// The `<movement>` value of a pedestrian.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Movement {
    /// Speed below the walking threshold.
    Standing,
    /// Speed between the walking and running thresholds.
    Walking,
    /// Speed at or above the running threshold.
    Running,
}

impl Movement {
    /// The element text.
    pub fn as_str(self) -> &'static str {
        match self {
            Movement::Standing => "standing",
            Movement::Walking => "walking",
            Movement::Running => "running",
        }
    }
}

/// Speeds (m/s) separating standing, walking and running.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovementThresholds {
    /// At or above this speed a pedestrian walks (default 0.1 m/s).
    pub walking: f32,
    /// At or above this speed a pedestrian runs (default 2.5 m/s, above a brisk walk).
    pub running: f32,
}

impl Default for MovementThresholds {
    fn default() -> Self {
        MovementThresholds {
            walking: 0.1,
            running: 2.5,
        }
    }
}

impl MovementThresholds {
    /// Classifies a speed.
    pub fn classify(&self, speed: f32) -> Movement {
        if speed >= self.running {
            Movement::Running
        } else if speed >= self.walking {
            Movement::Walking
        } else {
            Movement::Standing
        }
    }
}

/// Settings of a skeleton XML export.
#[derive(Clone, Debug)]
pub struct SkeletonOptions {
    /// Which ticks become timesteps.
    pub ticks: TickSelection,
    /// Speed thresholds of `<movement>`.
    pub thresholds: MovementThresholds,
    /// Text of `<state>` for every pedestrian.
    pub state: String,
}

impl Default for SkeletonOptions {
    fn default() -> Self {
        SkeletonOptions {
            ticks: TickSelection::default(),
            thresholds: MovementThresholds::default(),
            state: "agent".into(),
        }
    }
}

/// Formats a time in seconds without float noise (at most 6 decimals).
fn format_time(t: f64) -> String {
    let s = format!("{t:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// Streams the skeleton XML of `source` into `out`; `progress(done, total)` after each timestep.
pub fn write_skeleton_xml(
    source: &dyn FrameSource,
    out: &mut dyn Write,
    options: &SkeletonOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<()> {
    let dt = source.header().dt as f64;
    let state = quick_xml::escape::escape(options.state.as_str()).into_owned();
    let ticks = options.ticks.ticks(source.tick_range());
    let mut seen = HashSet::new();
    writeln!(out, "<crowd>")?;
    for (i, &tick) in ticks.iter().enumerate() {
        let frame = source.frame(tick)?;
        writeln!(out, "  <timestep t=\"{}\">", format_time(tick as f64 * dt))?;
        for a in &frame.agents {
            let direction = a.heading.normalize_or_zero();
            let movement = options.thresholds.classify(a.velocity.length());
            writeln!(out, "    <pedestrian id=\"{}\" new=\"{}\">", a.id, seen.insert(a.id))?;
            writeln!(out, "      <position x=\"{}\" y=\"{}\"/>", a.position.x, a.position.y)?;
            writeln!(out, "      <direction x=\"{}\" y=\"{}\"/>", direction.x, direction.y)?;
            writeln!(out, "      <state>{state}</state>")?;
            writeln!(out, "      <movement>{}</movement>", movement.as_str())?;
            writeln!(out, "    </pedestrian>")?;
        }
        writeln!(out, "  </timestep>")?;
        progress(i as u64 + 1, ticks.len() as u64);
    }
    writeln!(out, "</crowd>")?;
    Ok(())
}

/// Writes the skeleton XML of `source` to `path` atomically.
pub fn export_skeleton_xml(
    source: &dyn FrameSource,
    path: &Path,
    options: &SkeletonOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<()> {
    let mut file = AtomicFile::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
    write_skeleton_xml(source, &mut file, options, progress)
        .with_context(|| format!("{}: export failed", path.display()))?;
    file.commit()
        .with_context(|| format!("{}: cannot write", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_and_movement_formatting() {
        assert_eq!(format_time(0.0), "0");
        assert_eq!(format_time(3.0 * 0.1), "0.3");
        assert_eq!(format_time(12.25), "12.25");
        let t = MovementThresholds::default();
        assert_eq!(t.classify(0.0), Movement::Standing);
        assert_eq!(t.classify(1.3), Movement::Walking);
        assert_eq!(t.classify(3.0), Movement::Running);
    }
}
