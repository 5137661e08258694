//! Buckland's non-penetration constraint (§4.1): after a tick, an agent that overlaps another is
//! moved straight away from it by the overlap, so the two just touch; the other does not move
//! and velocities are untouched. Agents are processed in index order (deterministic). Two fixes:
//! coincident agents (d = 0, unguarded in the text, §8.14) separate along the agent's reversed
//! heading, and the sweep is repeated (up to [`MAX_SWEEPS`]) while it still moves someone, since
//! one push can create a new overlap with an agent processed earlier (the text's caveat that the
//! constraint "sometimes fails" in dense crowds).

use glam::Vec2;

use crate::sim::{Body, NeighbourGrid, StaticGeometry};

/// Largest number of sweeps over all agents per tick.
pub const MAX_SWEEPS: usize = 4;

/// Where `body` must move so it no longer overlaps `other` (its position if they do not overlap).
pub fn pushed_clear(body: &Body, other: &Body) -> Vec2 {
    let to = body.position - other.position;
    let d = to.length();
    let overlap = body.radius + other.radius - d;
    if overlap <= 0.0 {
        return body.position;
    }
    let away = if d > 0.0 { to / d } else { -body.heading };
    body.position + away * overlap
}

/// Enforces the constraint on the present bodies; `grid` indexes their positions at the start
/// (it is rebuilt between sweeps), `max_radius` is the largest body radius. A push never takes a
/// centre across a wall of `statics` (it stops short, see [`StaticGeometry::stop_at_walls`]).
pub fn enforce(bodies: &mut [Body], grid: &mut NeighbourGrid, max_radius: f32, statics: &StaticGeometry) {
    let mut near = Vec::new();
    for _ in 0..MAX_SWEEPS {
        let mut moved = false;
        for i in 0..bodies.len() {
            if !bodies[i].status.present() {
                continue;
            }
            grid.query(bodies[i].position, bodies[i].radius + 2.0 * max_radius, &mut near);
            for &j in &near {
                let j = j as usize;
                if j == i {
                    continue;
                }
                let clear = statics.stop_at_walls(bodies[i].position, pushed_clear(&bodies[i], &bodies[j]));
                if clear != bodies[i].position {
                    bodies[i].position = clear;
                    moved = true;
                }
            }
        }
        grid.rebuild_bodies(bodies);
        if !moved {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Status;

    fn body(x: f32) -> Body {
        Body {
            id: 0,
            profile: 0,
            position: Vec2::new(x, 0.0),
            velocity: Vec2::ZERO,
            heading: Vec2::X,
            radius: 5.0,
            status: Status::Active,
        }
    }

    #[test]
    fn buckland_non_penetration_example() {
        // §5.2: entity at 0 with R = 5, other at (6, 0) with R = 5: overlap 4 → entity moves to (−4, 0).
        assert_eq!(pushed_clear(&body(0.0), &body(6.0)), Vec2::new(-4.0, 0.0));
        assert_eq!(pushed_clear(&body(0.0), &body(10.0)), Vec2::ZERO);
        // Coincident: pushed back along the reversed heading instead of dividing by zero.
        assert_eq!(pushed_clear(&body(0.0), &body(0.0)), Vec2::new(-10.0, 0.0));
    }
}
