//! Validation cases: a scene with its pass criteria, either bundled with crowdlab (the RiMEA
//! scenes of `scenes/validation/`, embedded in the binary) or read from a folder, where each
//! `NAME.ron` is paired with `NAME.criteria` (a scene without one must simply let every agent arrive).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::criteria::{CaseCriteria, Criterion};
use crate::scene::{Scene, load_scene, parse_valid_scene};

/// A scene and what its run must satisfy.
#[derive(Clone, Debug)]
pub struct ValidationCase {
    /// File stem of the scene (`rimea_01_corridor`).
    pub name: String,
    /// Where the scene came from (`bundled:…` or a file path).
    pub source: String,
    /// The scene.
    pub scene: Scene,
    /// Its test name, speed class and criteria.
    pub criteria: CaseCriteria,
}

macro_rules! bundled {
    ($($name:literal),* $(,)?) => {
        [$((
            $name,
            include_str!(concat!("../../scenes/validation/", $name, ".ron")),
            include_str!(concat!("../../scenes/validation/", $name, ".criteria")),
        )),*]
    };
}

/// The bundled RiMEA scenes: (stem, scene text, criteria text).
const BUNDLED: [(&str, &str, &str); 7] = bundled!(
    "rimea_01_corridor",
    "rimea_04_fundamental_diagram",
    "rimea_05_premovement",
    "rimea_06_corner",
    "rimea_07_demographics",
    "rimea_09_large_room",
    "rimea_12_bottleneck",
);

fn parse_criteria(text: &str, path: &Path) -> Result<CaseCriteria> {
    ron::from_str(text).map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))
}

/// Every bundled validation case, in test order.
pub fn bundled_cases() -> Result<Vec<ValidationCase>> {
    BUNDLED
        .iter()
        .map(|(name, scene, criteria)| {
            let source = format!("scenes/validation/{name}.ron");
            Ok(ValidationCase {
                name: (*name).into(),
                scene: parse_valid_scene(scene, Path::new(&source))?,
                criteria: parse_criteria(criteria, &Path::new(&source).with_extension("criteria"))?,
                source,
            })
        })
        .collect()
}

/// The validation cases of every `*.ron` scene in `folder` (not recursive), sorted by name.
pub fn folder_cases(folder: &Path) -> Result<Vec<ValidationCase>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(folder)
        .with_context(|| format!("{}: cannot list the folder", folder.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let name = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
            let sidecar = path.with_extension("criteria");
            let criteria = if sidecar.exists() {
                let text = std::fs::read_to_string(&sidecar).with_context(|| format!("{}", sidecar.display()))?;
                parse_criteria(&text, &sidecar)?
            } else {
                CaseCriteria {
                    test: name.clone(),
                    fast: false,
                    criteria: vec![Criterion::AllArrive],
                }
            };
            Ok(ValidationCase {
                name,
                source: path.display().to_string(),
                scene: load_scene(path)?,
                criteria,
            })
        })
        .collect()
}
