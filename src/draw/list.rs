//! The draw list: primitives in world coordinates (metres); widths and text sizes in pixels.

use glam::Vec2;

/// An sRGB colour with straight alpha.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Color(pub [u8; 4]);

impl Color {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color([r, g, b, 255])
    }

    /// The same colour with alpha `a`.
    pub const fn with_alpha(self, a: u8) -> Color {
        Color([self.0[0], self.0[1], self.0[2], a])
    }

    /// Whether nothing shows through the colour (alpha 255).
    pub const fn is_opaque(self) -> bool {
        self.0[3] == u8::MAX
    }
}

/// A line style: width in screen pixels and colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// Width in pixels (independent of zoom).
    pub width: f32,
    /// Colour.
    pub color: Color,
}

/// One drawing primitive.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A disc of world `radius`.
    Circle {
        center: Vec2,
        radius: f32,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    },
    /// Connected line segments, optionally closed.
    Polyline {
        points: Vec<Vec2>,
        closed: bool,
        stroke: Stroke,
    },
    /// A straight line from `from` to `to` (a heading, a wall): a polyline of two points that
    /// needs no list of them.
    Segment { from: Vec2, to: Vec2, stroke: Stroke },
    /// A filled simple polygon with an optional outline.
    Polygon {
        points: Vec<Vec2>,
        fill: Color,
        stroke: Option<Stroke>,
    },
    /// A line from `from` to `to` with an arrowhead of `head` pixels at `to`.
    Arrow {
        from: Vec2,
        to: Vec2,
        stroke: Stroke,
        head: f32,
    },
    /// Text centred at `position`, `size` pixels high.
    Label {
        position: Vec2,
        text: String,
        color: Color,
        size: f32,
    },
}

/// An ordered list of shapes (later shapes are drawn on top).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawList {
    /// The shapes in drawing order.
    pub shapes: Vec<Shape>,
}

impl DrawList {
    /// Appends a shape.
    pub fn push(&mut self, shape: Shape) {
        self.shapes.push(shape);
    }
}
