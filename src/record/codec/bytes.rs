//! Little-endian primitives and LEB128 varints on byte buffers, with bounds-checked decoding:
//! a damaged payload yields an error, never a panic or an allocation it cannot back.

use glam::Vec2;

/// Appends little-endian primitives to a byte buffer.
pub struct Encoder<'a>(pub &'a mut Vec<u8>);

impl Encoder<'_> {
    /// Writes a u8.
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
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
    /// Writes an unsigned LEB128 varint (1 byte below 128).
    pub fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }
    /// Writes a signed value as a zigzag varint (small magnitudes take one byte).
    pub fn signed(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
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

    fn ended(&self) -> DecodeError {
        DecodeError(format!("payload ends at byte {} inside a record", self.bytes.len()))
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let end = self.at.checked_add(n).ok_or_else(|| self.ended())?;
        let slice = self.bytes.get(self.at..end).ok_or_else(|| self.ended())?;
        self.at = end;
        Ok(slice)
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        Ok(self.bytes(N)?.try_into().expect("slice has length N"))
    }
    /// Reads a u8.
    pub fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take::<1>()?[0])
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
    /// Reads a varint written by [`Encoder::varint`], rejecting one longer than 64 bits.
    pub fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(DecodeError("a varint runs past 64 bits".into()))
    }
    /// Reads a varint that must fit a u32 (ids, indices, counts).
    pub fn varint_u32(&mut self) -> Result<u32, DecodeError> {
        let v = self.varint()?;
        u32::try_from(v).map_err(|_| DecodeError(format!("value {v} does not fit 32 bits")))
    }
    /// Reads a zigzag varint written by [`Encoder::signed`].
    pub fn signed(&mut self) -> Result<i64, DecodeError> {
        let v = self.varint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// Reads a count of records that take at least `min_size` bytes each, rejecting counts the
    /// payload cannot hold (so a corrupt count never drives a large allocation).
    pub fn count(&mut self, min_size: usize) -> Result<usize, DecodeError> {
        let n = self.varint()?;
        let fits = usize::try_from(n)
            .ok()
            .filter(|&n| n.saturating_mul(min_size.max(1)) <= self.remaining());
        fits.ok_or_else(|| DecodeError(format!("count {n} exceeds the {} bytes left", self.remaining())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_stay_short() {
        let mut buf = Vec::new();
        let mut e = Encoder(&mut buf);
        for v in [0u64, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            e.varint(v);
        }
        for v in [0i64, -1, 1, -64, 63, i64::MIN, i64::MAX] {
            e.signed(v);
        }
        let mut d = Decoder::new(&buf);
        for v in [0u64, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            assert_eq!(d.varint().unwrap(), v);
        }
        for v in [0i64, -1, 1, -64, 63, i64::MIN, i64::MAX] {
            assert_eq!(d.signed().unwrap(), v);
        }
        assert_eq!(d.remaining(), 0);
        let mut one = Vec::new();
        Encoder(&mut one).signed(-64);
        assert_eq!(one.len(), 1);
    }

    #[test]
    fn damaged_varints_and_counts_are_errors() {
        assert!(Decoder::new(&[0xff; 11]).varint().is_err());
        assert!(Decoder::new(&[0x80]).varint().is_err());
        let mut big = Vec::new();
        Encoder(&mut big).varint(1 << 40);
        assert!(Decoder::new(&big).varint_u32().is_err());
        assert!(Decoder::new(&big).count(1).is_err());
    }
}
