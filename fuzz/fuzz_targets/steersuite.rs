//! SteerSuite importer + validation on arbitrary text: must return Ok or an error naming the
//! line, never panic, hang or allocate without bound.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok((scene, _warnings)) = crowdlab::scene::import::import_steersuite(text, Path::new("fuzz.xml")) {
        let _ = crowdlab::scene::validate(&scene);
    }
});
