//! The bundled avoidance scenes under `scenes/` are valid scene files and are exactly what the
//! generator in `tests/avoidance_support/scenes.rs` builds. After changing the generator, rewrite them with
//! `cargo test --test bundled_avoidance_scenes -- --ignored`.

use crate::avoidance_support;

use std::path::PathBuf;

use crowdlab::scene::{load_scene, save_scene};

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("scenes/{name}.ron"))
}

#[test]
fn bundled_scenes_load_validate_and_match_the_generator() {
    for (name, generated) in avoidance_support::scenes::bundled() {
        let loaded = load_scene(&path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            loaded, generated,
            "{name}: the file differs from the generator; regenerate it"
        );
        assert!(!loaded.description.is_empty(), "{name} has a description");
    }
}

#[test]
#[ignore = "writes scenes/*.ron; run after changing the generator"]
fn regenerate_bundled_scenes() {
    std::fs::create_dir_all(path("x").parent().unwrap()).unwrap();
    for (name, scene) in avoidance_support::scenes::bundled() {
        save_scene(&scene, &path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}
