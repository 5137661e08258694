//! Per-agent steering state that lives beside the agent, not in the shared snapshot: the agent's
//! seeded random generator (wander jitter, dithering draws), the wander target and the heading
//! smoother. During the parallel decision phase each agent mutates only its own state.

use glam::Vec2;
use rand::SeedableRng;
use rand_pcg::Pcg32;

use super::smoothing::HeadingSmoother;

/// Behaviour memory carried from tick to tick.
#[derive(Clone, Debug, PartialEq)]
pub struct SteerMemory {
    /// Wander target on the circle of the wander radius, local frame relative to the circle's centre.
    pub wander_target: Vec2,
}

/// All of one agent's private steering state.
#[derive(Clone, Debug)]
pub struct SteerState {
    /// The agent's own generator, seeded from the scene seed and the agent id.
    pub rng: Pcg32,
    /// Behaviour memory.
    pub memory: SteerMemory,
    /// Display-only heading smoother, when the profile asks for one.
    pub smoother: Option<HeadingSmoother>,
}

impl SteerState {
    /// The initial state of agent `agent_id` in a scene with `seed`, facing `heading`, smoothing
    /// its displayed heading over `smoothing_samples` ticks (0 = off).
    pub fn new(seed: u64, agent_id: u32, heading: Vec2, smoothing_samples: usize) -> SteerState {
        SteerState {
            rng: Pcg32::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(agent_id)),
            // Straight ahead; the first jitter moves it (drawing nothing here keeps the generator's
            // sequence the same for profiles that never wander).
            memory: SteerMemory { wander_target: Vec2::X },
            smoother: (smoothing_samples > 0).then(|| HeadingSmoother::new(smoothing_samples, heading)),
        }
    }

    /// The heading to display: smoothed when smoothing is on, else `heading` itself.
    pub fn display_heading(&self, heading: Vec2) -> Vec2 {
        self.smoother.as_ref().map_or(heading, |s| s.smoothed(heading))
    }
}
