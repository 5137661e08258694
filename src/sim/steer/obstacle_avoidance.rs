//! Obstacle avoidance (Buckland §2.7): keep a detection box ahead of the agent free of circles.
//!
//! The box is `L = min_length · (1 + speed / max_speed)` long and the agent's radius wide on each
//! side (the prose says "width = bounding radius", the algorithm uses it as the half-width, §8.4;
//! the half-width is used here). Circles in range are taken to local space; those behind (x < 0)
//! or farther sideways than the expanded radius R = r_obstacle + r_agent are skipped; of the rest
//! the one whose box-axis intersection x = cX − √(R² − cY²) (or + if that is ≤ 0) is nearest wins.
//! Force in local space: braking (r − x) · braking_weight along x, and a lateral push scaled by
//! 1 + (L − x)/L. An optional margin widens the box (and the expanded radius) beyond the agent's
//! radius, so the push lasts until the body is that far clear instead of fading at a graze.
//!
//! **Fix of the text's asymmetry (§8.5).** The text's lateral term (r − y)·mult pushes *toward*
//! the obstacle when it lies to the +y side (y = 5, r = 10 → +7.5) and three times harder away
//! when it lies to −y (y = −5 → +22.5). Here the push always points away from the obstacle's side
//! with magnitude (R − |y|)·mult, R the expanded radius, so it is symmetric and never changes sign
//! inside the band r ≤ |y| < R where the text's term would pull the agent onto the obstacle. An
//! obstacle exactly on the axis (y = 0) is passed on the +y (left) side.

use glam::Vec2;

use super::local_space::LocalFrame;

/// Detection box length for an agent moving at `speed` of `max_speed`.
pub fn box_length(min_length: f32, speed: f32, max_speed: f32) -> f32 {
    let ratio = if max_speed > 0.0 { speed / max_speed } else { 0.0 };
    min_length * (1.0 + ratio)
}

/// The closest obstacle intersecting the box: (local centre, obstacle radius, intersection x).
pub fn closest_in_box(
    frame: &LocalFrame,
    agent_radius: f32,
    length: f32,
    circles: impl Iterator<Item = (Vec2, f32)>,
) -> Option<(Vec2, f32, f32)> {
    let mut closest: Option<(Vec2, f32, f32)> = None;
    for (center, radius) in circles {
        let reach = length + radius;
        if center.distance_squared(frame.origin) >= reach * reach {
            continue;
        }
        let local = frame.point_to_local(center);
        let expanded = radius + agent_radius;
        if local.x < 0.0 || local.y.abs() >= expanded {
            continue;
        }
        let sqrt_part = (expanded * expanded - local.y * local.y).sqrt();
        let mut ip = local.x - sqrt_part;
        if ip <= 0.0 {
            ip = local.x + sqrt_part;
        }
        if closest.is_none_or(|(_, _, best)| ip < best) {
            closest = Some((local, radius, ip));
        }
    }
    closest
}

/// The local-space avoidance force for an obstacle of `radius` at `local` in a box of `length`.
pub fn local_avoidance_force(local: Vec2, radius: f32, agent_radius: f32, length: f32, braking_weight: f32) -> Vec2 {
    let multiplier = 1.0 + (length - local.x) / length;
    let expanded = radius + agent_radius;
    let away = if local.y > 0.0 { -1.0 } else { 1.0 };
    let lateral = away * (expanded - local.y.abs()) * multiplier;
    let braking = (radius - local.x) * braking_weight;
    Vec2::new(braking, lateral)
}

/// The world-space obstacle avoidance force (zero when the box is clear).
pub fn obstacle_avoidance_force(
    frame: &LocalFrame,
    agent_radius: f32,
    length: f32,
    braking_weight: f32,
    circles: impl Iterator<Item = (Vec2, f32)>,
) -> Vec2 {
    closest_in_box(frame, agent_radius, length, circles).map_or(Vec2::ZERO, |(local, radius, _)| {
        frame.vector_to_world(local_avoidance_force(
            local,
            radius,
            agent_radius,
            length,
            braking_weight,
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::steering::defaults::obstacle_avoidance::DEFAULT_BRAKING_WEIGHT;

    #[test]
    fn buckland_detection_box_example() {
        // §5.2: min length 40, speed = max speed → L = 80; agent radius 5; obstacle r = 10 at local (40, 5).
        let length = box_length(40.0, 3.0, 3.0);
        assert_eq!(length, 80.0);
        let frame = LocalFrame::new(Vec2::ZERO, Vec2::X);
        let (local, r, ip) = closest_in_box(&frame, 5.0, length, [(Vec2::new(40.0, 5.0), 10.0)].into_iter()).unwrap();
        assert_eq!((local, r), (Vec2::new(40.0, 5.0), 10.0));
        assert!((ip - (40.0 - 200f32.sqrt())).abs() < 1e-4); // ExpandedRadius 15, √200 = 14.14 → 25.86
        let f = local_avoidance_force(local, r, 5.0, length, DEFAULT_BRAKING_WEIGHT);
        // multiplier 1.5; braking (10 − 40)·0.2 = −6. Lateral: the text gives +7.5 (toward the obstacle);
        // fixed: away from it, (15 − 5)·1.5 = −15, and the mirrored obstacle at y = −5 gets +15, not 22.5.
        assert!((f - Vec2::new(-6.0, -15.0)).length() < 1e-4);
        let mirrored = local_avoidance_force(Vec2::new(40.0, -5.0), 10.0, 5.0, length, DEFAULT_BRAKING_WEIGHT);
        assert!((mirrored - Vec2::new(-6.0, 15.0)).length() < 1e-4);
    }

    #[test]
    fn obstacles_behind_beside_or_out_of_range_are_ignored() {
        let frame = LocalFrame::new(Vec2::ZERO, Vec2::X);
        let miss = |c: Vec2| closest_in_box(&frame, 5.0, 80.0, [(c, 10.0)].into_iter()).is_none();
        assert!(miss(Vec2::new(-1.0, 0.0)));
        assert!(miss(Vec2::new(40.0, 15.0)));
        assert!(miss(Vec2::new(40.0, -15.0)));
        assert!(miss(Vec2::new(95.0, 0.0)));
        assert!(!miss(Vec2::new(85.0, 0.0)));
    }

    #[test]
    fn the_nearest_intersection_wins_and_the_force_is_rotated_to_world() {
        let frame = LocalFrame::new(Vec2::ZERO, Vec2::Y);
        let circles = [(Vec2::new(0.0, 50.0), 10.0), (Vec2::new(2.0, 20.0), 3.0)];
        let (local, _, _) = closest_in_box(&frame, 1.0, 80.0, circles.into_iter()).unwrap();
        assert!((local - Vec2::new(20.0, -2.0)).length() < 1e-5);
        let f = obstacle_avoidance_force(&frame, 1.0, 80.0, 0.2, circles.into_iter());
        // Obstacle to the agent's right (world +x) → pushed to world −x, braked along −y.
        assert!(f.x < 0.0 && f.y < 0.0);
    }
}
