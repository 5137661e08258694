//! Scene loader + validation on arbitrary text: must return Ok or a located error, never panic;
//! a small scene that validates must also build a world and step without panicking. Stepping is
//! limited to small worlds (≤ 50 agents, ≤ 50,000 planner cells): a valid 100-agent scene with
//! any-angle planning on 190,000 cells legitimately takes seconds per tick under the fuzzer's
//! instrumentation, which libFuzzer would report as a timeout.
#![no_main]

use std::path::Path;
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(scene) = crowdlab::scene::parse_valid_scene(text, Path::new("fuzz.ron")) {
        let agents = scene.agents.len() as u64 + scene.spawns.iter().map(|s| u64::from(s.count)).sum::<u64>();
        let cells = scene.bounds.size() / scene.navigation.cell_size;
        if agents <= 50 && cells.x * cells.y <= 50_000.0 {
            let mut world = crowdlab::sim::World::new(Arc::new(scene));
            for _ in 0..5 {
                world.step();
            }
        }
    }
});
