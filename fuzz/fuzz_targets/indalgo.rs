//! IndAlgoTest importer + validation on arbitrary text: the input is split at the first NUL
//! byte into the `.iascene` and an optional `.iaconf`. Must return Ok or an error naming the
//! line, never panic, hang or allocate without bound.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (scene, config) = match text.split_once('\0') {
        Some((scene, config)) => (scene, Some((config, Path::new("fuzz.iaconf")))),
        None => (text, None),
    };
    if let Ok((scene, _warnings)) = crowdlab::scene::import::import_indalgo(scene, Path::new("fuzz.iascene"), config) {
        let _ = crowdlab::scene::validate(&scene);
    }
});
