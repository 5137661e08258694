//! Neighbour tagging (Buckland §2.13, §4.3): another agent is a neighbour when its centre lies
//! within the view radius plus its own body radius (squared distances), and, optionally, inside
//! a field of view centred on the heading (the text's 270° example). An agent never tags itself;
//! the flock lanes mask the agent's own place out.

#[cfg(test)]
use glam::Vec2;

/// Cosine of half the field of view, or `None` when the view is all-round (≥ 360°).
pub fn cos_half_fov(fov_deg: f32) -> Option<f32> {
    (fov_deg < 360.0).then(|| (fov_deg.to_radians() * 0.5).cos())
}

/// True when an agent at `p` facing `heading` tags the other agent at `other` with body radius
/// `other_radius`: |other − p|² < (view_radius + other_radius)² and, with a field of view, the
/// direction to it is within the half-angle of the heading (a coincident agent counts as seen).
/// The one-by-one definition the neighbour grid's flock lanes ([`super::FlockLanes::sums`]) are
/// tested against.
#[cfg(test)]
pub fn is_tagged(
    p: Vec2,
    heading: Vec2,
    other: Vec2,
    other_radius: f32,
    view_radius: f32,
    cos_half_fov: Option<f32>,
) -> bool {
    let to = other - p;
    let reach = view_radius + other_radius;
    let d_sq = to.length_squared();
    if d_sq >= reach * reach {
        return false;
    }
    match cos_half_fov {
        None => true,
        Some(c) => d_sq == 0.0 || heading.dot(to) >= c * d_sq.sqrt(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckland_tagging_radius_example() {
        // §5.2: radius 50; another entity at distance 55 with BRadius 10 is tagged (3025 < 3600), at 61 not.
        assert!(is_tagged(Vec2::ZERO, Vec2::X, Vec2::new(55.0, 0.0), 10.0, 50.0, None));
        assert!(!is_tagged(Vec2::ZERO, Vec2::X, Vec2::new(61.0, 0.0), 10.0, 50.0, None));
    }

    #[test]
    fn field_of_view_hides_agents_behind() {
        let fov = cos_half_fov(270.0);
        assert!(is_tagged(Vec2::ZERO, Vec2::X, Vec2::new(0.0, 5.0), 0.0, 10.0, fov));
        assert!(is_tagged(Vec2::ZERO, Vec2::X, Vec2::new(-5.0, 5.1), 0.0, 10.0, fov));
        assert!(!is_tagged(Vec2::ZERO, Vec2::X, Vec2::new(-5.0, 0.5), 0.0, 10.0, fov));
        assert_eq!(cos_half_fov(360.0), None);
    }
}
