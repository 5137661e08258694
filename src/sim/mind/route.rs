//! Following a scene goal: a target (arrive within its radius) or a path (waypoints in order,
//! a waypoint counts as reached within half the path width; an open path ends on its last
//! point, a closed one loops forever).
//!
//! A waypoint before the end also counts as passed once the agent has crossed the bisector of
//! the turn there (for an open path's first waypoint, the line across its first segment) and
//! sees the next waypoint (no wall between, so one pressed against a room's wall beside the
//! door is not sent through it): in a
//! crowd, avoidance pushes walkers past a corner's waypoint wider than half the path width, and
//! sending them back to touch it turns them against the flow (RiMEA 6 with ORCA: nine of twenty
//! milled in the corner for good).
//!
//! An open path's last waypoint is likewise reached once the agent has crossed the finish line
//! through it square to the last segment and sees the end point: a crowd sharing one end point
//! cannot all touch it, and with avoidance the last few form a ring round it that never closes
//! (RiMEA 12 with ORCA: 16 of 150 stood round the point for good). RiMEA counts reaching the
//! room or passing the exit, not touching a point.

use glam::Vec2;

use crate::scene::{Goal, Scene};
use crate::sim::steer::GoalPoint;

/// An agent's goal resolved against the scene.
#[derive(Clone, Debug, PartialEq)]
pub enum Route {
    /// No goal.
    None,
    /// Arrive at `position`; done within `radius`.
    Target { position: Vec2, radius: f32 },
    /// Walk the path with this index in `Scene::paths`.
    Path { index: usize, reach: f32, closed: bool },
}

/// Where along its route an agent is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RouteProgress {
    /// Index of the next waypoint on a path.
    pub waypoint: usize,
    /// True once the end of the route has been reached.
    pub done: bool,
}

impl Route {
    /// Resolves a scene goal (the scene is assumed valid).
    pub fn new(goal: &Goal, scene: &Scene) -> Route {
        match goal {
            Goal::None | Goal::Exit(_) | Goal::RandomWalk | Goal::AnyOf(_) | Goal::AllOf(_) | Goal::Targets { .. } => {
                Route::None
            }
            Goal::Target(id) => scene.target(id).map_or(Route::None, |t| Route::Target {
                position: t.position,
                radius: t.radius,
            }),
            Goal::Path(id) => scene
                .paths
                .iter()
                .position(|p| &p.id == id)
                .map_or(Route::None, |index| Route::Path {
                    index,
                    reach: scene.paths[index].width * 0.5,
                    closed: scene.paths[index].closed,
                }),
        }
    }

    /// The same route with waypoints reached within `distance` instead of half the path width.
    pub fn with_waypoint_reach(self, distance: Option<f32>) -> Route {
        match (self, distance) {
            (Route::Path { index, closed, .. }, Some(reach)) => Route::Path { index, reach, closed },
            (route, _) => route,
        }
    }

    /// True when the route can end (a target or an open path).
    pub fn ends(&self) -> bool {
        match self {
            Route::None => false,
            Route::Target { .. } => true,
            Route::Path { closed, .. } => !closed,
        }
    }

    /// The point to head for given the agent's progress.
    pub fn goal_point(&self, progress: RouteProgress, scene: &Scene) -> Option<GoalPoint> {
        match self {
            Route::None => None,
            Route::Target { position, .. } => Some(GoalPoint {
                position: *position,
                is_final: true,
            }),
            Route::Path { index, closed, .. } => {
                let points = &scene.paths[*index].points;
                let i = progress.waypoint.min(points.len() - 1);
                Some(GoalPoint {
                    position: points[i],
                    is_final: !closed && i == points.len() - 1,
                })
            }
        }
    }

    /// Progress after the agent has moved to `position`; `sees(a, b)` tells whether no obstacle
    /// stands between two points.
    pub fn advance(
        &self,
        mut progress: RouteProgress,
        position: Vec2,
        scene: &Scene,
        sees: &dyn Fn(Vec2, Vec2) -> bool,
    ) -> RouteProgress {
        match self {
            Route::None => {}
            Route::Target {
                position: target,
                radius,
            } => {
                progress.done |= position.distance_squared(*target) <= radius * radius;
            }
            Route::Path { index, reach, closed } => {
                let points = &scene.paths[*index].points;
                let i = progress.waypoint.min(points.len() - 1);
                let ahead = if *closed || i + 1 < points.len() {
                    points[(i + 1) % points.len()]
                } else {
                    points[i]
                };
                let passed = || past_turn(points, i, *closed, position) && sees(position, ahead);
                if position.distance_squared(points[i]) <= reach * reach || passed() {
                    if i + 1 < points.len() {
                        progress.waypoint = i + 1;
                    } else if *closed {
                        progress.waypoint = 0;
                    } else {
                        progress.done = true;
                    }
                }
            }
        }
        progress
    }
}

/// True when `position` lies beyond the bisector of the turn at waypoint `i` of the path through
/// `points` (on the side of the outgoing segment); an open path's first and last waypoints are
/// taken as no turn, so their lines lie square to the first and the last segment.
fn past_turn(points: &[Vec2], i: usize, closed: bool, position: Vec2) -> bool {
    let n = points.len();
    if n < 2 || i >= n {
        return false;
    }
    let first = !closed && i == 0;
    let last = !closed && i + 1 == n;
    let incoming = (!first).then(|| (points[i] - points[(i + n - 1) % n]).normalize_or_zero());
    let outgoing = (!last).then(|| (points[(i + 1) % n] - points[i]).normalize_or_zero());
    let (incoming, outgoing) = match (incoming, outgoing) {
        (Some(a), Some(b)) => (a, b),
        (Some(a), None) => (a, a),
        (None, Some(b)) => (b, b),
        (None, None) => return false,
    };
    (position - points[i]).dot(incoming + outgoing) > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RiMEA 6's corner path: east along the corridor, then north.
    const CORNER: [Vec2; 3] = [Vec2::new(10.0, 1.0), Vec2::new(11.0, 2.0), Vec2::new(11.0, 11.5)];

    #[test]
    fn a_corner_waypoint_is_passed_beyond_the_bisector_even_out_of_reach() {
        assert!(
            past_turn(&CORNER, 1, false, Vec2::new(10.3, 2.5)),
            "round the corner, 0.86 m off"
        );
        assert!(
            !past_turn(&CORNER, 1, false, Vec2::new(10.2, 1.5)),
            "still before the turn"
        );
        assert!(!past_turn(&CORNER, 1, false, Vec2::new(11.0, 1.5)));
    }

    #[test]
    fn an_open_path_starts_and_ends_at_the_lines_across_its_end_segments() {
        assert!(past_turn(&CORNER, 0, false, Vec2::new(11.2, 2.4)));
        assert!(!past_turn(&CORNER, 0, false, Vec2::new(10.2, 0.3)), "before the line");
        assert!(
            past_turn(&CORNER, 2, false, Vec2::new(9.5, 11.6)),
            "over the finish line, 1.5 m aside"
        );
        assert!(
            !past_turn(&CORNER, 2, false, Vec2::new(11.0, 11.4)),
            "0.1 m short of it"
        );
        assert!(
            past_turn(&CORNER, 2, true, Vec2::new(11.0, 20.0)),
            "a closed path turns back at its end"
        );
    }

    /// True when an agent at `position`, heading for the end (24, 5) of an open path along
    /// y = 5, has finished; a wall along y = 7 hides everything above it from the end point.
    fn finish(position: Vec2) -> bool {
        let mut scene = Scene::empty();
        scene.paths.push(crate::scene::Path {
            id: "p".into(),
            points: vec![Vec2::new(9.4, 5.0), Vec2::new(24.0, 5.0)],
            width: 0.8,
            closed: false,
        });
        let route = Route::Path {
            index: 0,
            reach: 0.4,
            closed: false,
        };
        let sees = |a: Vec2, b: Vec2| a.y.max(b.y) < 7.0;
        let start = RouteProgress {
            waypoint: 1,
            done: false,
        };
        route.advance(start, position, &scene, &sees).done
    }

    #[test]
    fn an_open_path_ends_over_the_finish_line_in_sight_of_its_end_point() {
        assert!(finish(Vec2::new(24.2, 5.0)), "within reach");
        assert!(finish(Vec2::new(24.1, 3.8)), "over the line, 1.2 m aside");
        assert!(!finish(Vec2::new(23.6, 4.0)), "short of the line and out of reach");
        assert!(!finish(Vec2::new(24.1, 9.0)), "over the line behind a wall");
    }
}
