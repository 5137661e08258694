//! The mind layer (action selection): decides which point each agent heads for.
//!
//! For now an agent's mind follows its scene goal: a target, or a path waypoint by waypoint.
//! State machines, goal stacks and panic spreading build on this module.

mod route;

pub use route::{Route, RouteProgress};
