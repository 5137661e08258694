//! Checks a window screenshot of the real-window CI step: it must show agent bodies (the agent
//! fill colour) and force arrows (per-behaviour force colours or the combined steering colour)
//! inside the canvas (the area of the canvas background colour, so the legend's swatches do not
//! count). Given a second screenshot of the same run painted another way (the canvas drawn from
//! its pictures on the GPU against egui's meshes), the two canvases must also be the same, but for
//! rounding: no channel of any pixel more than [`ROUNDING`] levels apart.
//! Usage: `cargo run --example check_screenshot -- shot.png [other.png]`; exits 1 with a message
//! otherwise.

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

/// How many canvas pixels differ between `a` and `b`, and by how many levels at most in any
/// channel (`None` when their canvases are not the same rectangle).
fn canvas_difference(a: &image::RgbaImage, b: &image::RgbaImage) -> Option<(usize, u8)> {
    let (xs, ys) = canvas(a);
    if (xs.clone(), ys.clone()) != canvas(b) {
        return None;
    }
    let pixels = ys.flat_map(|y| xs.clone().map(move |x| (x, y)));
    let apart = pixels.map(|(x, y)| {
        let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
        (0..4).map(|c| p[c].abs_diff(q[c])).max().unwrap_or(0)
    });
    Some(
        apart
            .filter(|&d| d > 0)
            .fold((0, 0), |(n, most), d| (n + 1, most.max(d))),
    )
}

fn open(path: &str) -> Result<image::RgbaImage, String> {
    image::open(path)
        .map(|i| i.to_rgba8())
        .map_err(|e| format!("{path}: cannot read the screenshot: {e}"))
}

fn check(path: &str, other: Option<&str>) -> Result<(), String> {
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
    if let Some(other) = other {
        match canvas_difference(&image, &open(other)?) {
            Some((0, _)) => println!("{other}: the same canvas, pixel for pixel"),
            Some((n, most)) if most <= ROUNDING => {
                println!("{other}: the same canvas but for rounding ({n} pixels apart by at most {most} levels)")
            }
            Some((n, most)) => {
                return Err(format!(
                    "{path} and {other}: {n} canvas pixels differ, by up to {most} levels"
                ));
            }
            None => return Err(format!("{path} and {other}: the canvases are not the same rectangle")),
        }
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, other) = match args.as_slice() {
        [path] => (path, None),
        [path, other] => (path, Some(other.as_str())),
        _ => {
            eprintln!("usage: check_screenshot SHOT.png [OTHER.png]");
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
