//! PNG sequence export of a known hand-made recording: golden images (within a small pixel
//! tolerance), cameras, backgrounds, labels, numbering and cancel.

use crate::common;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use common::{golden, known_recording, update_golden};
use crowdlab::draw::{Color, Overlays, palette};
use crowdlab::export::{Camera, Numbering, PngOptions, TickSelection, export_png_sequence};
use crowdlab::scene::Bounds;
use glam::Vec2;
use image::RgbaImage;

fn options(tick: u64) -> PngOptions {
    PngOptions {
        width: 320,
        height: 180,
        ticks: TickSelection {
            from: Some(tick),
            to: Some(tick),
            every: 1,
        },
        ..PngOptions::default()
    }
}

/// Exports with `options` into a temporary folder and returns the images in order.
fn export(options: &PngOptions) -> Vec<(String, RgbaImage)> {
    let dir = tempfile::tempdir().unwrap();
    let files = export_png_sequence(
        &known_recording(),
        dir.path(),
        options,
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .unwrap();
    files
        .iter()
        .map(|f| {
            (
                f.file_name().unwrap().to_string_lossy().into_owned(),
                image::open(f).unwrap().to_rgba8(),
            )
        })
        .collect()
}

/// Pixels whose largest channel difference exceeds 40, and the mean channel difference.
fn difference(a: &RgbaImage, b: &RgbaImage) -> (usize, f64) {
    assert_eq!(a.dimensions(), b.dimensions());
    let mut off = 0;
    let mut sum = 0u64;
    for (p, q) in a.pixels().zip(b.pixels()) {
        let d = p.0.iter().zip(q.0).map(|(x, y)| x.abs_diff(y)).max().unwrap();
        off += usize::from(d > 40);
        sum += p.0.iter().zip(q.0).map(|(x, y)| x.abs_diff(y) as u64).sum::<u64>();
    }
    (off, sum as f64 / (a.len() as f64))
}

fn check_golden(name: &str, image: &RgbaImage) {
    let path = golden(name);
    if update_golden() {
        image.save(&path).unwrap();
    }
    let expected = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8();
    let (off, mean) = difference(image, &expected);
    // Anti-aliasing may differ by a shade between platforms; shapes may not move.
    assert!(
        off <= image.len() / 4 / 500 && mean < 1.0,
        "{name}: {off} pixels differ, mean channel difference {mean:.3} (CROWDLAB_UPDATE_GOLDEN=1 rewrites it)"
    );
}

fn pixel(image: &RgbaImage, p: (u32, u32)) -> [u8; 4] {
    image.get_pixel(p.0, p.1).0
}

#[test]
fn fit_scene_with_forces_and_labels_matches_golden() {
    let mut o = options(3);
    o.overlays.labels = true;
    let images = export(&o);
    assert_eq!(images[0].0, "frame_000003.png");
    check_golden("known_recording_fit_labels.png", &images[0].1);
}

#[test]
fn follow_camera_on_transparent_background_matches_golden() {
    let o = PngOptions {
        camera: Camera::Follow { agent: 1, width: 4.0 },
        background: None,
        overlays: Overlays {
            velocity: true,
            ..Overlays::default()
        },
        ..options(4)
    };
    let images = export(&o);
    check_golden("known_recording_follow_transparent.png", &images[0].1);
}

#[test]
fn backgrounds_are_opaque_coloured_or_transparent() {
    let coloured = PngOptions {
        background: Some(Color::rgb(10, 20, 30)),
        ..options(0)
    };
    assert_eq!(pixel(&export(&coloured)[0].1, (1, 1)), [10, 20, 30, 255]);
    let transparent = PngOptions {
        background: None,
        ..options(0)
    };
    assert_eq!(pixel(&export(&transparent)[0].1, (1, 1))[3], 0);
    let [r, g, b, _] = palette().background.0;
    assert_eq!(
        pixel(&export(&options(0))[0].1, (1, 1)),
        [r, g, b, 255],
        "the canvas background by default"
    );
}

#[test]
fn follow_camera_keeps_the_agent_centred_and_waits_before_it_appears() {
    let o = PngOptions {
        camera: Camera::Follow { agent: 1, width: 4.0 },
        overlays: Overlays {
            forces: false,
            steering: false,
            ..Overlays::default()
        },
        ticks: TickSelection::default(),
        ..options(0)
    };
    let agent = palette().agent.0;
    for (name, image) in export(&o) {
        // Ticks 0–1: not yet present, the camera waits at its start (4, 1) — empty there;
        // from tick 2 on the runner's body fills the centre.
        let c = pixel(&image, (160, 96)); // below the heading tick
        let present = !name.ends_with("000000.png") && !name.ends_with("000001.png");
        assert_eq!(c == agent, present, "{name}: centre pixel {c:?}");
    }
}

#[test]
fn fixed_rectangle_camera_shows_exactly_that_rectangle() {
    // A 2 × 2 m window on the arrived agent 2 at (2, -2): its body fills the middle.
    let o = PngOptions {
        camera: Camera::Rect(Bounds {
            min: Vec2::new(1.0, -3.0),
            max: Vec2::new(3.0, -1.0),
        }),
        width: 100,
        height: 100,
        ..options(1)
    };
    let image = &export(&o)[0].1;
    assert_eq!(
        pixel(image, (50, 56)),
        palette().agent_arrived.0,
        "below the heading tick"
    );
    // 50 px per metre: the 0.3 m body spans 15 px from the centre, not 20.
    assert_eq!(pixel(image, (50, 50 + 12)), palette().agent_arrived.0);
    assert_ne!(pixel(image, (50, 50 + 20)), palette().agent_arrived.0);
}

#[test]
fn labels_are_drawn_as_text() {
    let camera = Camera::Rect(Bounds {
        min: Vec2::new(1.0, -3.0),
        max: Vec2::new(3.0, -1.0),
    });
    let plain = PngOptions {
        camera: camera.clone(),
        width: 100,
        height: 100,
        ..options(1)
    };
    let labelled = PngOptions {
        overlays: Overlays {
            labels: true,
            ..Overlays::default()
        },
        ..plain.clone()
    };
    let (a, b) = (&export(&plain)[0].1, &export(&labelled)[0].1);
    let (off, _) = difference(a, b);
    assert!(off > 5, "the label changes {off} pixels");
    // Only around the agent's centre.
    for (x, y, p) in b.enumerate_pixels() {
        if p != a.get_pixel(x, y) {
            assert!(
                x.abs_diff(50) < 12 && y.abs_diff(50) < 10,
                "changed pixel at ({x}, {y})"
            );
        }
    }
}

#[test]
fn frames_are_zero_padded_and_numbered_by_tick_or_sequence() {
    let by_tick = PngOptions {
        ticks: TickSelection {
            from: None,
            to: None,
            every: 2,
        },
        ..options(0)
    };
    let names: Vec<String> = export(&by_tick).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["frame_000000.png", "frame_000002.png", "frame_000004.png"]);
    let sequence = PngOptions {
        numbering: Numbering::Sequence,
        prefix: "shot-".into(),
        ticks: TickSelection {
            from: Some(1),
            to: None,
            every: 2,
        },
        ..by_tick
    };
    let names: Vec<String> = export(&sequence).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["shot-000000.png", "shot-000001.png", "shot-000002.png"]);
}

#[test]
fn cancel_stops_the_export_and_progress_counts_frames() {
    let dir = tempfile::tempdir().unwrap();
    let cancel = AtomicBool::new(true);
    let all = PngOptions {
        ticks: TickSelection::default(),
        ..options(0)
    };
    let files = export_png_sequence(&known_recording(), dir.path(), &all, &|_, _| {}, &cancel).unwrap();
    assert!(files.is_empty());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let calls = std::sync::Mutex::new(Vec::new());
    let files = export_png_sequence(
        &known_recording(),
        dir.path(),
        &all,
        &|done, total| calls.lock().unwrap().push((done, total)),
        &AtomicBool::new(false),
    )
    .unwrap();
    assert_eq!(files.len(), 6);
    let mut calls = calls.into_inner().unwrap();
    calls.sort();
    assert_eq!(calls, (1..=6).map(|d| (d, 6)).collect::<Vec<_>>());
    assert!(files.iter().all(|f| Path::new(f).is_file()));
}

#[test]
fn bad_cameras_are_refused() {
    let follow_missing = PngOptions {
        camera: Camera::Follow { agent: 99, width: 4.0 },
        ..options(0)
    };
    let dir = tempfile::tempdir().unwrap();
    let e = export_png_sequence(
        &known_recording(),
        dir.path(),
        &follow_missing,
        &|_, _| {},
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(e.to_string().contains("agent 99"), "{e}");
}
