//! Where the PNG export looks: the whole scene, a fixed world rectangle, or a window following
//! one agent.

use anyhow::{Result, bail};
use glam::Vec2;

use crate::draw::View;
use crate::record::FrameSource;
use crate::scene::Bounds;

/// The camera of a PNG export.
#[derive(Clone, Debug, PartialEq)]
pub enum Camera {
    /// Fit the scene bounds (as the canvas does on open).
    FitScene,
    /// Fit this world rectangle.
    Rect(Bounds),
    /// Centre on agent `agent` every frame, showing `width` metres across. Before the agent
    /// appears the camera waits at its start position; after it leaves it stays where it was last.
    Follow { agent: u32, width: f32 },
}

/// The view of every frame of a camera, computed once before rendering.
pub enum Views {
    /// The same view for every frame.
    Fixed(View),
    /// One view per selected tick, in the order of the ticks.
    PerTick(Vec<View>),
}

impl Views {
    /// The view of the `i`-th selected tick.
    pub fn get(&self, i: usize) -> View {
        match self {
            Views::Fixed(v) => *v,
            Views::PerTick(views) => views[i],
        }
    }
}

/// The views of `camera` for the selected `ticks` of `source` at `size` pixels.
pub fn camera_views(camera: &Camera, source: &dyn FrameSource, ticks: &[u64], size: Vec2) -> Result<Views> {
    let scene = &source.header().scene;
    match camera {
        Camera::FitScene => Ok(Views::Fixed(View::fit(scene.bounds, size))),
        Camera::Rect(rect) => {
            let extent = rect.size();
            if !(extent.x > 0.0 && extent.y > 0.0 && extent.is_finite()) {
                bail!(
                    "camera rectangle ({}, {})–({}, {}) must have a positive width and height",
                    rect.min.x,
                    rect.min.y,
                    rect.max.x,
                    rect.max.y
                );
            }
            Ok(Views::Fixed(View::fill(*rect, size)))
        }
        Camera::Follow { agent, width } => {
            if !(width.is_finite() && *width > 0.0) {
                bail!("follow camera width {width} m must be greater than 0");
            }
            let Some(start) = source.header().agents.agent(*agent) else {
                bail!("cannot follow agent {agent}: the recording has no agent with that id");
            };
            let scale = size.x / width;
            let mut center = start.position;
            let mut views = Vec::with_capacity(ticks.len());
            for &tick in ticks {
                if let Some(a) = source.frame(tick)?.agent(*agent) {
                    center = a.position;
                }
                views.push(View {
                    center,
                    scale,
                    origin: Vec2::ZERO,
                    size,
                });
            }
            Ok(Views::PerTick(views))
        }
    }
}
