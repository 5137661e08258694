//! The scene's obstacles prepared for queries: body–obstacle penetration depth, ray and disc casts,
//! testing only the obstacles whose bounding box the body or ray reaches (found through a
//! [`BoxIndex`] built once). Moving non-reactive circles are placed at `centre + velocity · t`.

use glam::Vec2;

use crate::geom::{
    BoxIndex, RayHit, closest_point_on_segment, disc_segment, nearer, point_in_polygon, polygon_edges, ray_circle,
    ray_segment, segment_crossing,
};
use crate::scene::Obstacle;

/// All obstacles of a scene, ready for contact queries.
pub struct StaticGeometry {
    shapes: Vec<Obstacle>,
    boxes: BoxIndex,
}

impl StaticGeometry {
    /// Prepares the scene's obstacles.
    pub fn new(obstacles: &[Obstacle]) -> StaticGeometry {
        StaticGeometry {
            shapes: obstacles.to_vec(),
            boxes: BoxIndex::new(obstacles.iter().map(Obstacle::bounding_box).collect()),
        }
    }

    /// Calls `visit` with each obstacle whose bounding box reaches the box `lo`–`hi`, in
    /// obstacle order (the candidates are gathered in a per-thread buffer: no allocation per query;
    /// a scene without obstacles returns at once, before reaching the buffer).
    fn for_each_near(&self, lo: Vec2, hi: Vec2, mut visit: impl FnMut(u32, &Obstacle)) {
        if self.shapes.is_empty() {
            return;
        }
        thread_local! {
            static NEAR: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        NEAR.with_borrow_mut(|near| {
            self.boxes.query(lo, hi, near);
            for &i in near.iter() {
                visit(i, &self.shapes[i as usize]);
            }
        });
    }

    /// Every obstacle that a disc of `radius` at `p` penetrates at time `t`, as
    /// (obstacle index, depth in metres), depth > `tolerance`, in obstacle order.
    pub fn penetrations(&self, p: Vec2, radius: f32, t: f32, tolerance: f32) -> Vec<(u32, f32)> {
        let mut found = Vec::new();
        self.for_each_near(p - radius, p + radius, |i, shape| {
            let depth = penetration_depth(shape, p, radius, t);
            if depth > tolerance {
                found.push((i, depth));
            }
        });
        found
    }
}

impl StaticGeometry {
    /// The nearest obstacle hit of the ray from `origin` along unit `dir`, at most `length` long,
    /// at time `t` (moving circles placed then). Polygons and walls are hit on their edges.
    pub fn cast_ray(&self, origin: Vec2, dir: Vec2, length: f32, t: f32) -> Option<RayHit> {
        let end = origin + dir * length;
        let mut best = None;
        self.for_each_near(origin.min(end), origin.max(end), |_, shape| {
            best = nearer(best, ray_shape(shape, origin, dir, length, t));
        });
        best
    }
}

/// How far (m) from a wall's line a body's centre stops when its move would cross it.
pub const WALL_STOP: f32 = 1e-3;

/// How many times a stopped move's end is stopped short again before the body stays where it
/// was (`StaticGeometry::settled`).
const SETTLE_TRIES: usize = 4;

impl StaticGeometry {
    /// Where a body's centre moving straight from `from` to `to` ends with walls and obstacle
    /// edges solid: at `to` when the move reaches none (crosses one or ends on its line); else
    /// it stops `WALL_STOP` from the lines of those it reaches (or where it is, when already
    /// nearer) and slides along the one that stops it soonest for the rest of the move, stopping
    /// short of the next one that slide would reach (a corner); the end is then checked against
    /// the straight way from `from` (see `settled`). A polygon's edges are solid from outside
    /// only, so that a body placed inside one can leave. Circles are left to avoidance and the
    /// contact check: they have no thin side to slip through.
    pub fn stop_at_walls(&self, from: Vec2, to: Vec2) -> Vec2 {
        let Some((stop, wall)) = self.stop_short(from, to) else {
            return to;
        };
        let along = wall.normalize_or_zero();
        let slid = stop + along * (to - stop).dot(along);
        let end = self.stop_short(stop, slid).map_or(slid, |(corner, _)| corner);
        self.settled(from, end)
    }

    /// `end`, where a stopped move from `from` ends, if the straight way from `from` to it
    /// reaches no wall; otherwise where that way stops short of the walls it reaches, tried
    /// again a few times, and `from` itself (off every line) when it still reaches one. The
    /// points of a stop and a slide are rounded to `f32`, by about 10⁻⁵ m two hundred metres
    /// from the origin: a body that stands closer than that to a wall's line and moves along
    /// it could be rounded across.
    fn settled(&self, from: Vec2, mut end: Vec2) -> Vec2 {
        for _ in 0..SETTLE_TRIES {
            match self.stop_short(from, end) {
                None => return end,
                Some((nearer, _)) => end = nearer,
            }
        }
        from
    }

    /// The point of the move from `from` to `to` [`WALL_STOP`] from the lines of all the walls
    /// and polygon edges (seen from outside) that it reaches (`from` when that is nearer), and
    /// the direction of the wall that stops it soonest; `None` when it reaches none. The
    /// distance is measured across each wall, not along the move: a move that grazes a wall
    /// stopped a millimetre short along itself would end nearer the line than `f32` can tell
    /// apart, on it, from where the next move could cross it unnoticed; and a move into the
    /// corner where two walls meet that stopped a millimetre from the first one it reaches could
    /// end on the second, which it approaches at a slant.
    fn stop_short(&self, from: Vec2, to: Vec2) -> Option<(Vec2, Vec2)> {
        let move_ = to - from;
        let mut soonest: Option<(f32, Vec2)> = None;
        let mut reach = |a: Vec2, b: Vec2| {
            if let Some(t) = segment_crossing(from, to, (a, b), WALL_STOP) {
                let wall = b - a;
                // The move's extent across the wall (zero only for a move too nearly along it for
                // `f32`, which then stays where it is).
                let across = move_.perp_dot(wall).abs() / wall.length();
                let stop = t - WALL_STOP / across;
                if soonest.is_none_or(|(s, _)| stop < s) {
                    soonest = Some((stop, wall));
                }
            }
        };
        self.for_each_near(from.min(to), from.max(to), |_, shape| match shape {
            Obstacle::Wall { a, b } => reach(*a, *b),
            Obstacle::Polygon { vertices } if !point_in_polygon(from, vertices) => {
                polygon_edges(vertices).for_each(|(a, b)| reach(a, b));
            }
            _ => {}
        });
        let (stop, wall) = soonest?;
        Some((from + move_ * stop.max(0.0), wall))
    }

    /// The first obstacle that a disc of `radius` > 0 moving from `origin` along unit `dir`, at
    /// most `length` far, touches at time `t` ([`disc_segment`]): a thick ray, as wide as a body.
    pub fn cast_disc(&self, origin: Vec2, dir: Vec2, length: f32, radius: f32, t: f32) -> Option<RayHit> {
        let end = origin + dir * length;
        let mut best = None;
        self.for_each_near(origin.min(end) - radius, origin.max(end) + radius, |_, shape| {
            best = nearer(best, disc_shape(shape, origin, dir, length, radius, t));
        });
        best
    }
}

/// The first contact of a moving disc with one obstacle shape at time `t`.
fn disc_shape(shape: &Obstacle, origin: Vec2, dir: Vec2, length: f32, radius: f32, t: f32) -> Option<RayHit> {
    let circle = |center: Vec2, r: f32| {
        ray_circle(origin, dir, length, center, r + radius).map(|h| RayHit {
            point: center + h.normal * r,
            ..h
        })
    };
    match shape {
        Obstacle::Circle { center, radius: r } => circle(*center, *r),
        Obstacle::MovingCircle {
            center,
            radius: r,
            velocity,
        } => circle(*center + *velocity * t, *r),
        Obstacle::Wall { a, b } => disc_segment(origin, dir, length, radius, *a, *b),
        Obstacle::Polygon { vertices } => polygon_edges(vertices).fold(None, |best, (a, b)| {
            nearer(best, disc_segment(origin, dir, length, radius, a, b))
        }),
    }
}

/// The first hit of a ray with one obstacle shape at time `t`.
fn ray_shape(shape: &Obstacle, origin: Vec2, dir: Vec2, length: f32, t: f32) -> Option<RayHit> {
    match shape {
        Obstacle::Circle { center, radius } => ray_circle(origin, dir, length, *center, *radius),
        Obstacle::MovingCircle {
            center,
            radius,
            velocity,
        } => ray_circle(origin, dir, length, *center + *velocity * t, *radius),
        Obstacle::Wall { a, b } => ray_segment(origin, dir, length, *a, *b),
        Obstacle::Polygon { vertices } => polygon_edges(vertices).fold(None, |best, (a, b)| {
            nearer(best, ray_segment(origin, dir, length, a, b))
        }),
    }
}

/// How deep a disc of `radius` at `p` reaches into `shape` at time `t` (≤ 0 when apart).
pub fn penetration_depth(shape: &Obstacle, p: Vec2, radius: f32, t: f32) -> f32 {
    match shape {
        Obstacle::Circle { center, radius: r } => r + radius - p.distance(*center),
        Obstacle::MovingCircle {
            center,
            radius: r,
            velocity,
        } => r + radius - p.distance(*center + *velocity * t),
        Obstacle::Wall { a, b } => radius - p.distance(closest_point_on_segment(p, *a, *b)),
        Obstacle::Polygon { vertices } => {
            let edge_distance = polygon_edges(vertices)
                .map(|(a, b)| p.distance(closest_point_on_segment(p, a, b)))
                .fold(f32::INFINITY, f32::min);
            if point_in_polygon(p, vertices) {
                radius + edge_distance
            } else {
                radius - edge_distance
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::geom::side_of;

    #[test]
    fn depth_of_each_shape() {
        let circle = Obstacle::Circle {
            center: Vec2::ZERO,
            radius: 1.0,
        };
        assert!((penetration_depth(&circle, Vec2::new(1.2, 0.0), 0.3, 0.0) - 0.1).abs() < 1e-6);
        let moving = Obstacle::MovingCircle {
            center: Vec2::ZERO,
            radius: 1.0,
            velocity: Vec2::new(1.0, 0.0),
        };
        assert!((penetration_depth(&moving, Vec2::new(2.2, 0.0), 0.3, 1.0) - 0.1).abs() < 1e-6);
        let square = Obstacle::Polygon {
            vertices: vec![
                Vec2::ZERO,
                Vec2::new(2.0, 0.0),
                Vec2::new(2.0, 2.0),
                Vec2::new(0.0, 2.0),
            ],
        };
        assert!((penetration_depth(&square, Vec2::new(1.0, 1.0), 0.5, 0.0) - 1.5).abs() < 1e-6);
        assert!((penetration_depth(&square, Vec2::new(3.0, 1.0), 0.5, 0.0) + 0.5).abs() < 1e-6);
        let wall = Obstacle::Wall {
            a: Vec2::ZERO,
            b: Vec2::new(0.0, 4.0),
        };
        assert!((penetration_depth(&wall, Vec2::new(0.2, 1.0), 0.25, 0.0) - 0.05).abs() < 1e-6);
        let geometry = StaticGeometry::new(&[circle, wall]);
        let hits = geometry.penetrations(Vec2::new(0.1, 1.05), 0.25, 0.0, 1e-3);
        assert_eq!(hits.len(), 2);
    }

    #[test]
    fn rays_find_the_nearest_shape_and_its_outward_normal() {
        let geometry = StaticGeometry::new(&[
            Obstacle::Polygon {
                vertices: vec![
                    Vec2::new(4.0, -1.0),
                    Vec2::new(6.0, -1.0),
                    Vec2::new(6.0, 1.0),
                    Vec2::new(4.0, 1.0),
                ],
            },
            Obstacle::Wall {
                a: Vec2::new(8.0, -5.0),
                b: Vec2::new(8.0, 5.0),
            },
            Obstacle::MovingCircle {
                center: Vec2::new(0.0, -10.0),
                radius: 0.5,
                velocity: Vec2::new(0.0, 5.0),
            },
        ]);
        let hit = geometry.cast_ray(Vec2::ZERO, Vec2::X, 10.0, 0.0).unwrap();
        assert!((hit.distance - 4.0).abs() < 1e-6);
        assert_eq!(hit.normal, -Vec2::X);
        let wall = geometry.cast_ray(Vec2::new(0.0, 3.0), Vec2::X, 10.0, 0.0).unwrap();
        assert!((wall.distance - 8.0).abs() < 1e-6);
        assert!(geometry.cast_ray(Vec2::ZERO, -Vec2::Y, 5.0, 0.0).is_none());
        let moving = geometry.cast_ray(Vec2::ZERO, -Vec2::Y, 5.0, 1.0).unwrap();
        assert!((moving.distance - 4.5).abs() < 1e-6);
    }

    #[test]
    fn moves_stop_short_of_walls_and_slide_along_them() {
        // A square tank of walls (0..10 both ways) and a 2 m block at (6..8, 6..8).
        let wall = |a: (f32, f32), b: (f32, f32)| Obstacle::Wall {
            a: Vec2::new(a.0, a.1),
            b: Vec2::new(b.0, b.1),
        };
        let block = Obstacle::Polygon {
            vertices: vec![
                Vec2::new(6.0, 6.0),
                Vec2::new(8.0, 6.0),
                Vec2::new(8.0, 8.0),
                Vec2::new(6.0, 8.0),
            ],
        };
        let statics = StaticGeometry::new(&[
            wall((0.0, 0.0), (10.0, 0.0)),
            wall((10.0, 0.0), (10.0, 10.0)),
            wall((10.0, 10.0), (0.0, 10.0)),
            wall((0.0, 10.0), (0.0, 0.0)),
            block,
        ]);
        let near = |a: Vec2, b: Vec2| a.distance(b) < 1e-5;
        // Inside the tank, at most two millimetres from a wall at `x` or `y` = 10 (a move stops a
        // millimetre from the line of the wall it would cross).
        let by_wall = |v: f32| v < 10.0 && v > 10.0 - 2.0 * WALL_STOP;
        // A move that crosses nothing ends where it was going.
        let free = Vec2::new(3.0, 4.0);
        assert_eq!(statics.stop_at_walls(Vec2::new(2.0, 2.0), free), free);
        // Straight at the east wall: stops a millimetre short.
        let stopped = statics.stop_at_walls(Vec2::new(9.5, 5.0), Vec2::new(10.5, 5.0));
        assert!(near(stopped, Vec2::new(10.0 - WALL_STOP, 5.0)), "{stopped}");
        // Diagonally through it: the rest of the move slides along it.
        let slid = statics.stop_at_walls(Vec2::new(9.5, 5.0), Vec2::new(10.5, 5.5));
        assert!(by_wall(slid.x) && (slid.y - 5.5).abs() < 1e-5, "{slid}");
        // Into the north-east corner: the slide along the east wall stops short of the north one.
        let corner = statics.stop_at_walls(Vec2::new(9.5, 9.5), Vec2::new(10.5, 11.0));
        assert!(by_wall(corner.x) && by_wall(corner.y), "{corner}");
        // Exactly through the corner point both walls share.
        let through = statics.stop_at_walls(Vec2::new(9.0, 9.0), Vec2::new(11.0, 11.0));
        assert!(through.x < 10.0 && through.y < 10.0, "{through}");
        // Into the block from outside: stopped at its edge; from inside it: free to leave.
        let at_block = statics.stop_at_walls(Vec2::new(5.5, 7.0), Vec2::new(6.5, 7.0));
        assert!(near(at_block, Vec2::new(6.0 - WALL_STOP, 7.0)), "{at_block}");
        let leaving = Vec2::new(5.0, 7.0);
        assert_eq!(statics.stop_at_walls(Vec2::new(7.0, 7.0), leaving), leaving);
        // Moving away from a wall it stands on: free.
        let away = Vec2::new(9.0, 5.0);
        assert_eq!(statics.stop_at_walls(Vec2::new(10.0, 5.0), away), away);
    }

    #[test]
    fn a_body_grazing_a_wall_stays_on_its_side() {
        // A hallway wall along y = 9; a move that crosses it at a slope of 2·10⁻⁵ stopped a
        // millimetre short along itself would end 2·10⁻⁸ m from the line, which `f32` rounds to
        // the line itself, and from there the next move would cross unnoticed.
        let statics = StaticGeometry::new(&[Obstacle::Wall {
            a: Vec2::new(20.0, 9.0),
            b: Vec2::new(35.0, 9.0),
        }]);
        let grazed = statics.stop_at_walls(Vec2::new(24.0, 9.00001), Vec2::new(25.0, 8.99999));
        assert!(grazed.y > 9.0, "{grazed}");
        assert!(
            (grazed.x - 25.0).abs() < 1e-5,
            "the rest of the move slides along: {grazed}"
        );
        let pushed = statics.stop_at_walls(grazed, Vec2::new(25.5, 8.9));
        assert!(pushed.y > 9.0, "{pushed}");
        // Stopped across the wall, a slanted move ends a millimetre from its line.
        let slanted = statics.stop_at_walls(Vec2::new(24.0, 9.5), Vec2::new(25.0, 8.5));
        assert!((slanted.y - (9.0 + WALL_STOP)).abs() < 1e-5, "{slanted}");
        // A move that would end exactly on the line stops short of it too: a centre left on the
        // line has no side, and its next move would cross unseen.
        let onto = statics.stop_at_walls(Vec2::new(26.0, 9.5), Vec2::new(26.0, 9.0));
        assert!((onto.y - (9.0 + WALL_STOP)).abs() < 1e-5, "{onto}");
        let beyond = statics.stop_at_walls(onto, Vec2::new(26.0, 8.5));
        assert!(beyond.y > 9.0, "{beyond}");
    }

    /// The corners, counter-clockwise, of a square of half-side `half` about `centre` turned by
    /// `angle`, and the turn itself (applied to a vector).
    fn turned_square(centre: Vec2, half: f32, angle: f32) -> ([Vec2; 4], impl Fn(Vec2) -> Vec2) {
        let turn = Vec2::from_angle(angle);
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(x, y)| centre + turn.rotate(Vec2::new(x, y) * half));
        (corners, move |v: Vec2| turn.rotate(v))
    }

    proptest! {
        #![proptest_config(crate::test_rng::fixed_cases(96, 0x00C0_FFEE))]
        /// A body moved about a closed room of walls with a block in it, turned by any angle, by
        /// moves of every kind that ends near a line (plain steps, steps onto a wall's line or an
        /// edge's, steps that graze one, steps to a corner, steps far through one), stays
        /// strictly inside the room and strictly outside the block: no move ends on a line or
        /// beyond it, however `f32` rounds.
        #[test]
        fn a_body_moved_about_a_room_never_leaves_it_nor_enters_its_block(
            angle in 0.0f32..std::f32::consts::TAU,
            (cx, cy) in (-1000.0f32..1000.0, -1000.0f32..1000.0),
            moves in proptest::collection::vec((0u8..5, 0usize..8, 0.0f32..1.0, 0.0f32..3.0), 1..120),
        ) {
            let centre = Vec2::new(cx, cy);
            let (room, turn) = turned_square(centre, 5.0, angle);
            let (block, _) = turned_square(centre + turn(Vec2::new(2.0, 0.0)), 1.0, angle);
            // The room's four walls, then the block's four edges, each as its two ends.
            let lines: Vec<(Vec2, Vec2)> = polygon_edges(&room).chain(polygon_edges(&block)).collect();
            let (walls, edges) = lines.split_at(4);
            let mut obstacles: Vec<Obstacle> = walls.iter().map(|&(a, b)| Obstacle::Wall { a, b }).collect();
            obstacles.push(Obstacle::Polygon { vertices: block.to_vec() });
            let statics = StaticGeometry::new(&obstacles);
            let mut p = centre + turn(Vec2::new(-2.5, 0.0));
            for (step, &(kind, line, t, length)) in moves.iter().enumerate() {
                let (a, b) = lines[line];
                let to = match kind {
                    // A plain step, its direction drawn from `t`.
                    0 => p + Vec2::from_angle(t * std::f32::consts::TAU) * length,
                    // Onto the line: a point of it, as `f32` computes one.
                    1 => a + (b - a) * t,
                    // Grazing the line, nearly along it, across it by 2e-5 of the way.
                    2 => {
                        let along = (b - a).normalize();
                        let across = if side_of(a, b, p) > 0.0 { -along.perp() } else { along.perp() };
                        p + (along * if t < 0.5 { -1.0 } else { 1.0 } + across * 2e-5) * (0.5 + length)
                    }
                    // To the line's first corner.
                    3 => a,
                    // Far through it: the point of the line, mirrored beyond it.
                    _ => {
                        let on = a + (b - a) * t;
                        on + (on - p) * (1.0 + length)
                    }
                };
                let from = p;
                p = statics.stop_at_walls(from, to);
                let in_room = walls.iter().all(|&(a, b)| side_of(a, b, p) > 0.0);
                let off_block = edges.iter().any(|&(a, b)| side_of(a, b, p) < 0.0);
                prop_assert!(
                    in_room && off_block,
                    "move {} (kind {}) from {:?} to {:?} ended at {:?}, sides {:?}",
                    step,
                    kind,
                    from,
                    to,
                    p,
                    lines.iter().map(|&(a, b)| side_of(a, b, p) / f64::from(a.distance(b))).collect::<Vec<_>>()
                );
            }
        }
    }
}
