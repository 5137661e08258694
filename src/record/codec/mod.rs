//! Binary encoding of recordings: primitives and varints ([`bytes`]), the compact
//! predicted-and-planed frame encoding ([`frames`]) and the avoidance-debug block.

mod bytes;
mod debug;
mod frames;

pub use bytes::{DecodeError, Decoder, Encoder};
pub use frames::{FrameCodec, quantise};
