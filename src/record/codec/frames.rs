//! Compact frame encoding (format version 3): one frame at a time, column by column, each value
//! stored as the difference from what the previous frame of the same chunk predicts, so a
//! general-purpose compressor (zstd, applied to the whole chunk) finds long runs of zeros.
//!
//! - Ids are deltas within the frame; profile, mind state, flags and force counts are varints
//!   (nearly constant, they compress to almost nothing).
//! - Velocity and heading are exact f32, XOR-ed with the prediction (previous velocity; the
//!   new velocity's direction). Position is exact f32 XOR-ed with `previous position +
//!   velocity·dt`, which is what locomotion computes, so it is usually a run of zeros.
//! - The analysis vectors (preferred velocity, steering, avoidance, every force) keep 15 of the
//!   23 mantissa bits (relative error below 1.6·10⁻⁵, the f32 range kept) and the share a
//!   combiner kept is stored in 1/255 steps. [`quantise`] says exactly what a frame reads back as.
//! - Each column is written as byte planes (all most significant bytes first), which is where
//!   the zeros line up.
//!
//! The encoder and the decoder keep the same previous frame (the quantised one), so a chunk
//! decodes only from its start: random access costs at most one chunk.

use std::collections::HashMap;

use glam::Vec2;

use super::bytes::{DecodeError, Decoder, Encoder};
use super::debug::{decode_debug, encode_debug};
use crate::record::frame::{AgentEvent, AgentSample, Contact, ContactWith, ForceSample, Frame};

/// The frame as the file will give it back: analysis vectors rounded to 15 mantissa bits, kept
/// shares to 1/255 steps, forces laid out in agent order.
pub fn quantise(frame: &Frame) -> Frame {
    let mut forces = Vec::with_capacity(frame.forces.len());
    let agents = frame
        .agents
        .iter()
        .map(|a| {
            let start = forces.len() as u32;
            forces.extend(frame.forces_of(a).iter().map(|f| ForceSample {
                label: f.label,
                force: reduce_vec(f.force),
                kept: kept_from_byte(kept_to_byte(f.kept)),
            }));
            AgentSample {
                preferred_velocity: reduce_vec(a.preferred_velocity),
                steering: reduce_vec(a.steering),
                avoidance: reduce_vec(a.avoidance),
                force_start: start,
                ..*a
            }
        })
        .collect();
    Frame {
        agents,
        forces,
        ..frame.clone()
    }
}

/// `v` rounded to 15 mantissa bits (round half away from zero), or truncated where rounding
/// would overflow to infinity.
fn reduce(v: f32) -> f32 {
    let bits = v.to_bits();
    let rounded = f32::from_bits(bits.wrapping_add(0x80) & !0xff);
    if rounded.is_finite() || !v.is_finite() {
        rounded
    } else {
        f32::from_bits(bits & !0xff)
    }
}

fn reduce_vec(v: Vec2) -> Vec2 {
    Vec2::new(reduce(v.x), reduce(v.y))
}

fn kept_to_byte(kept: f32) -> u8 {
    (kept.clamp(0.0, 1.0) * 255.0).round() as u8
}

fn kept_from_byte(b: u8) -> f32 {
    f32::from(b) / 255.0
}

/// Byte planes of 32-bit words: every word's byte 3, then byte 2, …
fn put_planes(out: &mut Vec<u8>, words: &[u32], planes: usize) {
    for plane in (4 - planes..4).rev() {
        out.extend(words.iter().map(|w| (w >> (plane * 8)) as u8));
    }
}

fn get_planes(d: &mut Decoder, n: usize, planes: usize) -> Result<Vec<u32>, DecodeError> {
    let mut words = vec![0u32; n];
    for plane in (4 - planes..4).rev() {
        for (w, b) in words.iter_mut().zip(d.bytes(n)?) {
            *w |= u32::from(*b) << (plane * 8);
        }
    }
    Ok(words)
}

/// Exact vectors: the XOR of each component's bits with the prediction's, as 4 planes.
fn put_exact(out: &mut Vec<u8>, values: impl Iterator<Item = (Vec2, Vec2)>) {
    let words: Vec<u32> = values
        .flat_map(|(v, p)| [v.x.to_bits() ^ p.x.to_bits(), v.y.to_bits() ^ p.y.to_bits()])
        .collect();
    put_planes(out, &words, 4);
}

/// Reduced vectors: the XOR with the prediction of the top three bytes, as 3 planes.
fn put_reduced(out: &mut Vec<u8>, values: impl Iterator<Item = (Vec2, Vec2)>) {
    let words: Vec<u32> = values
        .flat_map(|(v, p)| [v.x.to_bits() ^ p.x.to_bits(), v.y.to_bits() ^ p.y.to_bits()])
        .collect();
    put_planes(out, &words, 3);
}

/// Reads `n` vectors written with `planes` planes, undoing the XOR with `predict(i)`.
fn get_vectors(
    d: &mut Decoder,
    n: usize,
    planes: usize,
    mut predict: impl FnMut(usize) -> Vec2,
) -> Result<Vec<Vec2>, DecodeError> {
    let words = get_planes(d, n * 2, planes)?;
    Ok(words
        .chunks_exact(2)
        .enumerate()
        .map(|(i, w)| {
            let p = predict(i);
            Vec2::new(
                f32::from_bits(w[0] ^ p.x.to_bits()),
                f32::from_bits(w[1] ^ p.y.to_bits()),
            )
        })
        .collect())
}

/// For each agent of a frame, the index of the same agent in the previous frame.
fn previous_indices(prev: Option<&Frame>, agents: &[AgentSample]) -> Vec<Option<usize>> {
    let Some(prev) = prev else {
        return vec![None; agents.len()];
    };
    let mut lookup: Option<HashMap<u32, usize>> = None;
    agents
        .iter()
        .enumerate()
        .map(|(i, a)| match prev.agents.get(i) {
            Some(p) if p.id == a.id => Some(i),
            _ => lookup
                .get_or_insert_with(|| prev.agents.iter().enumerate().map(|(j, p)| (p.id, j)).collect())
                .get(&a.id)
                .copied(),
        })
        .collect()
}

/// The heading predicted for an agent moving with `velocity` that last faced `previous`.
fn predict_heading(velocity: Vec2, previous: Vec2) -> Vec2 {
    velocity.try_normalize().unwrap_or(previous)
}

/// What a chunk's frames share while they are written or read: the tick length and the
/// previous (quantised) frame the next one is predicted from.
pub struct FrameCodec {
    dt: f32,
    previous: Option<Frame>,
}

impl FrameCodec {
    /// A codec at the start of a chunk of a run with tick length `dt`.
    pub fn new(dt: f32) -> FrameCodec {
        FrameCodec { dt, previous: None }
    }

    /// Appends `frame` (as [`quantise`] gives it back) to `out`.
    pub fn encode(&mut self, frame: &Frame, out: &mut Vec<u8>) {
        let frame = quantise(frame);
        let prev = self.previous.as_ref();
        let links = previous_indices(prev, &frame.agents);
        let before = |i: usize| links[i].and_then(|j| prev.map(|p| &p.agents[j]));
        let mut e = Encoder(out);
        e.varint(frame.tick);
        e.f32(frame.time);
        e.varint(frame.agents.len() as u64);
        let mut last_id = 0i64;
        for a in &frame.agents {
            e.signed(i64::from(a.id) - last_id);
            last_id = i64::from(a.id);
        }
        for a in &frame.agents {
            e.varint(u64::from(a.profile));
        }
        for a in &frame.agents {
            e.varint(u64::from(a.state));
        }
        for a in &frame.agents {
            e.u8(a.flags);
        }
        for a in &frame.agents {
            e.varint(u64::from(a.force_count));
        }
        let agents = &frame.agents;
        let dt = self.dt;
        let or_zero = |i: usize, f: fn(&AgentSample) -> Vec2| before(i).map_or(Vec2::ZERO, f);
        put_exact(
            out,
            agents
                .iter()
                .enumerate()
                .map(|(i, a)| (a.velocity, or_zero(i, |p| p.velocity))),
        );
        put_exact(
            out,
            agents.iter().enumerate().map(|(i, a)| {
                let predicted = before(i).map_or(Vec2::ZERO, |p| p.position + a.velocity * dt);
                (a.position, predicted)
            }),
        );
        put_exact(
            out,
            agents
                .iter()
                .enumerate()
                .map(|(i, a)| (a.heading, predict_heading(a.velocity, or_zero(i, |p| p.heading)))),
        );
        put_reduced(
            out,
            agents
                .iter()
                .enumerate()
                .map(|(i, a)| (a.preferred_velocity, or_zero(i, |p| p.preferred_velocity))),
        );
        put_reduced(
            out,
            agents
                .iter()
                .enumerate()
                .map(|(i, a)| (a.steering, or_zero(i, |p| p.steering))),
        );
        put_reduced(
            out,
            agents
                .iter()
                .enumerate()
                .map(|(i, a)| (a.avoidance, or_zero(i, |p| p.avoidance))),
        );
        let previous_force = |i: usize, k: usize| {
            before(i)
                .and_then(|p| prev.map(|f| f.forces_of(p)))
                .and_then(|fs| fs.get(k))
                .map_or(Vec2::ZERO, |f| f.force)
        };
        let mut e = Encoder(out);
        for f in &frame.forces {
            e.varint(u64::from(f.label));
        }
        put_reduced(
            out,
            agents
                .iter()
                .enumerate()
                .flat_map(|(i, a)| frame.forces_of(a).iter().enumerate().map(move |(k, f)| (i, k, f)))
                .map(|(i, k, f)| (f.force, previous_force(i, k))),
        );
        out.extend(frame.forces.iter().map(|f| kept_to_byte(f.kept)));
        let mut e = Encoder(out);
        e.varint(frame.contacts.len() as u64);
        for c in &frame.contacts {
            e.varint(u64::from(c.agent));
            let (kind, other) = match c.with {
                ContactWith::Agent(id) => (0, id),
                ContactWith::Obstacle(i) => (1, i),
            };
            e.u8(kind);
            e.varint(u64::from(other));
            e.f32(c.depth);
        }
        e.varint(frame.events.len() as u64);
        for ev in &frame.events {
            encode_event(ev, &mut e);
        }
        encode_debug(&frame.debug, &mut e);
        self.previous = Some(frame);
    }

    /// Reads the next frame, checking every count against the bytes left.
    pub fn decode(&mut self, d: &mut Decoder) -> Result<Frame, DecodeError> {
        let tick = d.varint()?;
        let time = d.f32()?;
        let n = d.count(1 + 1 + 1 + 1 + 1 + 4 * 6 + 3 * 6)?;
        let mut id = 0i64;
        let mut ids = Vec::with_capacity(n);
        for _ in 0..n {
            id += d.signed()?;
            ids.push(u32::try_from(id).map_err(|_| DecodeError(format!("agent id {id} is not a u32")))?);
        }
        let profiles = (0..n).map(|_| d.varint_u32()).collect::<Result<Vec<_>, _>>()?;
        let states = (0..n)
            .map(|_| {
                let v = d.varint()?;
                u16::try_from(v).map_err(|_| DecodeError(format!("mind state {v} is out of range")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let flags = d.bytes(n)?.to_vec();
        let counts = (0..n)
            .map(|_| {
                let v = d.varint()?;
                u16::try_from(v).map_err(|_| DecodeError(format!("force count {v} is out of range")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut agents: Vec<AgentSample> = (0..n)
            .map(|i| AgentSample {
                id: ids[i],
                profile: profiles[i],
                position: Vec2::ZERO,
                velocity: Vec2::ZERO,
                heading: Vec2::ZERO,
                preferred_velocity: Vec2::ZERO,
                steering: Vec2::ZERO,
                avoidance: Vec2::ZERO,
                state: states[i],
                flags: flags[i],
                force_start: 0,
                force_count: counts[i],
            })
            .collect();
        let prev = self.previous.as_ref();
        let links = previous_indices(prev, &agents);
        let before = |i: usize| links[i].and_then(|j| prev.map(|p| &p.agents[j]));
        let or_zero = |i: usize, f: fn(&AgentSample) -> Vec2| before(i).map_or(Vec2::ZERO, f);
        let velocities = get_vectors(d, n, 4, |i| or_zero(i, |p| p.velocity))?;
        let dt = self.dt;
        let positions = get_vectors(d, n, 4, |i| {
            before(i).map_or(Vec2::ZERO, |p| p.position + velocities[i] * dt)
        })?;
        let headings = get_vectors(d, n, 4, |i| predict_heading(velocities[i], or_zero(i, |p| p.heading)))?;
        let preferred = get_vectors(d, n, 3, |i| or_zero(i, |p| p.preferred_velocity))?;
        let steering = get_vectors(d, n, 3, |i| or_zero(i, |p| p.steering))?;
        let avoidance = get_vectors(d, n, 3, |i| or_zero(i, |p| p.avoidance))?;
        let mut start = 0u32;
        for (i, a) in agents.iter_mut().enumerate() {
            a.velocity = velocities[i];
            a.position = positions[i];
            a.heading = headings[i];
            a.preferred_velocity = preferred[i];
            a.steering = steering[i];
            a.avoidance = avoidance[i];
            a.force_start = start;
            start = start
                .checked_add(u32::from(a.force_count))
                .ok_or_else(|| DecodeError("the frame's force counts overflow".into()))?;
        }
        let m = start as usize;
        if m.saturating_mul(1 + 6 + 1) > d.remaining() {
            return Err(DecodeError(format!(
                "{m} forces exceed the {} bytes left",
                d.remaining()
            )));
        }
        let labels = (0..m)
            .map(|_| {
                let v = d.varint()?;
                u16::try_from(v).map_err(|_| DecodeError(format!("force label {v} is out of range")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let owners: Vec<(usize, usize)> = agents
            .iter()
            .enumerate()
            .flat_map(|(i, a)| (0..a.force_count as usize).map(move |k| (i, k)))
            .collect();
        let previous_force = |j: usize| {
            let (i, k) = owners[j];
            before(i)
                .and_then(|p| prev.map(|f| f.forces_of(p)))
                .and_then(|fs| fs.get(k))
                .map_or(Vec2::ZERO, |f| f.force)
        };
        let force_vectors = get_vectors(d, m, 3, previous_force)?;
        let kept = d.bytes(m)?;
        let forces = (0..m)
            .map(|j| ForceSample {
                label: labels[j],
                force: force_vectors[j],
                kept: kept_from_byte(kept[j]),
            })
            .collect();
        let contacts = decode_contacts(d)?;
        let k = d.count(2)?;
        let events = (0..k).map(|_| decode_event(d)).collect::<Result<Vec<_>, _>>()?;
        let debug = decode_debug(d)?;
        let frame = Frame {
            tick,
            time,
            agents,
            forces,
            contacts,
            debug,
            events,
        };
        self.previous = Some(frame.clone());
        Ok(frame)
    }
}

fn decode_contacts(d: &mut Decoder) -> Result<Vec<Contact>, DecodeError> {
    let n = d.count(1 + 1 + 1 + 4)?;
    (0..n)
        .map(|_| {
            let agent = d.varint_u32()?;
            let kind = d.u8()?;
            let other = d.varint_u32()?;
            let with = match kind {
                0 => ContactWith::Agent(other),
                1 => ContactWith::Obstacle(other),
                k => return Err(DecodeError(format!("unknown contact kind {k}"))),
            };
            Ok(Contact {
                agent,
                with,
                depth: d.f32()?,
            })
        })
        .collect()
}

fn encode_event(event: &AgentEvent, e: &mut Encoder) {
    match *event {
        AgentEvent::Appeared { agent } => {
            e.u8(0);
            e.varint(u64::from(agent));
        }
        AgentEvent::Arrived { agent } => {
            e.u8(1);
            e.varint(u64::from(agent));
        }
        AgentEvent::Left { agent } => {
            e.u8(2);
            e.varint(u64::from(agent));
        }
        AgentEvent::ProfileChanged { agent, from, to } => {
            e.u8(3);
            e.varint(u64::from(agent));
            e.varint(u64::from(from));
            e.varint(u64::from(to));
        }
    }
}

fn decode_event(d: &mut Decoder) -> Result<AgentEvent, DecodeError> {
    let kind = d.u8()?;
    let agent = d.varint_u32()?;
    Ok(match kind {
        0 => AgentEvent::Appeared { agent },
        1 => AgentEvent::Arrived { agent },
        2 => AgentEvent::Left { agent },
        3 => AgentEvent::ProfileChanged {
            agent,
            from: d.varint_u32()?,
            to: d.varint_u32()?,
        },
        k => return Err(DecodeError(format!("unknown agent event kind {k}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{AvoidanceDebug, Constraint};

    fn sample(id: u32, position: Vec2, velocity: Vec2, force_start: u32, force_count: u16) -> AgentSample {
        AgentSample {
            id,
            profile: id % 3,
            position,
            velocity,
            heading: velocity.normalize_or(Vec2::X),
            preferred_velocity: velocity * 1.1 + Vec2::new(0.013, -0.007),
            steering: Vec2::new(0.3, -1.7),
            avoidance: Vec2::new(-0.01, 0.02),
            state: 2,
            flags: 1,
            force_start,
            force_count,
        }
    }

    fn frame(tick: u64, shift: f32, debug: Vec<AvoidanceDebug>) -> Frame {
        let v = Vec2::new(1.0, 0.5);
        Frame {
            tick,
            time: tick as f32 * 0.1,
            agents: vec![
                sample(7, Vec2::new(1.0 + shift, 2.0), v, 0, 2),
                sample(3, Vec2::new(-4.0, 2.5 + shift), Vec2::ZERO, 2, 0),
                sample(4_000_000_000, Vec2::new(9.0, -1.0), -v, 2, 1),
            ],
            forces: vec![
                ForceSample {
                    label: 0,
                    force: Vec2::new(1.234_567, -0.5),
                    kept: 1.0,
                },
                ForceSample {
                    label: 3,
                    force: Vec2::new(1e-7, 3e5),
                    kept: 0.333,
                },
                ForceSample {
                    label: 1,
                    force: Vec2::new(-2.0, 0.1),
                    kept: 0.0,
                },
            ],
            contacts: vec![Contact {
                agent: 3,
                with: ContactWith::Obstacle(2),
                depth: 0.01,
            }],
            debug,
            events: vec![
                AgentEvent::Arrived { agent: 3 },
                AgentEvent::ProfileChanged {
                    agent: 7,
                    from: 0,
                    to: 65_537,
                },
            ],
        }
    }

    fn debug() -> Vec<AvoidanceDebug> {
        vec![AvoidanceDebug {
            agent: 7,
            position: Vec2::new(1.0, 2.0),
            max_speed: 2.0,
            preferred: Vec2::new(1.0, 0.5),
            chosen: Vec2::X,
            constraints: vec![
                Constraint::HalfPlane {
                    point: Vec2::new(0.5, 0.0),
                    direction: Vec2::Y,
                    hard: true,
                },
                Constraint::Region {
                    vertices: vec![Vec2::ZERO, Vec2::X, Vec2::ONE],
                },
                Constraint::Edge {
                    a: Vec2::ZERO,
                    b: Vec2::Y,
                    outer: true,
                },
            ],
        }]
    }

    #[test]
    fn a_chunk_of_frames_reads_back_as_quantised_with_exact_positions_and_velocities() {
        let frames = [frame(5, 0.0, debug()), frame(6, 0.1, vec![]), {
            let mut f = frame(7, 0.2, vec![]);
            f.agents.swap(0, 2);
            f.agents.remove(1);
            f
        }];
        let mut bytes = Vec::new();
        let mut writer = FrameCodec::new(0.1);
        for f in &frames {
            writer.encode(f, &mut bytes);
        }
        let mut reader = FrameCodec::new(0.1);
        let mut d = Decoder::new(&bytes);
        for f in &frames {
            let back = reader.decode(&mut d).unwrap();
            assert_eq!(back, quantise(f));
            for (a, b) in f.agents.iter().zip(&back.agents) {
                assert_eq!((a.position, a.velocity, a.heading), (b.position, b.velocity, b.heading));
                assert!((a.steering - b.steering).length() <= a.steering.length() * 2e-5);
            }
        }
        assert_eq!(d.remaining(), 0);
    }

    #[test]
    fn reduction_keeps_fifteen_mantissa_bits_and_never_overflows() {
        for v in [1.234_567_f32, -3e5, 1e-30, 0.0, -0.0, f32::MAX, f32::MIN_POSITIVE] {
            let r = reduce(v);
            assert!(r.is_finite());
            assert!((r - v).abs() <= v.abs() * 1.6e-5, "{v} → {r}");
            assert_eq!(r.to_bits() & 0xff, 0);
        }
        assert!(reduce(f32::NAN).is_nan());
    }

    #[test]
    fn damaged_frames_are_errors_not_panics() {
        let mut bytes = Vec::new();
        FrameCodec::new(0.1).encode(&frame(1, 0.0, debug()), &mut bytes);
        for cut in 0..bytes.len() {
            let _ = FrameCodec::new(0.1).decode(&mut Decoder::new(&bytes[..cut]));
        }
        for at in 0..bytes.len() {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0xa5;
            let _ = FrameCodec::new(0.1).decode(&mut Decoder::new(&flipped));
        }
    }
}
