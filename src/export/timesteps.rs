//! The timesteps of a trajectory export: either the selected ticks as recorded, or the run
//! resampled to a frame rate with linear interpolation between the two neighbouring ticks.
//! Frames are read one at a time (at most two held), so exports stream.

use std::collections::HashMap;

use glam::Vec2;

use crate::record::{AgentSample, Frame, FrameSource, RecordingError};

/// One pedestrian at one exported time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Agent id.
    pub id: u32,
    /// Position in metres.
    pub position: Vec2,
    /// Unit facing direction.
    pub direction: Vec2,
    /// Speed in m/s.
    pub speed: f32,
}

impl Pose {
    fn of(a: &AgentSample) -> Pose {
        Pose {
            id: a.id,
            position: a.position,
            direction: a.heading.normalize_or_zero(),
            speed: a.velocity.length(),
        }
    }

    /// The pose a fraction `w` of the way from `self` to `next` (direction renormalised).
    fn lerp(&self, next: &Pose, w: f32) -> Pose {
        let direction = self
            .direction
            .lerp(next.direction, w)
            .try_normalize()
            .unwrap_or(self.direction);
        Pose {
            id: self.id,
            position: self.position.lerp(next.position, w),
            direction,
            speed: self.speed + (next.speed - self.speed) * w,
        }
    }
}

/// Calls `emit(time_s, poses)` for every exported timestep, in time order: each of `ticks` as
/// recorded, or — with `fps` — every `1/fps` s from the first to the last of `ticks`. A
/// resampled pedestrian is interpolated when present in both neighbouring ticks and held at
/// the earlier tick's pose when it leaves at the later one; it appears once its first tick is
/// reached. `emit` errors stop the walk.
pub fn for_each_timestep<E: From<RecordingError>>(
    source: &dyn FrameSource,
    ticks: &[u64],
    fps: Option<f32>,
    mut emit: impl FnMut(f64, &[Pose]) -> Result<(), E>,
) -> Result<(), E> {
    let dt = source.header().dt as f64;
    let (Some(&first), Some(&last)) = (ticks.first(), ticks.last()) else {
        return Ok(());
    };
    let mut poses = Vec::new();
    let Some(fps) = fps else {
        for &tick in ticks {
            let frame = source.frame(tick)?;
            poses.clear();
            poses.extend(frame.agents.iter().map(Pose::of));
            emit(tick as f64 * dt, &poses)?;
        }
        return Ok(());
    };
    let step = 1.0 / fps as f64;
    let span = (last - first) as f64 * dt;
    let count = (span / step + 1e-9).floor() as u64 + 1;
    let mut pair: Option<(u64, Frame, Frame)> = None;
    let mut index_of_next: HashMap<u32, usize> = HashMap::new();
    for k in 0..count {
        let t = k as f64 * step;
        let offset = t / dt;
        let before = (first + offset.floor() as u64).min(last);
        let after = (before + 1).min(last);
        let w = (offset - offset.floor()) as f32;
        if pair.as_ref().is_none_or(|(b, _, _)| *b != before) {
            let reuse = pair
                .take()
                .filter(|(b, _, _)| *b + 1 == before)
                .map(|(_, _, next)| next);
            let a = match reuse {
                Some(frame) => frame,
                None => source.frame(before)?,
            };
            let b = if after == before {
                a.clone()
            } else {
                source.frame(after)?
            };
            index_of_next = b.agents.iter().enumerate().map(|(i, s)| (s.id, i)).collect();
            pair = Some((before, a, b));
        }
        let (_, a, b) = pair.as_ref().expect("loaded above");
        poses.clear();
        poses.extend(a.agents.iter().map(|s| {
            let here = Pose::of(s);
            index_of_next
                .get(&s.id)
                .map_or(here, |&i| here.lerp(&Pose::of(&b.agents[i]), w))
        }));
        emit(first as f64 * dt + t, &poses)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolates_halfway() {
        let a = Pose {
            id: 1,
            position: Vec2::ZERO,
            direction: Vec2::X,
            speed: 1.0,
        };
        let b = Pose {
            id: 1,
            position: Vec2::new(2.0, 0.0),
            direction: Vec2::Y,
            speed: 2.0,
        };
        let m = a.lerp(&b, 0.5);
        assert_eq!(m.position, Vec2::new(1.0, 0.0));
        assert!((m.direction.length() - 1.0).abs() < 1e-6);
        assert!((m.direction.x - m.direction.y).abs() < 1e-6);
        assert_eq!(m.speed, 1.5);
    }
}
