//! Conversions between world space and an agent's local space (x along the heading, y along the
//! side vector, the heading turned +90°), Buckland's `PointToLocalSpace` / `PointToWorldSpace`.

use glam::Vec2;

/// An agent's local frame: origin, heading (local +x) and side (local +y).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalFrame {
    /// The frame's origin in world space.
    pub origin: Vec2,
    /// Unit heading, the local x-axis.
    pub heading: Vec2,
    /// Unit side vector (heading rotated +90°), the local y-axis.
    pub side: Vec2,
}

impl LocalFrame {
    /// The frame at `origin` facing `heading` (unit length).
    pub fn new(origin: Vec2, heading: Vec2) -> LocalFrame {
        LocalFrame {
            origin,
            heading,
            side: heading.perp(),
        }
    }

    /// A world-space point expressed in this frame.
    pub fn point_to_local(&self, point: Vec2) -> Vec2 {
        let d = point - self.origin;
        Vec2::new(d.dot(self.heading), d.dot(self.side))
    }

    /// A local point expressed in world space.
    pub fn point_to_world(&self, local: Vec2) -> Vec2 {
        self.origin + self.vector_to_world(local)
    }

    /// A local direction expressed in world space (no translation).
    pub fn vector_to_world(&self, local: Vec2) -> Vec2 {
        self.heading * local.x + self.side * local.y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_through_a_rotated_frame() {
        let frame = LocalFrame::new(Vec2::new(100.0, 100.0), Vec2::Y);
        let local = frame.point_to_local(Vec2::new(90.0, 120.0));
        assert!((local - Vec2::new(20.0, 10.0)).length() < 1e-5);
        assert!((frame.point_to_world(local) - Vec2::new(90.0, 120.0)).length() < 1e-5);
    }
}
