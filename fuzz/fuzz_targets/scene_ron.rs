//! Scene loader + validation on arbitrary text: must return Ok or a located error, never panic;
//! a scene that validates must also build a world and step without panicking.
#![no_main]

use std::path::Path;
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(scene) = crowdlab::scene::parse_valid_scene(text, Path::new("fuzz.ron")) {
        if scene.agents.len() <= 200 {
            let mut world = crowdlab::sim::World::new(Arc::new(scene));
            for _ in 0..5 {
                world.step();
            }
        }
    }
});
