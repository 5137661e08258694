//! PNG sequence export: one image per selected tick, `frame_000000.png`…, rendered in parallel
//! through the same draw list as the canvas and written atomically.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use anyhow::{Context, Result, bail};
use glam::Vec2;
use rayon::prelude::*;

use super::ticks::TickSelection;
use crate::atomic_file::write_atomic;
use crate::draw::{Overlays, View, build_draw_list, palette, render_to_pixmap};
use crate::record::FrameSource;

/// Settings of a PNG sequence export.
#[derive(Clone, Debug)]
pub struct PngOptions {
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Which ticks become frames.
    pub ticks: TickSelection,
    /// Annotations drawn over the agents.
    pub overlays: Overlays,
}

impl Default for PngOptions {
    fn default() -> Self {
        PngOptions {
            width: 1280,
            height: 720,
            ticks: TickSelection::default(),
            overlays: Overlays::default(),
        }
    }
}

/// Writes the selected frames of `source` into `dir` (created if needed); `progress(done, total)`
/// is called as frames complete and `cancel` stops the export early. Returns the files written.
pub fn export_png_sequence(
    source: &dyn FrameSource,
    dir: &Path,
    options: &PngOptions,
    progress: &(dyn Fn(u64, u64) + Sync),
    cancel: &AtomicBool,
) -> Result<Vec<PathBuf>> {
    if options.width == 0 || options.height == 0 || options.width > 16384 || options.height > 16384 {
        bail!(
            "image size {}x{} must be between 1x1 and 16384x16384",
            options.width,
            options.height
        );
    }
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create the output folder", dir.display()))?;
    let ticks = options.ticks.ticks(source.tick_range());
    let header = source.header();
    let view = View::fit(
        header.scene.bounds,
        Vec2::new(options.width as f32, options.height as f32),
    );
    let done = AtomicU64::new(0);
    let total = ticks.len() as u64;
    ticks
        .par_iter()
        .map_init(
            || tiny_skia::Pixmap::new(options.width, options.height).expect("size checked above"),
            |pixmap, &tick| -> Result<Option<PathBuf>> {
                if cancel.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                let frame = source.frame(tick)?;
                let list = build_draw_list(&header.scene, Some(header), Some(&frame), &options.overlays);
                render_to_pixmap(&list, &view, Some(palette().background), pixmap);
                let path = dir.join(format!("frame_{tick:06}.png"));
                let png = pixmap.encode_png().context("PNG encoding failed")?;
                write_atomic(&path, &png).with_context(|| format!("{}: cannot write", path.display()))?;
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                Ok(Some(path))
            },
        )
        .filter_map(Result::transpose)
        .collect()
}
