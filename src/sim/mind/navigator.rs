//! Following a destination along a planned path: the bridge between a mind's destination and
//! the goal point the steering behaviours head for.
//!
//! When the destination moves by more than [`REPLAN_DISTANCE`] the path is re-planned — not at
//! once, but on the agent's next planning tick ((tick + id) divisible by the stagger), so not all
//! agents plan in one tick; meanwhile the agent heads straight for the destination. A destination
//! in plain view is walked to directly, without planning. An agent pushed off its path so far
//! that it no longer sees its next waypoint, or stuck ([`Navigator::replan`]), re-plans on its
//! next planning tick.

use glam::Vec2;

use super::world_map::WorldMap;
use crate::sim::nav::SearchScratch;
use crate::sim::steer::GoalPoint;

/// A destination moving less than this (metres) keeps its path; only the last point follows it.
pub const REPLAN_DISTANCE: f32 = 1.0;

/// An intermediate waypoint counts as reached within this distance (metres).
pub const WAYPOINT_REACH: f32 = 0.6;

/// Where a mind wants its agent to go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Destination {
    /// The point.
    pub point: Vec2,
    /// Arrive (stop) there rather than pass through.
    pub is_final: bool,
}

/// An agent's current path toward its destination.
#[derive(Clone, Debug, Default)]
pub struct Navigator {
    destination: Option<Destination>,
    planned_for: Option<Vec2>,
    waypoints: Vec<Vec2>,
    next: usize,
}

impl Navigator {
    /// Updates the path for `destination` from `position` this tick.
    pub fn update(
        &mut self,
        destination: Option<Destination>,
        position: Vec2,
        id: u32,
        tick: u64,
        map: &WorldMap,
        scratch: &mut SearchScratch,
    ) {
        self.destination = destination;
        let Some(dest) = destination else {
            self.waypoints.clear();
            self.planned_for = None;
            return;
        };
        let planning_tick = (tick + u64::from(id)).is_multiple_of(u64::from(map.replan_stagger));
        let lost = planning_tick
            && self
                .waypoints
                .get(self.next)
                .is_some_and(|&w| !map.clear_line(position, w));
        let near_plan = !lost
            && self
                .planned_for
                .is_some_and(|p| p.distance(dest.point) <= REPLAN_DISTANCE);
        if near_plan {
            if let Some(last) = self.waypoints.last_mut() {
                *last = dest.point;
            }
        } else if map.clear_line(position, dest.point) {
            self.set(vec![dest.point], dest.point);
        } else if planning_tick {
            let path = map
                .plan(scratch, position, dest.point)
                .unwrap_or_else(|| vec![dest.point]);
            self.set(path, dest.point);
        } else {
            self.waypoints = vec![dest.point];
            self.next = 0;
        }
        while self.next + 1 < self.waypoints.len() && position.distance(self.waypoints[self.next]) <= WAYPOINT_REACH {
            self.next += 1;
        }
    }

    fn set(&mut self, waypoints: Vec<Vec2>, planned_for: Vec2) {
        self.waypoints = waypoints;
        self.planned_for = Some(planned_for);
        self.next = 0;
    }

    /// Forgets the plan, so the path is planned afresh from where the agent stands on its next
    /// planning tick (a stuck agent's remedy).
    pub fn replan(&mut self) {
        self.planned_for = None;
    }

    /// The point to steer for this tick.
    pub fn goal_point(&self) -> Option<GoalPoint> {
        let dest = self.destination?;
        let last = self.waypoints.len().saturating_sub(1);
        Some(match self.waypoints.get(self.next) {
            Some(&position) => GoalPoint {
                position,
                is_final: dest.is_final && self.next == last,
            },
            None => GoalPoint {
                position: dest.point,
                is_final: dest.is_final,
            },
        })
    }

    /// The remaining waypoints (for drawing the path).
    pub fn remaining(&self) -> &[Vec2] {
        self.waypoints.get(self.next..).unwrap_or(&[])
    }
}
