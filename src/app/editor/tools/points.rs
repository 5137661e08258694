//! The click-the-points tools: paths and polygon obstacles. Each click adds a point; a
//! double-click or Enter finishes (the double-click's second click adds no point); Esc cancels.

use super::{Edit, Gesture, Pending};
use crate::app::editor::selection::{Item, Selection, unique_name};
use crate::scene::{Obstacle, Path, Scene};

/// Corridor width of a new path, metres.
const DEFAULT_WIDTH: f32 = 1.0;

/// What the clicked points become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An open path (at least 2 points).
    Path,
    /// A polygon obstacle (at least 3 vertices).
    Polygon,
}

impl Kind {
    fn min_points(self) -> usize {
        match self {
            Kind::Path => 2,
            Kind::Polygon => 3,
        }
    }
}

/// Handles one frame of a points tool.
pub fn handle(kind: Kind, pending: &mut Pending, g: &Gesture, scene: &Scene, selection: &mut Selection) -> Edit {
    if g.double_clicked {
        return finish(kind, pending, scene, selection);
    }
    if g.clicked
        && let Some(at) = g.at
    {
        match pending {
            Pending::Points(points) => points.push(at),
            _ => *pending = Pending::Points(vec![at]),
        }
    }
    None
}

/// Turns the clicked points into the object, when there are enough of them.
pub fn finish(kind: Kind, pending: &mut Pending, scene: &Scene, selection: &mut Selection) -> Edit {
    let Pending::Points(points) = std::mem::take(pending) else {
        return None;
    };
    let mut points = points;
    points.dedup();
    if points.len() < kind.min_points() {
        *pending = Pending::Points(points);
        return None;
    }
    let mut edited = scene.clone();
    match kind {
        Kind::Path => {
            selection.set(Item::Path(edited.paths.len()));
            edited.paths.push(Path {
                id: unique_name("path-1", |n| scene.path(n).is_some()),
                points,
                width: DEFAULT_WIDTH,
                closed: false,
            });
        }
        Kind::Polygon => {
            selection.set(Item::Obstacle(edited.obstacles.len()));
            edited.obstacles.push(Obstacle::Polygon { vertices: points });
        }
    }
    Some(edited)
}
