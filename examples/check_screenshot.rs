//! Checks a window screenshot of the real-window CI step: it must show agent bodies (the agent
//! fill colour) and force arrows (per-behaviour force colours or the combined steering colour)
//! inside the canvas (the area of the canvas background colour, so the legend's swatches do not
//! count). Given a second screenshot of the same run painted another way (the canvas drawn from
//! its pictures on the GPU against egui's meshes), the two canvases must also be the same, but for
//! rounding: no channel of any pixel more than [`ROUNDING`] levels apart. With `--edges` (the
//! canvas drawn by the PNG export's renderer against the canvas on the GPU), but for the shading
//! of anti-aliased edges: [`EDGES_MEAN`] levels apart on average, and at most [`EDGES_FAR_SHARE`]
//! of the pixels more than [`FAR`] levels apart.
//! Usage: `cargo run --example check_screenshot -- shot.png [other.png [--edges]]`; exits 1 with a
//! message otherwise.

use crowdlab::draw::{Color, force_color, palette};

/// Pixels within this distance per channel count as the colour.
const TOLERANCE: i32 = 6;

/// How far apart (levels of 255) a channel of the two canvases may be: the GPU canvas blends a
/// layer's translucent and anti-aliased pixels into its picture first, rounding to 8 bits once
/// more than egui does.
const ROUNDING: u8 = 3;

/// The canvas: the bounding box of the canvas background colour, as x and y ranges.
fn canvas(image: &image::RgbaImage) -> (std::ops::RangeInclusive<u32>, std::ops::RangeInclusive<u32>) {
    let [br, bg, bb, _] = palette().background.0;
    let (mut x0, mut x1, mut y0, mut y1) = (u32::MAX, 0, u32::MAX, 0);
    for (x, y, p) in image.enumerate_pixels() {
        if p[0] == br && p[1] == bg && p[2] == bb {
            (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
        }
    }
    (x0..=x1, y0..=y1)
}

/// Pixels of `color` inside the canvas.
fn count(image: &image::RgbaImage, color: Color) -> usize {
    let (xs, ys) = canvas(image);
    let [r, g, b, _] = color.0;
    image
        .enumerate_pixels()
        .filter(|(x, y, _)| xs.contains(x) && ys.contains(y))
        .map(|(_, _, p)| p)
        .filter(|p| {
            (p[0] as i32 - r as i32).abs() <= TOLERANCE
                && (p[1] as i32 - g as i32).abs() <= TOLERANCE
                && (p[2] as i32 - b as i32).abs() <= TOLERANCE
        })
        .count()
}

/// How two screenshots' canvases differ.
struct Apart {
    /// Canvas pixels.
    pixels: usize,
    /// Pixels that differ at all.
    differ: usize,
    /// The most levels any channel of a pixel differs by.
    most: u8,
    /// Pixels with a channel more than [`FAR`] levels apart.
    far: usize,
    /// The mean difference of a channel, in levels.
    mean: f64,
}

/// Levels apart beyond which a pixel counts as drawn differently, not shaded differently.
const FAR: u8 = 64;

/// At most this share of a canvas drawn by the PNG export's renderer may be [`FAR`] apart from the
/// canvas drawn from egui's meshes: anti-aliased edges are shaded differently (a coverage ramp
/// against egui's feathering), but nothing may move. `dense_bottleneck_1000` at tick 20, at a
/// scale factor of 1 as CI runs, with its agents, arrows, walls and grid lines all drawn on the
/// CPU: 0.64 % of its canvas past [`FAR`] (mean 2.39 levels); the same canvas with a 400 × 300
/// patch moved by one pixel: 4.7 % (mean 5.31).
const EDGES_FAR_SHARE: f64 = 0.01;

/// The mean channel difference allowed between the two renderers' canvases, in levels.
const EDGES_MEAN: f64 = 3.0;

/// How the canvases of `a` and `b` differ (`None` when they are not the same rectangle).
fn canvas_difference(a: &image::RgbaImage, b: &image::RgbaImage) -> Option<Apart> {
    let (xs, ys) = canvas(a);
    if (xs.clone(), ys.clone()) != canvas(b) {
        return None;
    }
    let mut apart = Apart {
        pixels: 0,
        differ: 0,
        most: 0,
        far: 0,
        mean: 0.0,
    };
    let mut sum = 0u64;
    for (x, y) in ys.flat_map(|y| xs.clone().map(move |x| (x, y))) {
        let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
        let channels = (0..4).map(|c| p[c].abs_diff(q[c]));
        let most = channels.clone().max().unwrap_or(0);
        sum += channels.map(u64::from).sum::<u64>();
        apart.pixels += 1;
        apart.differ += usize::from(most > 0);
        apart.far += usize::from(most > FAR);
        apart.most = apart.most.max(most);
    }
    apart.mean = sum as f64 / (4 * apart.pixels.max(1)) as f64;
    Some(apart)
}

fn open(path: &str) -> Result<image::RgbaImage, String> {
    image::open(path)
        .map(|i| i.to_rgba8())
        .map_err(|e| format!("{path}: cannot read the screenshot: {e}"))
}

/// Checks the screenshot `path`, and, given `other`, that the two canvases are the same: but for
/// rounding, or, with `edges`, but for the shading of anti-aliased edges.
fn check(path: &str, other: Option<(&str, bool)>) -> Result<(), String> {
    let image = open(path)?;
    let pal = palette();
    let agents = count(&image, pal.agent) + count(&image, pal.agent_arrived) + count(&image, pal.agent_colliding);
    let behaviours: usize = ["arrive", "seek", "separation"]
        .iter()
        .map(|l| count(&image, force_color(l)))
        .sum();
    let forces = behaviours + count(&image, pal.steering);
    println!(
        "{path}: {}x{} pixels, {agents} agent-coloured, {forces} force-coloured",
        image.width(),
        image.height()
    );
    if agents < 50 || forces < 10 {
        return Err(format!(
            "{path}: expected agents (>= 50 pixels) and force arrows (>= 10 pixels) on the canvas"
        ));
    }
    let Some((other, edges)) = other else {
        return Ok(());
    };
    let Some(apart) = canvas_difference(&image, &open(other)?) else {
        return Err(format!("{path} and {other}: the canvases are not the same rectangle"));
    };
    let Apart {
        pixels,
        differ,
        most,
        far,
        mean,
    } = apart;
    let summary = format!(
        "{differ} of {pixels} canvas pixels apart, by at most {most} levels, {far} by more than {FAR}; mean {mean:.2} levels"
    );
    let same = if edges {
        far as f64 <= EDGES_FAR_SHARE * pixels as f64 && mean <= EDGES_MEAN
    } else {
        most <= ROUNDING
    };
    if !same {
        return Err(format!("{path} and {other} differ: {summary}"));
    }
    println!("{other}: the same canvas ({summary})");
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, other) = match args.as_slice() {
        [path] => (path, None),
        [path, other] => (path, Some((other.as_str(), false))),
        [path, other, flag] if flag == "--edges" => (path, Some((other.as_str(), true))),
        _ => {
            eprintln!("usage: check_screenshot SHOT.png [OTHER.png [--edges]]");
            return std::process::ExitCode::from(2);
        }
    };
    match check(path, other) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            std::process::ExitCode::from(1)
        }
    }
}
