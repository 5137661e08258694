//! Run metrics, SteerBench-style, computed by streaming the frames of a run (so the whole
//! recording is never held in memory): per agent and summed over the run.

use std::collections::{BTreeMap, HashSet};

use glam::Vec2;
use serde::{Deserialize, Serialize};

use super::frame::{ContactWith, Frame};

/// Metrics of one agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentMetrics {
    /// Agent id.
    pub id: u32,
    /// Whether the agent reached the end of its goal.
    pub reached_goal: bool,
    /// Seconds from the agent's first recorded frame to its arrival (None if it never arrived).
    pub completion_time: Option<f32>,
    /// Distance walked in metres.
    pub path_length: f32,
    /// Distinct contact episodes (agent–agent and agent–obstacle) deeper than the tolerance.
    pub collisions: u32,
    /// Deepest penetration in metres.
    pub max_penetration: f32,
    /// Position in the agent's last recorded frame.
    pub final_position: Vec2,
}

/// Totals over the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryMetrics {
    /// Agents that appeared in the run.
    pub agents: usize,
    /// Agents that reached their goal.
    pub agents_reached: usize,
    /// Distinct contact episodes in the whole run (an agent pair counts once per episode).
    pub collisions: u32,
    /// Deepest penetration in metres.
    pub max_penetration: f32,
    /// Ticks simulated.
    pub ticks: u64,
    /// Mean wall-clock milliseconds of one simulation step (stepping alone).
    pub ms_per_tick: f64,
    /// Wall-clock seconds of the whole run, recording included.
    pub wall_s: f64,
}

/// Per-agent and summary metrics of a run, as written by `crowdlab run --metrics`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Totals.
    pub summary: SummaryMetrics,
    /// One entry per agent that appeared, by id.
    pub agents: Vec<AgentMetrics>,
}

struct AgentTrack {
    metrics: AgentMetrics,
    first_time: f32,
    last_position: Vec2,
}

/// Accumulates metrics frame by frame.
#[derive(Default)]
pub struct MetricsAccumulator {
    agents: BTreeMap<u32, AgentTrack>,
    open_contacts: HashSet<(u32, ContactWith)>,
    episodes: u32,
    max_penetration: f32,
}

impl MetricsAccumulator {
    /// Takes the next frame of the run into account.
    pub fn observe(&mut self, frame: &Frame) {
        for a in &frame.agents {
            let track = self.agents.entry(a.id).or_insert_with(|| AgentTrack {
                metrics: AgentMetrics {
                    id: a.id,
                    reached_goal: false,
                    completion_time: None,
                    path_length: 0.0,
                    collisions: 0,
                    max_penetration: 0.0,
                    final_position: a.position,
                },
                first_time: frame.time,
                last_position: a.position,
            });
            track.metrics.path_length += a.position.distance(track.last_position);
            track.last_position = a.position;
            track.metrics.final_position = a.position;
            if a.arrived() && !track.metrics.reached_goal {
                track.metrics.reached_goal = true;
                track.metrics.completion_time = Some(frame.time - track.first_time);
            }
        }
        let mut now = HashSet::with_capacity(frame.contacts.len());
        for c in &frame.contacts {
            let key = (c.agent, c.with);
            now.insert(key);
            let new_episode = !self.open_contacts.contains(&key);
            self.episodes += u32::from(new_episode);
            self.max_penetration = self.max_penetration.max(c.depth);
            let involved = match c.with {
                ContactWith::Agent(other) => [Some(c.agent), Some(other)],
                ContactWith::Obstacle(_) => [Some(c.agent), None],
            };
            for id in involved.into_iter().flatten() {
                if let Some(track) = self.agents.get_mut(&id) {
                    track.metrics.collisions += u32::from(new_episode);
                    track.metrics.max_penetration = track.metrics.max_penetration.max(c.depth);
                }
            }
        }
        self.open_contacts = now;
    }

    /// The metrics so far, with the run's tick count and timings.
    pub fn finish(&self, ticks: u64, ms_per_tick: f64, wall_s: f64) -> Metrics {
        let agents: Vec<AgentMetrics> = self.agents.values().map(|t| t.metrics.clone()).collect();
        Metrics {
            summary: SummaryMetrics {
                agents: agents.len(),
                agents_reached: agents.iter().filter(|a| a.reached_goal).count(),
                collisions: self.episodes,
                max_penetration: self.max_penetration,
                ticks,
                ms_per_tick,
                wall_s,
            },
            agents,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{AgentSample, Contact, FLAG_ARRIVED};

    fn sample(id: u32, x: f32, flags: u8) -> AgentSample {
        AgentSample {
            id,
            position: Vec2::new(x, 0.0),
            velocity: Vec2::ZERO,
            heading: Vec2::X,
            preferred_velocity: Vec2::ZERO,
            steering: Vec2::ZERO,
            avoidance: Vec2::ZERO,
            state: 0,
            flags,
            force_start: 0,
            force_count: 0,
        }
    }

    fn frame(tick: u64, agents: Vec<AgentSample>, contacts: Vec<Contact>) -> Frame {
        Frame {
            tick,
            time: tick as f32 * 0.5,
            agents,
            forces: vec![],
            contacts,
            debug: vec![],
        }
    }

    #[test]
    fn path_length_completion_and_contact_episodes() {
        let touch = |depth| {
            vec![Contact {
                agent: 0,
                with: ContactWith::Agent(1),
                depth,
            }]
        };
        let mut acc = MetricsAccumulator::default();
        acc.observe(&frame(0, vec![sample(0, 0.0, 0), sample(1, 5.0, 0)], vec![]));
        acc.observe(&frame(1, vec![sample(0, 3.0, 0), sample(1, 5.0, 0)], touch(0.01)));
        acc.observe(&frame(2, vec![sample(0, 4.0, 0), sample(1, 5.0, 0)], touch(0.02)));
        acc.observe(&frame(3, vec![sample(0, 4.0, FLAG_ARRIVED), sample(1, 5.0, 0)], vec![]));
        acc.observe(&frame(
            4,
            vec![sample(0, 4.0, FLAG_ARRIVED), sample(1, 5.0, 0)],
            touch(0.005),
        ));
        let m = acc.finish(4, 0.1, 1.0);
        assert_eq!(m.summary.collisions, 2, "two separate episodes");
        assert_eq!(m.summary.agents_reached, 1);
        assert_eq!(m.agents[0].path_length, 4.0);
        assert_eq!(m.agents[0].completion_time, Some(1.5));
        assert_eq!(m.agents[1].collisions, 2);
        assert_eq!(m.summary.max_penetration, 0.02);
        assert_eq!(m.agents[0].final_position, Vec2::new(4.0, 0.0));
    }
}
