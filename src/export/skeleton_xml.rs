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
//! from the speed with [`MovementThresholds`]; `state` from a [`StateMapping`] (default
//! `agent`); no XML declaration (as in the seed's example). With a frame rate the run is
//! resampled (see [`super::timesteps`]); otherwise one `<timestep>` per selected tick.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use super::ticks::TickSelection;
use super::timesteps::for_each_timestep;
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

/// The `<state>` text of each pedestrian: per agent profile, else a default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateMapping {
    /// State of pedestrians whose profile has no entry (default `agent`).
    pub default: String,
    /// State by profile name (e.g. `fluid` for a crowd profile).
    pub by_profile: BTreeMap<String, String>,
}

impl Default for StateMapping {
    fn default() -> Self {
        StateMapping {
            default: "agent".into(),
            by_profile: BTreeMap::new(),
        }
    }
}

/// Settings of a skeleton XML export.
#[derive(Clone, Debug, Default)]
pub struct SkeletonOptions {
    /// Which ticks become timesteps (with `fps`, only their first and last bound the time range).
    pub ticks: TickSelection,
    /// Speed thresholds of `<movement>`.
    pub thresholds: MovementThresholds,
    /// `<state>` of each pedestrian.
    pub states: StateMapping,
    /// Resample to this many timesteps per second, interpolating; `None` = one per tick.
    pub fps: Option<f32>,
}

/// Formats a time in seconds without float noise (at most 6 decimals).
pub(super) fn format_time(t: f64) -> String {
    let s = format!("{t:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// The escaped `<state>` text of every agent of the run (placed and spawned), by id, from the
/// profile it starts with.
fn agent_states(source: &dyn FrameSource, states: &StateMapping) -> HashMap<u32, String> {
    let table = &source.header().agents;
    table
        .agents
        .iter()
        .map(|a| {
            let profile = table.profile_name(a.profile);
            let state = states.by_profile.get(profile).unwrap_or(&states.default);
            (a.id, quick_xml::escape::escape(state.as_str()).into_owned())
        })
        .collect()
}

/// Streams the skeleton XML of `source` into `out`; `progress(done, total)` after each timestep.
pub fn write_skeleton_xml(
    source: &dyn FrameSource,
    out: &mut dyn Write,
    options: &SkeletonOptions,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<()> {
    if let Some(fps) = options.fps
        && !(fps.is_finite() && fps > 0.0)
    {
        anyhow::bail!("frame rate {fps} must be a finite number greater than 0");
    }
    let states = agent_states(source, &options.states);
    let default_state = quick_xml::escape::escape(options.states.default.as_str()).into_owned();
    let ticks = options.ticks.ticks(source);
    let total = match (options.fps, ticks.first(), ticks.last()) {
        (Some(fps), Some(&a), Some(&b)) => ((b - a) as f64 * source.header().dt as f64 * fps as f64) as u64 + 1,
        _ => ticks.len() as u64,
    };
    let mut seen = HashSet::new();
    let mut done = 0;
    writeln!(out, "<crowd>")?;
    for_each_timestep(source, &ticks, options.fps, |time, poses| -> Result<()> {
        writeln!(out, "  <timestep t=\"{}\">", format_time(time))?;
        for p in poses {
            let state = states.get(&p.id).unwrap_or(&default_state);
            let movement = options.thresholds.classify(p.speed).as_str();
            let (pos, dir) = (p.position, p.direction);
            write!(
                out,
                "    <pedestrian id=\"{}\" new=\"{}\">\n      <position x=\"{}\" y=\"{}\"/>\n      \
                 <direction x=\"{}\" y=\"{}\"/>\n      <state>{state}</state>\n      \
                 <movement>{movement}</movement>\n    </pedestrian>\n",
                p.id,
                seen.insert(p.id),
                pos.x,
                pos.y,
                dir.x,
                dir.y
            )?;
        }
        writeln!(out, "  </timestep>")?;
        done += 1;
        progress(done, total.max(done));
        Ok(())
    })?;
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
