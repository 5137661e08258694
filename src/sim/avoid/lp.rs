//! RVO2's linear programs over half-planes: the incremental 2-D program (Seidel-style, with the
//! max-speed disc) and the 3-D fallback that minimises the largest violation when the 2-D
//! program is infeasible. Obstacle lines (the first `hard` lines) are never relaxed.

use glam::Vec2;

/// RVO2's `RVO_EPSILON`.
pub const EPSILON: f32 = 1e-5;

/// A directed line; the permitted half-plane lies to its left (RVO2's `Line`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// A point on the line.
    pub point: Vec2,
    /// Unit direction.
    pub direction: Vec2,
}

impl Line {
    /// How far `v` lies on the forbidden (right) side; ≤ 0 when `v` is permitted.
    pub fn violation(&self, v: Vec2) -> f32 {
        self.direction.perp_dot(self.point - v)
    }
}

/// Optimum on line `line_no` subject to lines `0..line_no` and the disc of `radius`
/// (RVO2 `linearProgram1`); `None` when infeasible.
fn program1(lines: &[Line], line_no: usize, radius: f32, opt: Vec2, direction_opt: bool) -> Option<Vec2> {
    let line = lines[line_no];
    let dot = line.point.dot(line.direction);
    let discriminant = dot * dot + radius * radius - line.point.length_squared();
    if discriminant < 0.0 {
        return None;
    }
    let sqrt_d = discriminant.sqrt();
    let (mut t_left, mut t_right) = (-dot - sqrt_d, -dot + sqrt_d);
    for other in &lines[..line_no] {
        let denominator = line.direction.perp_dot(other.direction);
        let numerator = other.direction.perp_dot(line.point - other.point);
        if denominator.abs() <= EPSILON {
            if numerator < 0.0 {
                return None;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            t_right = t_right.min(t);
        } else {
            t_left = t_left.max(t);
        }
        if t_left > t_right {
            return None;
        }
    }
    let t = if direction_opt {
        if opt.dot(line.direction) > 0.0 { t_right } else { t_left }
    } else {
        line.direction.dot(opt - line.point).clamp(t_left, t_right)
    };
    Some(line.point + line.direction * t)
}

/// The permitted velocity closest to `opt` (or furthest along `opt` when `direction_opt`)
/// within the disc of `radius` (RVO2 `linearProgram2`). Returns the velocity and the index of
/// the first line that made the program infeasible (`lines.len()` when feasible).
pub fn program2(lines: &[Line], radius: f32, opt: Vec2, direction_opt: bool) -> (Vec2, usize) {
    let mut result = if direction_opt {
        opt * radius
    } else if opt.length_squared() > radius * radius {
        opt.normalize() * radius
    } else {
        opt
    };
    for (i, line) in lines.iter().enumerate() {
        if line.violation(result) > 0.0 {
            match program1(lines, i, radius, opt, direction_opt) {
                Some(v) => result = v,
                None => return (result, i),
            }
        }
    }
    (result, lines.len())
}

/// RVO2 `linearProgram3`: starting from the infeasible 2-D result, minimises the largest
/// violation of the soft lines (`hard..`) while keeping the hard lines. `projected` is a reused
/// buffer.
fn program3(
    lines: &[Line],
    hard: usize,
    begin: usize,
    radius: f32,
    mut result: Vec2,
    projected: &mut Vec<Line>,
) -> Vec2 {
    let mut distance = 0.0;
    for i in begin..lines.len() {
        if lines[i].violation(result) > distance {
            projected.clear();
            projected.extend_from_slice(&lines[..hard]);
            for j in hard..i {
                let determinant = lines[i].direction.perp_dot(lines[j].direction);
                let point = if determinant.abs() <= EPSILON {
                    if lines[i].direction.dot(lines[j].direction) > 0.0 {
                        continue;
                    }
                    (lines[i].point + lines[j].point) * 0.5
                } else {
                    lines[i].point
                        + lines[i].direction
                            * (lines[j].direction.perp_dot(lines[i].point - lines[j].point) / determinant)
                };
                projected.push(Line {
                    point,
                    direction: (lines[j].direction - lines[i].direction).normalize(),
                });
            }
            let opt = lines[i].direction.perp();
            let (candidate, fail) = program2(projected, radius, opt, true);
            if fail >= projected.len() {
                result = candidate;
            }
            distance = lines[i].violation(result);
        }
    }
    result
}

/// The ORCA velocity: the 2-D program, and the 3-D fallback when it fails (`projected` is
/// its reused buffer).
pub fn solve(lines: &[Line], hard: usize, max_speed: f32, preferred: Vec2, projected: &mut Vec<Line>) -> Vec2 {
    let (result, fail) = program2(lines, max_speed, preferred, false);
    if fail < lines.len() {
        program3(lines, hard, fail, max_speed, result, projected)
    } else {
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(point: (f32, f32), direction: (f32, f32)) -> Line {
        Line {
            point: Vec2::new(point.0, point.1),
            direction: Vec2::new(direction.0, direction.1).normalize(),
        }
    }

    #[test]
    fn feasible_program_returns_the_closest_permitted_velocity() {
        // Permitted: y ≥ 0.5 (left of a line pointing in +x through (0, 0.5)).
        let lines = [line((0.0, 0.5), (1.0, 0.0))];
        let v = solve(&lines, 0, 2.0, Vec2::new(1.0, 0.0), &mut Vec::new());
        assert!((v - Vec2::new(1.0, 0.5)).length() < 1e-6);
        // Inside the permitted side, the preferred velocity is kept.
        assert_eq!(
            solve(&lines, 0, 2.0, Vec2::new(0.0, 1.0), &mut Vec::new()),
            Vec2::new(0.0, 1.0)
        );
        // Outside the max-speed disc the result is on the disc.
        let far = solve(&[], 0, 2.0, Vec2::new(3.0, 4.0), &mut Vec::new());
        assert!((far - Vec2::new(1.2, 1.6)).length() < 1e-6);
    }

    #[test]
    fn infeasible_soft_lines_minimise_the_largest_violation() {
        // y ≥ 1 and y ≤ −1 cannot both hold: the 3-D program splits the violation evenly (y = 0).
        let lines = [line((0.0, 1.0), (1.0, 0.0)), line((0.0, -1.0), (-1.0, 0.0))];
        let (_, fail) = program2(&lines, 2.0, Vec2::new(0.5, 0.3), false);
        assert_eq!(fail, 1, "the second line makes the 2-D program infeasible");
        let v = solve(&lines, 0, 2.0, Vec2::new(0.5, 0.3), &mut Vec::new());
        assert!(v.y.abs() < 1e-5, "{v}");
        assert!((lines[0].violation(v) - lines[1].violation(v)).abs() < 1e-5);
    }

    #[test]
    fn hard_lines_stay_satisfied_when_soft_ones_are_relaxed() {
        // Hard: y ≥ 1. Soft: y ≤ −1. Result keeps y ≥ 1 and violates only the soft line.
        let lines = [line((0.0, 1.0), (1.0, 0.0)), line((0.0, -1.0), (-1.0, 0.0))];
        let v = solve(&lines, 1, 2.0, Vec2::ZERO, &mut Vec::new());
        assert!(lines[0].violation(v) <= 1e-5, "{v}");
        assert!(v.y >= 1.0 - 1e-5);
    }

    #[test]
    fn max_speed_disc_that_excludes_a_line_is_infeasible() {
        let lines = [line((0.0, 3.0), (1.0, 0.0))];
        assert_eq!(program2(&lines, 2.0, Vec2::ZERO, false).1, 0);
    }
}
