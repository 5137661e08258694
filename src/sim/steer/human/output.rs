//! What a human steering returns (Popelová §1, §4): a force plus the optional requests the
//! weighted-mean combiner understands — stop (optionally turning to face a point), a deceleration
//! share of the stop vector (negative to accelerate) and a vote on the speed boost.
//!
//! Units: Popelová's N_UT is defined by "a constant 1 N_UT keeps an agent moving at 1 cm_UT/s",
//! so forces here are in metres per second (1 N_UT = 0.01 m/s, 1 cm_UT = 0.01 m).

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

/// One steering's output for one tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SteeringOutput {
    /// The steering vector, including any rotation vectors, in m/s.
    pub force: Vec2,
    /// A stop request; `Some(face)` carries an optional point to face after stopping.
    pub stop: Option<Option<Vec2>>,
    /// Share of the stop vector requested as a deceleration vector (0 = none, 1 = full stop,
    /// negative = acceleration along the velocity).
    pub deceleration: f32,
    /// True when this steering agrees to raise a slow agent to walking speed.
    pub boost: bool,
}

impl SteeringOutput {
    /// A plain force that votes for the speed boost.
    pub fn force(force: Vec2) -> SteeringOutput {
        SteeringOutput {
            force,
            boost: true,
            ..SteeringOutput::default()
        }
    }

    /// A stop request, facing `face` afterwards if given (no boost).
    pub fn stop(face: Option<Vec2>) -> SteeringOutput {
        SteeringOutput {
            stop: Some(face),
            ..SteeringOutput::default()
        }
    }

    /// True when the output asks for anything (the combiner counts only non-zero outputs).
    pub fn is_active(&self) -> bool {
        self.force != Vec2::ZERO || self.stop.is_some() || self.deceleration != 0.0
    }
}

/// Which side of the velocity a rotation vector points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Counter-clockwise of the velocity (y-up world).
    Left,
    /// Clockwise of the velocity.
    Right,
}

impl Side {
    /// The side of the line through `origin` along `dir` on which `point` lies; `None` on the line.
    pub fn of(point: Vec2, origin: Vec2, dir: Vec2) -> Option<Side> {
        let cross = dir.perp_dot(point - origin);
        if cross > 1e-6 {
            Some(Side::Left)
        } else if cross < -1e-6 {
            Some(Side::Right)
        } else {
            None
        }
    }

    /// The other side.
    pub fn opposite(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }

    /// A side drawn at random (the thesis's tie rule).
    pub fn random(rng: &mut Pcg32) -> Side {
        if rng.random::<bool>() { Side::Left } else { Side::Right }
    }

    /// The unit vector perpendicular to unit `dir` on this side.
    pub fn unit(self, dir: Vec2) -> Vec2 {
        match self {
            Side::Left => dir.perp(),
            Side::Right => -dir.perp(),
        }
    }
}

/// The direction of motion: the velocity's, or the facing when standing.
pub fn motion_direction(velocity: Vec2, heading: Vec2) -> Vec2 {
    velocity.try_normalize().unwrap_or(heading)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_follow_the_y_up_convention() {
        assert_eq!(Side::of(Vec2::new(1.0, 1.0), Vec2::ZERO, Vec2::X), Some(Side::Left));
        assert_eq!(Side::of(Vec2::new(1.0, -1.0), Vec2::ZERO, Vec2::X), Some(Side::Right));
        assert_eq!(Side::of(Vec2::new(3.0, 0.0), Vec2::ZERO, Vec2::X), None);
        assert_eq!(Side::Right.unit(Vec2::X), -Vec2::Y);
        assert!(!SteeringOutput::default().is_active());
        assert!(SteeringOutput::stop(None).is_active());
    }
}
