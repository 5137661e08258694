//! Global navigation (occupancy grid, A*, smoothing, regions/portals/gates, navmesh paths).
//! Filled by the global-navigation issue; routes currently come straight from scene goals.
