//! The avoidance-debug block at the end of every frame: a count (usually 0), then each debugged
//! agent's constraints in velocity space.

use super::bytes::{DecodeError, Decoder, Encoder};
use crate::record::debug::{AvoidanceDebug, Constraint};

const DEBUG_MIN_SIZE: usize = 1 + 8 + 4 + 8 + 8 + 1;
const CONSTRAINT_MIN_SIZE: usize = 1 + 1;

/// Appends the avoidance explanations of a frame.
pub fn encode_debug(debug: &[AvoidanceDebug], e: &mut Encoder) {
    e.varint(debug.len() as u64);
    for d in debug {
        e.varint(u64::from(d.agent));
        e.vec2(d.position);
        e.f32(d.max_speed);
        e.vec2(d.preferred);
        e.vec2(d.chosen);
        e.varint(d.constraints.len() as u64);
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
                    e.varint(vertices.len() as u64);
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

/// Reads the block written by [`encode_debug`].
pub fn decode_debug(d: &mut Decoder) -> Result<Vec<AvoidanceDebug>, DecodeError> {
    let n = d.count(DEBUG_MIN_SIZE)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let agent = d.varint_u32()?;
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
