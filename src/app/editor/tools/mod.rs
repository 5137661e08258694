//! The editing tools: one file per tool, each turning pointer gestures on the canvas into scene
//! edits. A tool's unfinished shape (a path being clicked, a circle being dragged) is its
//! [`Pending`] state, drawn as a preview.

mod agent;
mod area;
mod circle;
mod points;
mod select;
mod target;
mod wall;

use eframe::egui::Key;
use glam::Vec2;

use super::areas::AreaKind;
use super::selection::{Selection, Vertex};
use crate::draw::{Color, Shape, Stroke};
use crate::scene::Scene;

/// A canvas tool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Select (click, shift-click, rubber band), move, edit vertices.
    #[default]
    Select,
    /// Add an agent: click = position, drag = heading.
    Agent,
    /// Add a target: click = position, drag = arrival radius.
    Target,
    /// Add a path: click points, double-click or Enter to finish.
    Path,
    /// Add a circular obstacle by dragging its radius.
    Circle,
    /// Add a polygon obstacle by clicking its vertices, double-click or Enter to finish.
    Polygon,
    /// Add a wall by dragging from one end to the other.
    Wall,
    /// Add a moving circle by dragging its velocity (metres of drag = m/s).
    MovingCircle,
    /// Add a navigation region by dragging a rectangle.
    Region,
    /// Add a portal between two regions by dragging along their shared edge.
    Portal,
    /// Add an entry/exit gate by dragging along the world's edge.
    Gate,
    /// Add a spawn group by dragging the rectangle its agents appear in.
    Spawn,
    /// Add a measurement area by dragging its rectangle.
    MeasureArea,
    /// Add a measurement line by dragging from one end to the other.
    MeasureLine,
}

impl Tool {
    /// Every tool in toolbar order.
    pub const ALL: [Tool; 14] = [
        Tool::Select,
        Tool::Agent,
        Tool::Target,
        Tool::Path,
        Tool::Circle,
        Tool::Polygon,
        Tool::Wall,
        Tool::MovingCircle,
        Tool::Region,
        Tool::Portal,
        Tool::Gate,
        Tool::Spawn,
        Tool::MeasureArea,
        Tool::MeasureLine,
    ];

    /// The toolbar button's label.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Select => "Select",
            Tool::Agent => "Add agent",
            Tool::Target => "Add target",
            Tool::Path => "Add path",
            Tool::Circle => "Circle",
            Tool::Polygon => "Polygon",
            Tool::Wall => "Wall",
            Tool::MovingCircle => "Moving circle",
            Tool::Region => "Region",
            Tool::Portal => "Portal",
            Tool::Gate => "Gate",
            Tool::Spawn => "Spawn group",
            Tool::MeasureArea => "Measurement area",
            Tool::MeasureLine => "Measurement line",
        }
    }

    /// The key that picks the tool.
    pub fn key(self) -> Key {
        match self {
            Tool::Select => Key::V,
            Tool::Agent => Key::A,
            Tool::Target => Key::T,
            Tool::Path => Key::P,
            Tool::Circle => Key::C,
            Tool::Polygon => Key::Y,
            Tool::Wall => Key::W,
            Tool::MovingCircle => Key::M,
            Tool::Region => Key::R,
            Tool::Portal => Key::O,
            Tool::Gate => Key::E,
            Tool::Spawn => Key::S,
            Tool::MeasureArea => Key::D,
            Tool::MeasureLine => Key::L,
        }
    }

    /// The tooltip: what the tool does and its shortcut.
    pub fn help(self) -> String {
        let what = match self {
            Tool::Select => {
                "Select: click, Shift+click to add, drag on empty space for a rubber band; drag to move, \
                 drag a vertex of a selected path/polygon/wall to reshape it"
            }
            Tool::Agent => "Add an agent: click to place it, drag to set its heading",
            Tool::Target => "Add a target: click to place it, drag to set its arrival radius",
            Tool::Path => "Add a path: click its points, double-click or Enter to finish, Esc to cancel",
            Tool::Circle => "Add a circular obstacle: drag from its centre to set the radius",
            Tool::Polygon => "Add a polygon obstacle: click its vertices, double-click or Enter to finish",
            Tool::Wall => "Add a wall: drag from one end to the other",
            Tool::MovingCircle => "Add a moving circle: drag from its centre; the drag is its velocity (1 m = 1 m/s)",
            Tool::Region => "Add a navigation region: drag its rectangle",
            Tool::Portal => "Add a portal between two regions: drag along their shared edge",
            Tool::Gate => "Add an entry/exit gate: drag along the world's edge",
            Tool::Spawn => {
                "Add a spawn group: drag the rectangle its agents appear in (count, profile and goal in the inspector)"
            }
            Tool::MeasureArea => "Add a measurement area (density and speed over time): drag its rectangle",
            Tool::MeasureLine => "Add a measurement line (crossings and flow): drag from one end to the other",
        };
        format!("{what} ({})", self.key().name())
    }
}

/// What a tool is in the middle of.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Pending {
    /// Nothing.
    #[default]
    Idle,
    /// A drag from `from` to `to` (heading, radius, wall, velocity, rubber band).
    Drag { from: Vec2, to: Vec2 },
    /// Points clicked so far (path, polygon).
    Points(Vec<Vec2>),
    /// Moving the selection: the pointer's last world position.
    Move { last: Vec2 },
    /// Moving one vertex of a selected object.
    Vertex(Vertex),
}

/// The pointer on the canvas this frame, in world metres.
#[derive(Clone, Copy, Debug, Default)]
pub struct Gesture {
    /// Where the pointer is (snapped to the grid when snapping is on).
    pub at: Option<Vec2>,
    /// Where the primary button went down (snapped likewise).
    pub origin: Option<Vec2>,
    /// A primary drag began this frame.
    pub drag_started: bool,
    /// A primary drag is going on.
    pub dragging: bool,
    /// A primary drag ended this frame.
    pub drag_stopped: bool,
    /// A primary click (press and release without moving).
    pub clicked: bool,
    /// The second click of a double click.
    pub double_clicked: bool,
    /// Enter was pressed (finishes paths and polygons).
    pub finish: bool,
    /// Shift was held.
    pub shift: bool,
    /// Hit distance in metres (a few pixels).
    pub tolerance: f32,
    /// The unsnapped pointer position, for hit tests.
    pub raw: Option<Vec2>,
    /// The unsnapped press position, for hit tests.
    pub raw_origin: Option<Vec2>,
}

/// The result of a gesture: an edited scene (if any) to commit.
pub type Edit = Option<Scene>;

/// Feeds one frame's gesture to `tool`.
pub fn handle(tool: Tool, pending: &mut Pending, g: &Gesture, scene: &Scene, selection: &mut Selection) -> Edit {
    match tool {
        Tool::Select => select::handle(pending, g, scene, selection),
        Tool::Agent => agent::handle(pending, g, scene, selection),
        Tool::Target => target::handle(pending, g, scene, selection),
        Tool::Path => points::handle(points::Kind::Path, pending, g, scene, selection),
        Tool::Polygon => points::handle(points::Kind::Polygon, pending, g, scene, selection),
        Tool::Circle => circle::handle(circle::Kind::Still, pending, g, scene, selection),
        Tool::MovingCircle => circle::handle(circle::Kind::Moving, pending, g, scene, selection),
        Tool::Wall => wall::handle(pending, g, scene, selection),
        Tool::Region => area::handle(AreaKind::Region, pending, g, scene, selection),
        Tool::Portal => area::handle(AreaKind::Portal, pending, g, scene, selection),
        Tool::Gate => area::handle(AreaKind::Gate, pending, g, scene, selection),
        Tool::Spawn => area::handle(AreaKind::Spawn, pending, g, scene, selection),
        Tool::MeasureArea => area::handle(AreaKind::MeasureArea, pending, g, scene, selection),
        Tool::MeasureLine => area::handle(AreaKind::MeasureLine, pending, g, scene, selection),
    }
}

/// Finishes a path or polygon being clicked (Enter), if the tool has one.
pub fn finish(tool: Tool, pending: &mut Pending, scene: &Scene, selection: &mut Selection) -> Edit {
    match tool {
        Tool::Path => points::finish(points::Kind::Path, pending, scene, selection),
        Tool::Polygon => points::finish(points::Kind::Polygon, pending, scene, selection),
        _ => None,
    }
}

/// World shapes previewing the unfinished edit; `hover` is the pointer position.
pub fn preview(tool: Tool, pending: &Pending, hover: Option<Vec2>) -> Vec<Shape> {
    let stroke = Stroke {
        width: 1.5,
        color: PREVIEW,
    };
    match pending {
        Pending::Drag { from, to } if matches!(tool, Tool::Select | Tool::Region | Tool::Spawn | Tool::MeasureArea) => {
            let (lo, hi) = (from.min(*to), from.max(*to));
            vec![Shape::Polyline {
                points: vec![lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)],
                closed: true,
                stroke,
            }]
        }
        Pending::Drag { from, to } => match tool {
            Tool::Circle | Tool::Target => vec![Shape::Circle {
                center: *from,
                radius: from.distance(*to),
                fill: None,
                stroke: Some(stroke),
            }],
            _ => vec![Shape::Arrow {
                from: *from,
                to: *to,
                stroke,
                head: 10.0,
            }],
        },
        Pending::Points(points) => {
            let mut line = points.clone();
            line.extend(hover);
            vec![Shape::Polyline {
                points: line,
                closed: tool == Tool::Polygon,
                stroke,
            }]
        }
        _ => Vec::new(),
    }
}

/// Colour of previews and selection highlights.
pub const PREVIEW: Color = Color([255, 170, 0, 255]);

/// The direction from `from` to `to` in degrees counter-clockwise from +x (0 for no drag).
fn heading_deg(from: Vec2, to: Vec2) -> f32 {
    let d = to - from;
    if d.length() < 1e-6 {
        0.0
    } else {
        d.y.atan2(d.x).to_degrees()
    }
}

/// Tracks a drag gesture in `pending`; returns `(from, to)` when the drag ended this frame.
fn track_drag(pending: &mut Pending, g: &Gesture) -> Option<(Vec2, Vec2)> {
    if g.drag_started
        && let (Some(from), Some(to)) = (g.origin, g.at)
    {
        *pending = Pending::Drag { from, to };
    }
    if let (Pending::Drag { to, .. }, Some(at)) = (&mut *pending, g.at) {
        *to = at;
    }
    if g.drag_stopped
        && let Pending::Drag { from, to } = std::mem::take(pending)
    {
        return Some((from, to));
    }
    None
}
