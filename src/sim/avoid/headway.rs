//! The time-gap cap on the preferred speed (after Tordeux, Chraibi & Seyfried 2016, the
//! collision-free speed model): a walker goes no faster than the free space between it and the
//! nearest neighbour in front of it (anywhere in the half-plane ahead), divided by its time gap.
//! Velocity obstacles alone let a block of walkers at one velocity keep full speed at any
//! spacing; with the cap, speed falls with spacing, and so with density, as Weidmann's
//! fundamental diagram has it. The whole half-plane counts, not just the walker's own lane:
//! with only the lane (or a 60° cone) ORCA packs walkers into lanes abreast that keep full speed
//! at 1.3 P/m² (RiMEA 4: 1.32 m/s where Weidmann has 0.87).

use glam::Vec2;

use super::neighbours::Mover;

/// `preferred` shortened so that walking it for `time_gap` seconds does not cover the free space
/// (centre distance less both radii) to the nearest of `movers` in front of it, for
/// a disc of `radius` at `position`; unchanged when `time_gap` is 0, the preferred velocity is
/// zero or no one is in front.
pub fn headway_limited(preferred: Vec2, position: Vec2, radius: f32, movers: &[Mover], time_gap: f32) -> Vec2 {
    let speed = preferred.length();
    if time_gap <= 0.0 || speed <= 0.0 || !speed.is_finite() {
        return preferred;
    }
    let along = preferred / speed;
    let free = movers
        .iter()
        .filter_map(|m| free_space(position, radius, along, m))
        .fold(f32::INFINITY, f32::min);
    let cap = free.max(0.0) / time_gap;
    if cap < speed { along * cap } else { preferred }
}

/// Slowest speed (m/s) along a walker's heading at which a neighbour ahead counts as walking.
const WALKING: f32 = 0.1;

/// The free space between a disc of `radius` at `position` and `other`, when `other` is one it
/// follows: its centre lies ahead along the unit vector `along` and it walks that way too (at
/// least 0.1 m/s); `None` otherwise. Standing, shuffling and oncoming neighbours are left to
/// avoidance: two walkers converging on a door each have the other ahead, and a time gap to
/// each other would stop both for good (RiMEA 12: 39 of 150 stood in front of the corridor).
fn free_space(position: Vec2, radius: f32, along: Vec2, other: &Mover) -> Option<f32> {
    let offset = other.position - position;
    let follows = offset.dot(along) > 0.0 && other.velocity.dot(along) >= WALKING;
    follows.then(|| offset.length() - radius - other.radius)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walker at (x, y) heading east at 1.34 m/s.
    fn walker(x: f32, y: f32) -> Mover {
        moving(x, y, Vec2::new(1.34, 0.0))
    }

    fn moving(x: f32, y: f32, velocity: Vec2) -> Mover {
        Mover {
            position: Vec2::new(x, y),
            velocity,
            radius: 0.2,
            reactive: true,
        }
    }

    #[test]
    fn speed_is_the_free_space_to_the_nearest_in_front_over_the_time_gap() {
        let v = Vec2::new(1.34, 0.0);
        // 0.7 m ahead on the axis: 0.3 m free, 0.5 m/s at a 0.6 s gap.
        let capped = headway_limited(v, Vec2::ZERO, 0.2, &[walker(0.7, 0.0), walker(0.9, 0.1)], 0.6);
        assert!((capped - Vec2::new(0.5, 0.0)).length() < 1e-5, "{capped}");
        // 0.5 m ahead and 0.5 m aside (45°): 0.307 m free.
        let aside = headway_limited(v, Vec2::ZERO, 0.2, &[walker(0.5, 0.5)], 0.6);
        assert!((aside.x - (0.5f32.sqrt() - 0.4) / 0.6).abs() < 1e-5, "{aside}");
    }

    #[test]
    fn nothing_ahead_or_no_gap_leaves_the_velocity_alone() {
        let v = Vec2::new(1.34, 0.0);
        let around = [walker(-0.5, 0.0), walker(-0.01, 0.4), walker(3.0, 0.0)];
        assert_eq!(headway_limited(v, Vec2::ZERO, 0.2, &around, 0.6), v);
        assert_eq!(headway_limited(v, Vec2::ZERO, 0.2, &[walker(0.5, 0.0)], 0.0), v);
        assert_eq!(
            headway_limited(Vec2::ZERO, Vec2::ZERO, 0.2, &[walker(0.5, 0.0)], 0.6),
            Vec2::ZERO
        );
    }

    #[test]
    fn standing_and_oncoming_neighbours_ahead_are_left_to_avoidance() {
        let v = Vec2::new(1.34, 0.0);
        let shuffling = moving(0.5, 0.0, Vec2::new(0.05, 0.0));
        let oncoming = moving(0.5, 0.0, Vec2::new(-1.34, 0.0));
        assert_eq!(headway_limited(v, Vec2::ZERO, 0.2, &[shuffling, oncoming], 0.6), v);
    }

    #[test]
    fn an_overlapping_neighbour_ahead_stops_the_walker() {
        let north = moving(0.0, 0.3, Vec2::new(0.0, 0.5));
        let capped = headway_limited(Vec2::new(0.0, 1.0), Vec2::ZERO, 0.2, &[north], 0.6);
        assert_eq!(capped, Vec2::ZERO);
    }
}
