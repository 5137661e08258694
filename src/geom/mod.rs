//! 2-D geometry shared by the scene validator, the simulator and the renderers:
//! segments, polygons, circles, the distance / containment queries between them and an index
//! of boxes for finding the shapes near a point without scanning them all.
//! All coordinates are metres in world space (x right, y up), as `glam::Vec2`.

mod box_index;
mod disc_cast;
mod polygon;
mod ray;
mod segment;

pub use box_index::BoxIndex;
pub use disc_cast::disc_segment;
pub use polygon::{point_in_polygon, polygon_area, polygon_contains_circle_overlap, polygon_edges};
pub use ray::{RayHit, nearer, ray_circle, ray_segment};
pub use segment::{closest_point_on_segment, distance_to_segment, segment_crossing, side_of};

pub use glam::Vec2;

/// Returns `v` scaled down so its length is at most `max` (direction kept), Buckland's `Truncate`.
pub fn truncate(v: Vec2, max: f32) -> Vec2 {
    let len_sq = v.length_squared();
    if len_sq > max * max && len_sq > 0.0 {
        v * (max / len_sq.sqrt())
    } else {
        v
    }
}

/// True when both components are finite (not NaN, not infinite).
pub fn is_finite(v: Vec2) -> bool {
    v.x.is_finite() && v.y.is_finite()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncate_keeps_direction_and_caps_length() {
        assert_eq!(truncate(Vec2::new(2.5, 0.0), 2.0), Vec2::new(2.0, 0.0));
        assert_eq!(truncate(Vec2::new(1.0, 0.0), 2.0), Vec2::new(1.0, 0.0));
        let t = truncate(Vec2::new(3.0, 4.0), 1.0);
        assert!((t - Vec2::new(0.6, 0.8)).length() < 1e-6);
        assert_eq!(truncate(Vec2::ZERO, 0.0), Vec2::ZERO);
    }
}
