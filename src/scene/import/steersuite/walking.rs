//! How imported SteerSuite agents walk. SteerSuite's AI modules (RVO2, social forces, PPR) avoid
//! each other and the obstacles and plan a route around them; crowdlab's closest match is RVO2's
//! own set-up, as in the bundled ORCA scenes: ORCA with RVO2's defaults
//! ([`ObstacleParams::default`]), RVO2's goal-directed preferred velocity with its 1e-4 m/s
//! perturbation against symmetric deadlocks, no steering behaviours, the turn rate `check` asks
//! of ORCA ([`Profile::set_avoidance`]), and, when the scene has obstacles, Theta* any-angle
//! route planning. `crowdlab import --method M` swaps the avoidance method afterwards.
//!
//! The planner's grid already widens every obstacle by up to a cell, so its border is the
//! largest body radius less one cell: a full-radius border on top of that closes passages
//! SteerSuite's agents walk through (a 1.2 m corridor for bodies of 1 m), a much thinner one
//! leads paths so close round pillars that agents meeting there jam.

use crate::scene::avoidance::{Avoidance, ObstacleParams, PreferredVelocity};
use crate::scene::steering::Combiner;
use crate::scene::{Bounds, Navigation, PlannerKind, Profile, Scene};

/// Largest random perturbation (m/s) of the preferred velocity (RVO2's Blocks example).
const PERTURBATION: f32 = 1e-4;

/// Planner cell edge (metres) for worlds of up to [`MAX_PLANNER_CELLS`] such cells.
const PLANNER_CELL: f32 = 0.1;

/// Planner cells beyond which larger worlds get coarser cells (100 × 100 m at 0.1 m).
const MAX_PLANNER_CELLS: f32 = 1.0e6;

/// Gives every profile of `scene` ORCA with RVO2's defaults and the goal-directed preferred
/// velocity, and the scene a route planner when it has obstacles.
pub fn walk_like_steersuite(scene: &mut Scene) {
    let dt = scene.settings.dt;
    for profile in &mut scene.profiles {
        orca_walker(profile, dt);
    }
    if !scene.obstacles.is_empty() {
        let largest_radius = scene.profiles.iter().map(|p| p.radius).fold(0.0, f32::max);
        let cell_size = planner_cell(scene.bounds);
        scene.navigation = Navigation {
            planner: PlannerKind::AnyAngle,
            cell_size,
            border: Some((largest_radius - cell_size).max(0.0)),
            ..Navigation::default()
        };
    }
}

/// RVO2's agent: ORCA, preferred velocity straight toward the goal, no steering behaviours.
fn orca_walker(profile: &mut Profile, dt: f32) {
    profile.behaviours.clear();
    profile.combiner = Combiner::WeightedTruncatedSum;
    profile.preferred_velocity = PreferredVelocity::TowardGoal {
        perturbation: PERTURBATION,
    };
    profile.set_avoidance(Avoidance::Orca(ObstacleParams::default()), dt);
}

/// [`PLANNER_CELL`], or the edge that keeps a large world within [`MAX_PLANNER_CELLS`] cells.
fn planner_cell(bounds: Bounds) -> f32 {
    let size = bounds.size();
    PLANNER_CELL.max((size.x * size.y / MAX_PLANNER_CELLS).sqrt())
}

#[cfg(test)]
mod tests {
    use glam::Vec2;

    use super::*;

    #[test]
    fn planner_cells_stay_fine_for_small_worlds_and_bounded_for_large_ones() {
        let world = |side: f32| Bounds {
            min: Vec2::ZERO,
            max: Vec2::splat(side),
        };
        assert_eq!(planner_cell(world(50.0)), PLANNER_CELL);
        let cell = planner_cell(world(4000.0));
        assert!((4000.0 / cell).powi(2) <= MAX_PLANNER_CELLS * 1.001, "{cell}");
    }
}
