//! `.crowdrec` reader on arbitrary bytes: opening and reading every tick must return Ok or an
//! error, never panic or allocate without bound.
#![no_main]

use std::path::Path;

use crowdlab::record::{FrameSource, RecordingReader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(reader) = RecordingReader::from_bytes(Path::new("fuzz.crowdrec"), data.to_vec()) {
        let (first, last) = reader.tick_range();
        for tick in first..=last.min(first.saturating_add(256)) {
            let _ = reader.frame(tick);
        }
    }
});
