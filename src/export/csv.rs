//! CSV trajectories, the long format pandas and PedPy users load directly: one row per agent
//! per selected tick, streamed.
//!
//! Columns: `tick,time,id,profile,radius,x,y,vx,vy,heading,state`, then `fx_<label>,fy_<label>`
//! for every force label of the recording (in the recording's label order). `profile` and
//! `radius` are the agent's at that tick, from the recording's agent table; `time` is in seconds,
//! positions and radius in metres, velocities in m/s, `heading` in radians counter-clockwise from
//! +x, `state` the mind state's name; a force pair is empty when the agent has no behaviour of
//! that label (forces of two behaviours sharing a label are summed).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use glam::Vec2;

use super::ticks::TickSelection;
use crate::atomic_file::AtomicFile;
use crate::record::FrameSource;

/// Quotes a CSV field when it holds a comma, quote or line break.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The header line (without the line break).
fn header_line(labels: &[String]) -> String {
    let mut columns: Vec<String> = [
        "tick", "time", "id", "profile", "radius", "x", "y", "vx", "vy", "heading", "state",
    ]
    .iter()
    .map(|c| c.to_string())
    .collect();
    for label in labels {
        columns.push(field(&format!("fx_{label}")));
        columns.push(field(&format!("fy_{label}")));
    }
    columns.join(",")
}

/// Streams the CSV of the selected ticks of `source` into `out`; `progress(done, total)` per tick.
pub fn write_csv(
    source: &dyn FrameSource,
    out: &mut dyn Write,
    ticks: TickSelection,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<()> {
    let header = source.header();
    let dt = header.dt as f64;
    let states: Vec<String> = header.states.iter().map(|s| field(s)).collect();
    let profiles: Vec<String> = header.agents.profiles.iter().map(|p| field(&p.name)).collect();
    writeln!(out, "{}", header_line(&header.labels))?;
    let ticks = ticks.ticks(source);
    let mut forces: Vec<Option<Vec2>> = vec![None; header.labels.len()];
    for (i, &tick) in ticks.iter().enumerate() {
        let frame = source.frame(tick)?;
        let time = super::skeleton_xml::format_time(tick as f64 * dt);
        for a in &frame.agents {
            forces.iter_mut().for_each(|f| *f = None);
            for f in frame.forces_of(a) {
                if let Some(slot) = forces.get_mut(f.label as usize) {
                    *slot = Some(slot.unwrap_or(Vec2::ZERO) + f.force);
                }
            }
            let state = states.get(a.state as usize).map_or("?", String::as_str);
            let profile = profiles.get(a.profile as usize).map_or("?", String::as_str);
            write!(
                out,
                "{tick},{time},{},{profile},{},{},{},{},{},{},{state}",
                a.id,
                header.radius_of(a),
                a.position.x,
                a.position.y,
                a.velocity.x,
                a.velocity.y,
                a.heading.y.atan2(a.heading.x)
            )?;
            for f in &forces {
                match f {
                    Some(v) => write!(out, ",{},{}", v.x, v.y)?,
                    None => out.write_all(b",,")?,
                }
            }
            out.write_all(b"\n")?;
        }
        progress(i as u64 + 1, ticks.len() as u64);
    }
    Ok(())
}

/// Writes the CSV of `source` to `path` atomically.
pub fn export_csv(
    source: &dyn FrameSource,
    path: &Path,
    ticks: TickSelection,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<()> {
    let mut file = AtomicFile::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
    write_csv(source, &mut file, ticks, progress).with_context(|| format!("{}: export failed", path.display()))?;
    file.commit()
        .with_context(|| format!("{}: cannot write", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_quoting() {
        assert_eq!(
            header_line(&["seek".into(), "a,b".into()]),
            "tick,time,id,profile,radius,x,y,vx,vy,heading,state,fx_seek,fy_seek,\"fx_a,b\",\"fy_a,b\""
        );
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
