//! Velocity-space avoidance (DESIGN.md pipeline step 3): turns an agent's preferred velocity
//! into the velocity it walks with, avoiding other agents, moving obstacles and static
//! obstacles. Methods: VO, RVO, ORCA (RVO2's algorithm), ClearPath (FVO) and Brandejský's
//! variant, chosen per profile ([`Avoidance`], whose parameters are in `scene::avoidance`).
//!
//! Every decision reads only the previous tick's snapshot ([`Snapshot`]) and the agent's own
//! preferred velocity, so agents decide in parallel and the result does not depend on the
//! thread count. Agents of a profile marked `non_reactive` are seen by the others as moving
//! obstacles that do not avoid: the others take full responsibility (apex at the obstacle's
//! velocity, ORCA responsibility 1).
//!
//! The chosen velocity is meant to be applied unchanged: ORCA's guarantee assumes it, so the
//! scene validator requires ORCA profiles to turn fast enough (`max_turn_rate_deg · dt ≥ 180°`)
//! that locomotion's turn-rate limit never alters it.

mod boundary;
mod cone;
mod cone_methods;
mod edge_cut;
mod half_planes;
mod headway;
mod line_quad;
mod lp;
mod neighbours;
mod obstacles;
mod orca;
mod preferred;
mod region;
mod region_boxes;
mod relaxation;
mod unstick;

pub use boundary::{BoundaryPiece, BoundaryScratch, Nearest, classify_boundary, nearest_free};
pub use cone::{Cone, Side};
pub use cone_methods::{ConeMethod, Horizons};
pub use lp::Line;
pub use neighbours::{Candidates, Mover, Neighbourhood, Snapshot};
pub use obstacles::AvoidObstacles;
pub use orca::{agent_line, orca_velocity};
pub use preferred::{agent_rng, toward_goal};
pub use region::Region;
pub use unstick::{Sidestep, StallMemory};

use headway::headway_limited;

use glam::Vec2;

use crate::record::AvoidanceDebug;
use crate::scene::avoidance::Avoidance;
use crate::sim::Body;

/// The avoiding agent's own state for one decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AvoidingAgent {
    /// Position (m).
    pub position: Vec2,
    /// Current velocity (m/s).
    pub velocity: Vec2,
    /// Body radius (m).
    pub radius: f32,
    /// Speed limit (m/s).
    pub max_speed: f32,
    /// The velocity it would like (m/s).
    pub preferred: Vec2,
}

impl Avoidance {
    /// The velocity `body` walks with this tick: `preferred` unchanged without avoidance,
    /// otherwise the method's choice among the neighbours in `candidates` for `preferred` capped by the method's time gap (`headway`). `scratch`
    /// is reused between calls; `debug`, when given, receives the constraints, the capped
    /// preferred and the chosen velocity.
    #[allow(clippy::too_many_arguments)]
    pub fn choose_velocity(
        &self,
        body: &Body,
        max_speed: f32,
        preferred: Vec2,
        candidates: Candidates,
        snap: &Snapshot,
        dt: f32,
        scratch: &mut Neighbourhood,
        debug: Option<&mut AvoidanceDebug>,
    ) -> Vec2 {
        let Some(reach) = self.reach() else {
            if let Some(d) = debug {
                d.preferred = preferred;
                d.chosen = preferred;
            }
            return preferred;
        };
        scratch.gather(body, max_speed, &reach, candidates, snap);
        let preferred = headway_limited(preferred, body.position, body.radius, &scratch.movers, reach.time_gap);
        let agent = AvoidingAgent {
            position: body.position,
            velocity: body.velocity,
            radius: body.radius,
            max_speed,
            preferred,
        };
        let horizons = Horizons {
            agents: reach.time_horizon,
            obstacles: reach.time_horizon_obst,
        };
        let mut constraints = debug.as_ref().map(|_| Vec::new());
        let chosen = match self {
            Avoidance::None => preferred,
            Avoidance::Orca(p) => orca_velocity(&agent, scratch, snap.obstacles, p, dt, constraints.as_mut()),
            Avoidance::Vo(_) => {
                ConeMethod::Vo.velocity(&agent, scratch, snap.obstacles, horizons, dt, constraints.as_mut())
            }
            Avoidance::Rvo(_) => {
                ConeMethod::Rvo.velocity(&agent, scratch, snap.obstacles, horizons, dt, constraints.as_mut())
            }
            Avoidance::ClearPath(p) => ConeMethod::ClearPath(p.variant).velocity(
                &agent,
                scratch,
                snap.obstacles,
                horizons,
                dt,
                constraints.as_mut(),
            ),
            Avoidance::Brandejsky(_) => {
                ConeMethod::Brandejsky.velocity(&agent, scratch, snap.obstacles, horizons, dt, constraints.as_mut())
            }
        };
        if let Some(d) = debug {
            d.preferred = preferred;
            d.chosen = chosen;
            d.max_speed = max_speed;
            d.constraints = constraints.unwrap_or_default();
        }
        chosen
    }
}
