//! Checks a window screenshot of the real-window CI step: it must show agent bodies (the agent
//! fill colour) and force arrows (per-behaviour force colours or the combined steering colour) inside the canvas (the area of the
//! canvas background colour, so the legend's swatches do not count).
//! Usage: `cargo run --example check_screenshot -- shot.png`; exits 1 with a message otherwise.

use crowdlab::draw::{Color, force_color, palette};

/// Pixels within this distance per channel count as the colour.
const TOLERANCE: i32 = 6;

/// Pixels of `color` inside the canvas: the bounding box of the canvas background colour.
fn count(image: &image::RgbaImage, color: Color) -> usize {
    let [br, bg, bb, _] = palette().background.0;
    let canvas: Vec<(u32, u32)> = image
        .enumerate_pixels()
        .filter(|(_, _, p)| p[0] == br && p[1] == bg && p[2] == bb)
        .map(|(x, y, _)| (x, y))
        .collect();
    let (x0, x1) = canvas
        .iter()
        .fold((u32::MAX, 0), |(lo, hi), &(x, _)| (lo.min(x), hi.max(x)));
    let (y0, y1) = canvas
        .iter()
        .fold((u32::MAX, 0), |(lo, hi), &(_, y)| (lo.min(y), hi.max(y)));
    let [r, g, b, _] = color.0;
    image
        .enumerate_pixels()
        .filter(|(x, y, _)| (x0..=x1).contains(x) && (y0..=y1).contains(y))
        .map(|(_, _, p)| p)
        .filter(|p| {
            (p[0] as i32 - r as i32).abs() <= TOLERANCE
                && (p[1] as i32 - g as i32).abs() <= TOLERANCE
                && (p[2] as i32 - b as i32).abs() <= TOLERANCE
        })
        .count()
}

fn main() -> std::process::ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: check_screenshot SHOT.png");
        return std::process::ExitCode::from(2);
    };
    let image = match image::open(&path) {
        Ok(i) => i.to_rgba8(),
        Err(e) => {
            eprintln!("{path}: cannot read the screenshot: {e}");
            return std::process::ExitCode::from(1);
        }
    };
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
        eprintln!("{path}: expected agents (>= 50 pixels) and force arrows (>= 10 pixels) on the canvas");
        return std::process::ExitCode::from(1);
    }
    std::process::ExitCode::SUCCESS
}
