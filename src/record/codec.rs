//! Binary encoding of frames (little-endian, fixed-size records) with bounds-checked decoding:
//! a damaged payload yields an error, never a panic.

use glam::Vec2;

use super::debug::{AvoidanceDebug, Constraint};
use super::frame::{AgentSample, Contact, ContactWith, ForceSample, Frame};

/// Appends little-endian primitives to a byte buffer.
pub struct Encoder<'a>(pub &'a mut Vec<u8>);

impl Encoder<'_> {
    /// Writes a u8.
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    /// Writes a u16.
    pub fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// Writes a u32.
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// Writes a u64.
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// Writes an f32.
    pub fn f32(&mut self, v: f32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// Writes a vector as two f32.
    pub fn vec2(&mut self, v: Vec2) {
        self.f32(v.x);
        self.f32(v.y);
    }
}

/// Reads little-endian primitives from a byte slice, failing cleanly at its end.
pub struct Decoder<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// The payload ended early or held an impossible value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl<'a> Decoder<'a> {
    /// A decoder at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Decoder<'a> {
        Decoder { bytes, at: 0 }
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let end = self.at + N;
        let slice = self
            .bytes
            .get(self.at..end)
            .ok_or_else(|| DecodeError(format!("payload ends at byte {} inside a record", self.bytes.len())))?;
        self.at = end;
        Ok(slice.try_into().expect("slice has length N"))
    }
    /// Reads a u8.
    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take::<1>()?[0])
    }
    /// Reads a u16.
    pub fn u16(&mut self) -> Result<u16, DecodeError> {
        Ok(u16::from_le_bytes(self.take()?))
    }
    /// Reads a u32.
    pub fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    /// Reads a u64.
    pub fn u64(&mut self) -> Result<u64, DecodeError> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    /// Reads an f32.
    pub fn f32(&mut self) -> Result<f32, DecodeError> {
        Ok(f32::from_le_bytes(self.take()?))
    }
    /// Reads a vector written by [`Encoder::vec2`].
    pub fn vec2(&mut self) -> Result<Vec2, DecodeError> {
        Ok(Vec2::new(self.f32()?, self.f32()?))
    }

    /// Reads a count of records of `record_size` bytes, rejecting counts the payload cannot hold.
    pub fn count(&mut self, record_size: usize) -> Result<usize, DecodeError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(record_size) > self.remaining() {
            return Err(DecodeError(format!(
                "count {n} exceeds the {} bytes left",
                self.remaining()
            )));
        }
        Ok(n)
    }
}

const AGENT_SIZE: usize = 4 + 6 * 8 + 2 + 1 + 4 + 2;
const FORCE_SIZE: usize = 2 + 8 + 4;
const CONTACT_SIZE: usize = 4 + 1 + 4 + 4;
const DEBUG_SIZE: usize = 4 + 8 + 4 + 8 + 8 + 4;
const CONSTRAINT_MIN_SIZE: usize = 1 + 4;

/// Appends one frame's encoding to `out`.
pub fn encode_frame(frame: &Frame, out: &mut Vec<u8>) {
    let mut e = Encoder(out);
    e.u64(frame.tick);
    e.f32(frame.time);
    e.u32(frame.agents.len() as u32);
    for a in &frame.agents {
        e.u32(a.id);
        for v in [
            a.position,
            a.velocity,
            a.heading,
            a.preferred_velocity,
            a.steering,
            a.avoidance,
        ] {
            e.vec2(v);
        }
        e.u16(a.state);
        e.u8(a.flags);
        e.u32(a.force_start);
        e.u16(a.force_count);
    }
    e.u32(frame.forces.len() as u32);
    for f in &frame.forces {
        e.u16(f.label);
        e.vec2(f.force);
        e.f32(f.kept);
    }
    e.u32(frame.contacts.len() as u32);
    for c in &frame.contacts {
        e.u32(c.agent);
        let (kind, other) = match c.with {
            ContactWith::Agent(id) => (0, id),
            ContactWith::Obstacle(i) => (1, i),
        };
        e.u8(kind);
        e.u32(other);
        e.f32(c.depth);
    }
    encode_debug(&frame.debug, &mut e);
}

/// The optional avoidance-debug block (format version 2): a count, usually 0.
fn encode_debug(debug: &[AvoidanceDebug], e: &mut Encoder) {
    e.u32(debug.len() as u32);
    for d in debug {
        e.u32(d.agent);
        e.vec2(d.position);
        e.f32(d.max_speed);
        e.vec2(d.preferred);
        e.vec2(d.chosen);
        e.u32(d.constraints.len() as u32);
        for c in &d.constraints {
            match c {
                Constraint::HalfPlane { point, direction, hard } => {
                    e.u8(0);
                    e.vec2(*point);
                    e.vec2(*direction);
                    e.u8(u8::from(*hard));
                }
                Constraint::Region { vertices } => {
                    e.u8(1);
                    e.u32(vertices.len() as u32);
                    vertices.iter().for_each(|v| e.vec2(*v));
                }
                Constraint::Edge { a, b, outer } => {
                    e.u8(2);
                    e.vec2(*a);
                    e.vec2(*b);
                    e.u8(u8::from(*outer));
                }
            }
        }
    }
}

fn decode_debug(d: &mut Decoder) -> Result<Vec<AvoidanceDebug>, DecodeError> {
    let n = d.count(DEBUG_SIZE)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let agent = d.u32()?;
        let position = d.vec2()?;
        let max_speed = d.f32()?;
        let preferred = d.vec2()?;
        let chosen = d.vec2()?;
        let m = d.count(CONSTRAINT_MIN_SIZE)?;
        let mut constraints = Vec::with_capacity(m);
        for _ in 0..m {
            constraints.push(match d.u8()? {
                0 => Constraint::HalfPlane {
                    point: d.vec2()?,
                    direction: d.vec2()?,
                    hard: d.u8()? != 0,
                },
                1 => {
                    let k = d.count(8)?;
                    Constraint::Region {
                        vertices: (0..k).map(|_| d.vec2()).collect::<Result<_, _>>()?,
                    }
                }
                2 => Constraint::Edge {
                    a: d.vec2()?,
                    b: d.vec2()?,
                    outer: d.u8()? != 0,
                },
                k => return Err(DecodeError(format!("unknown avoidance constraint kind {k}"))),
            });
        }
        out.push(AvoidanceDebug {
            agent,
            position,
            max_speed,
            preferred,
            chosen,
            constraints,
        });
    }
    Ok(out)
}

/// Decodes one frame, checking that every agent's force slice lies inside the frame.
/// `with_debug` is false for format version 1, whose frames end after the contacts.
pub fn decode_frame(d: &mut Decoder, with_debug: bool) -> Result<Frame, DecodeError> {
    let tick = d.u64()?;
    let time = d.f32()?;
    let n = d.count(AGENT_SIZE)?;
    let mut agents = Vec::with_capacity(n);
    for _ in 0..n {
        agents.push(AgentSample {
            id: d.u32()?,
            position: d.vec2()?,
            velocity: d.vec2()?,
            heading: d.vec2()?,
            preferred_velocity: d.vec2()?,
            steering: d.vec2()?,
            avoidance: d.vec2()?,
            state: d.u16()?,
            flags: d.u8()?,
            force_start: d.u32()?,
            force_count: d.u16()?,
        });
    }
    let n = d.count(FORCE_SIZE)?;
    let mut forces = Vec::with_capacity(n);
    for _ in 0..n {
        forces.push(ForceSample {
            label: d.u16()?,
            force: d.vec2()?,
            kept: d.f32()?,
        });
    }
    if let Some(a) = agents
        .iter()
        .find(|a| a.force_start as usize + a.force_count as usize > forces.len())
    {
        return Err(DecodeError(format!(
            "agent {} refers to forces beyond the {} recorded",
            a.id,
            forces.len()
        )));
    }
    let n = d.count(CONTACT_SIZE)?;
    let mut contacts = Vec::with_capacity(n);
    for _ in 0..n {
        let agent = d.u32()?;
        let kind = d.u8()?;
        let other = d.u32()?;
        let with = match kind {
            0 => ContactWith::Agent(other),
            1 => ContactWith::Obstacle(other),
            k => return Err(DecodeError(format!("unknown contact kind {k}"))),
        };
        contacts.push(Contact {
            agent,
            with,
            depth: d.f32()?,
        });
    }
    let debug = if with_debug { decode_debug(d)? } else { Vec::new() };
    Ok(Frame {
        tick,
        time,
        agents,
        forces,
        contacts,
        debug,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn frame(debug: Vec<AvoidanceDebug>) -> Frame {
        Frame {
            tick: 7,
            time: 0.7,
            agents: vec![AgentSample {
                id: 3,
                position: Vec2::new(1.0, 2.0),
                velocity: Vec2::X,
                heading: Vec2::X,
                preferred_velocity: Vec2::new(1.0, 0.5),
                steering: Vec2::ZERO,
                avoidance: Vec2::new(0.0, -0.5),
                state: 0,
                flags: 0,
                force_start: 0,
                force_count: 0,
            }],
            forces: vec![],
            contacts: vec![],
            debug,
        }
    }

    #[test]
    fn avoidance_debug_round_trips() {
        let f = frame(vec![AvoidanceDebug {
            agent: 3,
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
        }]);
        let mut bytes = Vec::new();
        encode_frame(&f, &mut bytes);
        let mut d = Decoder::new(&bytes);
        assert_eq!(decode_frame(&mut d, true).unwrap(), f);
        assert_eq!(d.remaining(), 0);
    }

    #[test]
    fn version_1_frames_without_the_debug_block_still_decode() {
        // A version-1 frame is a version-2 frame without the trailing debug count.
        let f = frame(vec![]);
        let mut bytes = Vec::new();
        encode_frame(&f, &mut bytes);
        bytes.truncate(bytes.len() - 4);
        let mut d = Decoder::new(&bytes);
        assert_eq!(decode_frame(&mut d, false).unwrap(), f);
        assert_eq!(d.remaining(), 0);
    }

    #[test]
    fn damaged_debug_block_is_an_error_not_a_panic() {
        let mut f = frame(vec![]);
        f.debug.push(AvoidanceDebug {
            agent: 3,
            position: Vec2::ZERO,
            max_speed: 1.0,
            preferred: Vec2::ZERO,
            chosen: Vec2::ZERO,
            constraints: vec![Constraint::Edge {
                a: Vec2::ZERO,
                b: Vec2::X,
                outer: false,
            }],
        });
        let mut bytes = Vec::new();
        encode_frame(&f, &mut bytes);
        let kind_at = bytes.len() - 17 - 1;
        bytes[kind_at] = 9;
        assert!(decode_frame(&mut Decoder::new(&bytes), true).is_err());
        bytes.truncate(bytes.len() - 3);
        assert!(decode_frame(&mut Decoder::new(&bytes), true).is_err());
    }
}
