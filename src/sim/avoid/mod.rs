//! Velocity-space avoidance (VO, RVO, ORCA, ClearPath): turns the preferred velocity into a
//! collision-free one. Until a method is configured the chosen velocity is the preferred one
//! (see `World::step`); the velocity-obstacle issue fills this module.
