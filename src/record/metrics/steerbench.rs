//! SteerBench's per-agent measures (anchors.md §4.4, SteerSuite `AgentMetrics`), accumulated
//! from consecutive samples of one agent, and the composite01 / composite02 scores.
//!
//! As in SteerBench the mass is 1 for the energies. Instantaneous values are taken between two
//! consecutive samples of the agent (`dt` = their time difference); an agent is *enabled* from its
//! first sample until the sample in which it has arrived.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::record::AgentSample;

/// Principle-of-least-effort constant e_s in J/(kg·s) (Guy et al., as in SteerBench's `pleEnergy`).
pub const PLE_E_S: f32 = 2.23;
/// Principle-of-least-effort constant e_w in J·s/(kg·m²).
pub const PLE_E_W: f32 = 1.26;
/// composite01/02 weight α of the mean collision count (CAVW 2008).
pub const COMPOSITE_ALPHA: f32 = 50.0;
/// composite01/02 weight β of the mean time enabled.
pub const COMPOSITE_BETA: f32 = 1.0;
/// composite01/02 weight γ of the mean Σ instantaneous kinetic energy.
pub const COMPOSITE_GAMMA: f32 = 1.0;
/// composite02 weight δ of the mean Σ instantaneous acceleration.
pub const COMPOSITE_DELTA: f32 = 1.0;

/// SteerBench measures of one agent that are not already top-level fields of its metrics
/// (unique collisions, max penetration and distance are `collisions`, `max_penetration`, `path_length`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SteerBenchAgent {
    /// SteerBench `collisionScore`: +1 for every sample in which the agent overlaps something.
    pub collision_frames: u32,
    /// Longest uninterrupted time (s) spent overlapping something.
    pub max_time_in_collision: f32,
    /// Total time (s) spent overlapping something.
    pub total_time_in_collision: f32,
    /// Samples in which the agent was enabled (present and not yet arrived).
    pub frames_enabled: u32,
    /// Seconds the agent was enabled.
    pub time_enabled: f32,
    /// Sum of the absolute heading changes, in degrees.
    pub total_degrees_turned: f32,
    /// Largest heading change rate, in degrees per second.
    pub max_angular_speed_deg: f32,
    /// Mean speed over the samples (m/s).
    pub mean_speed: f32,
    /// Largest instantaneous speed (m/s).
    pub max_speed: f32,
    /// Sum of the absolute speed changes between samples (m/s).
    pub total_change_in_speed: f32,
    /// Largest speed change between two samples (m/s).
    pub max_change_in_speed: f32,
    /// SteerBench `sumTotalOfInstantaneousAcceleration`: Σ |Δv / dt| (m/s²).
    pub sum_acceleration: f32,
    /// SteerBench `totalAcceleration`: ∫ |a| dt = Σ |Δv| (m/s).
    pub total_acceleration: f32,
    /// Mean instantaneous acceleration magnitude (m/s²).
    pub mean_acceleration: f32,
    /// Largest instantaneous acceleration magnitude (m/s²).
    pub max_acceleration: f32,
    /// Σ ½|v|² over the samples (J for mass 1).
    pub sum_kinetic_energy: f32,
    /// ∫ ½|v|² dt (J·s for mass 1).
    pub integral_kinetic_energy: f32,
    /// Mean instantaneous kinetic energy (J for mass 1).
    pub average_kinetic_energy: f32,
    /// Principle-of-least-effort energy ∫ (e_s + e_w·|v|²) dt over the enabled time (J for mass 1).
    pub ple_energy: f32,
}

/// Accumulates [`SteerBenchAgent`] from the agent's samples in time order.
#[derive(Clone, Debug, Default)]
pub struct SteerBenchTrack {
    measures: SteerBenchAgent,
    samples: u32,
    speed_sum: f32,
    acceleration_samples: u32,
    collision_run: f32,
    previous: Option<(f32, Vec2, Vec2, bool)>,
}

impl SteerBenchTrack {
    /// Takes the agent's sample at `time` into account.
    pub fn observe(&mut self, time: f32, sample: &AgentSample) {
        let m = &mut self.measures;
        let speed = sample.velocity.length();
        let energy = 0.5 * speed * speed;
        self.samples += 1;
        self.speed_sum += speed;
        m.max_speed = m.max_speed.max(speed);
        m.sum_kinetic_energy += energy;
        if !sample.arrived() {
            m.frames_enabled += 1;
        }
        if sample.colliding() {
            m.collision_frames += 1;
        }
        if let Some((t0, v0, h0, was_enabled)) = self.previous {
            let dt = time - t0;
            if dt > 0.0 {
                let turned = h0.angle_to(sample.heading).abs().to_degrees();
                m.total_degrees_turned += turned;
                m.max_angular_speed_deg = m.max_angular_speed_deg.max(turned / dt);
                let dv = (sample.velocity - v0).length();
                let acceleration = dv / dt;
                m.sum_acceleration += acceleration;
                m.total_acceleration += dv;
                m.max_acceleration = m.max_acceleration.max(acceleration);
                self.acceleration_samples += 1;
                let dspeed = (speed - v0.length()).abs();
                m.total_change_in_speed += dspeed;
                m.max_change_in_speed = m.max_change_in_speed.max(dspeed);
                m.integral_kinetic_energy += energy * dt;
                if was_enabled {
                    m.time_enabled += dt;
                    m.ple_energy += (PLE_E_S + PLE_E_W * speed * speed) * dt;
                }
                if sample.colliding() {
                    self.collision_run += dt;
                    m.total_time_in_collision += dt;
                    m.max_time_in_collision = m.max_time_in_collision.max(self.collision_run);
                }
            }
        }
        if !sample.colliding() {
            self.collision_run = 0.0;
        }
        self.previous = Some((time, sample.velocity, sample.heading, !sample.arrived()));
    }

    /// The measures so far (means over the samples seen).
    pub fn measures(&self) -> SteerBenchAgent {
        let mut m = self.measures.clone();
        if self.samples > 0 {
            m.mean_speed = self.speed_sum / self.samples as f32;
            m.average_kinetic_energy = m.sum_kinetic_energy / self.samples as f32;
        }
        if self.acceleration_samples > 0 {
            m.mean_acceleration = m.sum_acceleration / self.acceleration_samples as f32;
        }
        m
    }
}

/// SteerBench's composite scores over all agents (lower is better).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompositeScores {
    /// composite01 = α·C̄ + β·T̄ + γ·Ē (α = 50, β = γ = 1).
    pub composite01: f32,
    /// composite02 = composite01 + δ·Ā (δ = 1).
    pub composite02: f32,
    /// C̄: mean unique collisions per agent.
    pub mean_collisions: f32,
    /// T̄: mean time enabled (s).
    pub mean_time_enabled: f32,
    /// Ē: mean Σ instantaneous kinetic energy.
    pub mean_kinetic_energy_sum: f32,
    /// Ā: mean Σ instantaneous acceleration.
    pub mean_acceleration_sum: f32,
}

impl CompositeScores {
    /// Scores from each agent's (unique collisions, SteerBench measures).
    pub fn from_agents<'a>(agents: impl Iterator<Item = (u32, &'a SteerBenchAgent)>) -> CompositeScores {
        let (mut n, mut c, mut t, mut e, mut a) = (0u32, 0.0, 0.0, 0.0, 0.0);
        for (collisions, m) in agents {
            n += 1;
            c += collisions as f32;
            t += m.time_enabled;
            e += m.sum_kinetic_energy;
            a += m.sum_acceleration;
        }
        if n == 0 {
            return CompositeScores::default();
        }
        let n = n as f32;
        let (c, t, e, a) = (c / n, t / n, e / n, a / n);
        let composite01 = COMPOSITE_ALPHA * c + COMPOSITE_BETA * t + COMPOSITE_GAMMA * e;
        CompositeScores {
            composite01,
            composite02: composite01 + COMPOSITE_DELTA * a,
            mean_collisions: c,
            mean_time_enabled: t,
            mean_kinetic_energy_sum: e,
            mean_acceleration_sum: a,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::moving;
    use super::*;
    use crate::record::{FLAG_ARRIVED, FLAG_COLLIDING};

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn turning_speed_acceleration_and_energy_of_a_known_trajectory() {
        // Speed 1 along +x, then speed 2 along +y (a 90° turn), then 2 along −x (another 90°); dt = 0.5 s.
        let mut track = SteerBenchTrack::default();
        track.observe(0.0, &moving(0, Vec2::ZERO, Vec2::new(1.0, 0.0), 0));
        track.observe(0.5, &moving(0, Vec2::new(0.5, 0.0), Vec2::new(0.0, 2.0), 0));
        track.observe(1.0, &moving(0, Vec2::new(0.5, 1.0), Vec2::new(-2.0, 0.0), FLAG_ARRIVED));
        let m = track.measures();
        assert!(close(m.total_degrees_turned, 180.0));
        assert!(close(m.max_angular_speed_deg, 180.0), "90° in 0.5 s");
        assert!(close(m.max_speed, 2.0));
        assert!(close(m.mean_speed, 5.0 / 3.0));
        assert!(close(m.total_change_in_speed, 1.0));
        assert!(close(m.max_change_in_speed, 1.0));
        // |Δv| = √5 then √8; accelerations are twice that.
        let (d1, d2) = (5f32.sqrt(), 8f32.sqrt());
        assert!(close(m.total_acceleration, d1 + d2));
        assert!(close(m.sum_acceleration, 2.0 * (d1 + d2)));
        assert!(close(m.max_acceleration, 2.0 * d2));
        assert!(close(m.mean_acceleration, d1 + d2));
        // KE = 0.5, 2, 2.
        assert!(close(m.sum_kinetic_energy, 4.5));
        assert!(close(m.integral_kinetic_energy, 2.0));
        assert!(close(m.average_kinetic_energy, 1.5));
        // Enabled in the first two samples only: time enabled covers both intervals that start enabled.
        assert_eq!(m.frames_enabled, 2);
        assert!(close(m.time_enabled, 1.0));
        assert!(close(m.ple_energy, 2.0 * (PLE_E_S * 0.5) + PLE_E_W * (4.0 + 4.0) * 0.5));
    }

    #[test]
    fn time_in_collision_counts_the_longest_uninterrupted_episode() {
        let mut track = SteerBenchTrack::default();
        let flags = [
            0,
            FLAG_COLLIDING,
            FLAG_COLLIDING,
            FLAG_COLLIDING,
            0,
            FLAG_COLLIDING,
            FLAG_COLLIDING,
        ];
        for (i, f) in flags.iter().enumerate() {
            track.observe(i as f32 * 0.1, &moving(0, Vec2::ZERO, Vec2::ZERO, *f));
        }
        let m = track.measures();
        assert_eq!(m.collision_frames, 5);
        assert!(close(m.max_time_in_collision, 0.3));
        assert!(close(m.total_time_in_collision, 0.5));
    }

    #[test]
    fn composite_scores_follow_the_cavw_weights() {
        let a = SteerBenchAgent {
            time_enabled: 10.0,
            sum_kinetic_energy: 20.0,
            sum_acceleration: 4.0,
            ..SteerBenchAgent::default()
        };
        let b = SteerBenchAgent {
            time_enabled: 30.0,
            sum_kinetic_energy: 40.0,
            sum_acceleration: 8.0,
            ..SteerBenchAgent::default()
        };
        let s = CompositeScores::from_agents([(1, &a), (0, &b)].into_iter());
        assert!(close(s.mean_collisions, 0.5));
        assert!(close(s.composite01, 50.0 * 0.5 + 20.0 + 30.0));
        assert!(close(s.composite02, s.composite01 + 6.0));
        assert_eq!(
            CompositeScores::from_agents(std::iter::empty()),
            CompositeScores::default()
        );
    }
}
