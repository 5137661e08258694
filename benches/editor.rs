//! Editor frame benchmark: one full frame of the editor on a 5,000-agent scene — building
//! every panel and the canvas (draw list, grid, selection marks) and tessellating the shapes
//! into meshes, as eframe does before handing them to the GPU. Target ≤ 6 ms.
//!
//! Two cases: the scene at rest, whose canvas meshes the app keeps from frame to frame, and
//! the view zoomed in and out by a step every frame (the pointer over the canvas, a pinch
//! each frame), so that every frame tessellates the whole draw list again.

use criterion::{Criterion, criterion_group, criterion_main};
use crowdlab::app::CrowdlabApp;
use crowdlab::scene::{Agent, Bounds, Goal, Scene, Target};
use eframe::egui::{Context, Event, Pos2, RawInput, Rect, Vec2 as EguiVec2};
use glam::Vec2;

/// 5,000 agents on a lattice 1 m apart, a tenth of them selected by a rubber band would be
/// typical; every agent heads for one of four targets.
fn crowd_scene(n: usize) -> Scene {
    let mut scene = Scene::empty();
    let side = (n as f32).sqrt().ceil() as usize;
    let half = side as f32 * 0.5;
    scene.bounds = Bounds {
        min: Vec2::splat(-half - 5.0),
        max: Vec2::splat(half + 5.0),
    };
    for (k, corner) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .into_iter()
        .enumerate()
    {
        scene.targets.push(Target {
            id: format!("corner-{k}"),
            position: Vec2::new(corner.0, corner.1) * (half + 3.0),
            radius: 1.0,
        });
    }
    for i in 0..n {
        scene.agents.push(Agent {
            id: i as u32,
            profile: "walker".into(),
            position: Vec2::new((i % side) as f32 - half, (i / side) as f32 - half),
            heading_deg: 0.0,
            goal: Goal::Target(format!("corner-{}", i % 4)),
            start_time: 0.0,
            end_time: None,
            agent_type: None,
        });
    }
    scene
}

fn input(time: f64, events: Vec<Event>) -> RawInput {
    RawInput {
        screen_rect: Some(Rect::from_min_size(Pos2::ZERO, EguiVec2::new(1600.0, 1000.0))),
        time: Some(time),
        events,
        ..Default::default()
    }
}

fn editor_frame(c: &mut Criterion) {
    let mut app = CrowdlabApp::new(crowd_scene(5_000));
    let ctx = Context::default();
    let mut time = 0.0;
    let mut frames = 0u64;
    let mut frame = |app: &mut CrowdlabApp, zooming: bool| {
        time += 1.0 / 60.0;
        frames += 1;
        // Over the middle of the window (the canvas), in and out by turns.
        let events = match zooming {
            true => vec![
                Event::PointerMoved(Pos2::new(700.0, 500.0)),
                Event::Zoom(if frames.is_multiple_of(2) { 1.02 } else { 1.0 / 1.02 }),
            ],
            false => Vec::new(),
        };
        let output = ctx.run_ui(input(time, events), |ui| app.show(ui));
        ctx.tessellate(output.shapes, output.pixels_per_point)
    };
    for _ in 0..3 {
        frame(&mut app, false);
    }
    assert!(app.is_editing());
    c.bench_function("editor frame, 5000 agents at rest (build; canvas meshes kept)", |b| {
        b.iter(|| frame(&mut app, false).len())
    });
    c.bench_function("editor frame, 5000 agents, zooming (build + tessellate)", |b| {
        b.iter(|| frame(&mut app, true).len())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = editor_frame
}
criterion_main!(benches);
