//! Default parameter values of Buckland's behaviours, one module per behaviour: the serde
//! defaults of [`Behaviour`](super::Behaviour)'s fields (and the wander that flocking presets add).

/// Wander's circle (Buckland §2.6).
pub mod wander {
    /// Default circle radius (m), as in the public ports' params.ini (`WanderRad` 1.2).
    pub const DEFAULT_RADIUS: f32 = 1.2;
    /// Default projection distance ahead (m), ports' `WanderDist` 2.0.
    pub const DEFAULT_DISTANCE: f32 = 2.0;
    /// Default jitter per second (m/s); the ports use 80 units/s at 60 Hz in pixel units.
    pub const DEFAULT_JITTER: f32 = 10.0;
}

/// Obstacle avoidance's detection box (Buckland §2.7).
pub mod obstacle_avoidance {
    /// Default shortest detection box length (m); the text's ports use 40 units.
    pub const DEFAULT_MIN_BOX_LENGTH: f32 = 3.0;
    /// Buckland's `BrakingWeight`.
    pub const DEFAULT_BRAKING_WEIGHT: f32 = 0.2;
}

/// Wall avoidance's feelers (Buckland §2.8).
pub mod wall_avoidance {
    /// Default length of the middle feeler (m); the text's ports use 40 units.
    pub const DEFAULT_FEELER_LENGTH: f32 = 1.5;
    /// Default angle of the side feelers from the heading, degrees.
    pub const DEFAULT_SIDE_ANGLE_DEG: f32 = 45.0;
    /// Default length of the side feelers as a fraction of the middle one.
    pub const DEFAULT_SIDE_RATIO: f32 = 0.5;
}

/// Hide (Buckland §2.10).
pub mod hide {
    /// Buckland's `DistanceFromBoundary` is 30 units; in metres the default is 1.
    pub const DEFAULT_DISTANCE_FROM_BOUNDARY: f32 = 1.0;
}

/// Leader following (Buckland §2.15).
pub mod leader_following {
    /// Default distance behind the leader (m).
    pub const DEFAULT_DISTANCE: f32 = 1.5;
    /// Default half-width of the leader's path (m).
    pub const DEFAULT_CLEARANCE: f32 = 1.0;
    /// Default length of the leader's path ahead of it (m).
    pub const DEFAULT_LOOK_AHEAD: f32 = 3.0;
}
