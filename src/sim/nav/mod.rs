//! Global navigation (Stria §1): the occupancy grid of the static obstacles, its quadtree, A* on
//! both, line-of-sight smoothing, an any-angle planner, and the routing table between regions.
//!
//! Any-angle planning: the `polyanya` crate (navigation-mesh Polyanya, MIT/Apache-2.0) was
//! considered, but it depends on glam 0.33 (crowdlab uses 0.30), `geo`, `spade`, `rstar` and,
//! by default, `rerecast` — a heavy second geometry stack for this 2-core build. crowdlab
//! therefore plans any-angle paths with Theta* on its own occupancy grid
//! ([`grid_search::AnyAngleGraph`]), which shares the grid, the border and the line-of-sight
//! test with the other planners.

pub mod astar;
pub mod grid_search;
pub mod occupancy;
pub mod planner;
pub mod quadtree;
pub mod routing;

pub use astar::{SearchGraph, SearchScratch};
pub use occupancy::{CellState, OccupancyGrid};
pub use planner::{NavMap, smooth};
pub use quadtree::Quadtree;
pub use routing::RoutingTable;
