//! `.crowdrec` reader on arbitrary bytes: opening and reading every tick must return Ok or an
//! error, never panic or allocate without bound. Odd-length inputs get every block's CRC-32
//! recomputed first, so mutations reach the header, index and chunk decoders behind the CRC
//! check instead of stopping at it; even-length inputs are read as they are.
#![no_main]

use std::path::Path;

use crowdlab::record::{FrameSource, RecordingReader};
use libfuzzer_sys::fuzz_target;

/// Rewrites the CRC of each `tag len crc payload` block from byte 12 on, as far as they chain.
fn fix_crcs(data: &mut [u8]) {
    let mut at = 12;
    while at + 12 <= data.len() {
        let len = u32::from_le_bytes(data[at + 4..at + 8].try_into().expect("4 bytes")) as usize;
        let Some(end) = (at + 12).checked_add(len).filter(|&end| end <= data.len()) else {
            break;
        };
        let crc = crc32fast::hash(&data[at + 12..end]);
        data[at + 8..at + 12].copy_from_slice(&crc.to_le_bytes());
        at = end;
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    if bytes.len() % 2 == 1 {
        fix_crcs(&mut bytes);
    }
    if let Ok(reader) = RecordingReader::from_bytes(Path::new("fuzz.crowdrec"), bytes) {
        let (first, last) = reader.tick_range();
        for tick in first..=last.min(first.saturating_add(256)) {
            let _ = reader.frame(tick);
        }
    }
});
