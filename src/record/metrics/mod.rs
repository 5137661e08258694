//! Run metrics, computed by streaming the frames of a run (so the whole recording is never held
//! in memory): SteerBench's per-agent set and composite scores (anchors.md §4.4), and crowd
//! measures — density and speed in measurement areas, flow across measurement lines, evacuation
//! curve and time, stuck agents and deadlock.

mod areas;
mod steerbench;
mod stuck;
#[cfg(test)]
pub(crate) mod test_support;

use glam::Vec2;
use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};

use super::agent_slots::AgentSlots;
use super::frame::{AgentEvent, ContactWith, Frame};
use crate::scene::Scene;

use areas::SpaceMeasures;
pub use areas::{AreaSample, AreaSeries, Crossing, LineFlow};
use steerbench::SteerBenchTrack;
pub use steerbench::{CompositeScores, SteerBenchAgent};
pub use stuck::{STUCK_SECONDS, STUCK_SPEED};
use stuck::{StuckDetector, goal_less_agents};

/// Metrics of one agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentMetrics {
    /// Agent id.
    pub id: u32,
    /// Whether the agent reached the end of its goal.
    pub reached_goal: bool,
    /// Seconds from the agent's first recorded frame to its arrival (None if it never arrived).
    pub completion_time: Option<f32>,
    /// Distance walked in metres (SteerBench `totalDistanceTraveled`).
    pub path_length: f32,
    /// Distinct contact episodes (agent–agent and agent–obstacle) deeper than the tolerance
    /// (SteerBench `numUniqueCollisions`).
    pub collisions: u32,
    /// Deepest penetration in metres (SteerBench `maxCollisionPenetration`).
    pub max_penetration: f32,
    /// Position in the agent's last recorded frame.
    pub final_position: Vec2,
    /// Simulation time (s) of the agent's first recorded frame.
    pub start_time: f32,
    /// Simulation time (s) at which its speed first reached [`STUCK_SPEED`] (None if it never moved).
    pub first_move_time: Option<f32>,
    /// Simulation time (s) of its arrival (None if it never arrived).
    pub arrival_time: Option<f32>,
    /// Deepest penetration into a scene obstacle in metres (0 if it never touched one).
    pub max_obstacle_penetration: f32,
    /// The rest of SteerBench's per-agent measures.
    pub steerbench: SteerBenchAgent,
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
    /// SteerBench composite01 / composite02 scores and their terms.
    pub scores: CompositeScores,
}

/// Crowd-level measures of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CrowdMetrics {
    /// One density/speed series per scene measurement area.
    pub areas: Vec<AreaSeries>,
    /// One flow per scene measurement line.
    pub lines: Vec<LineFlow>,
    /// Every arrival time (s), ascending: the evacuation curve.
    pub arrival_times: Vec<f32>,
    /// Time (s) at which the last agent arrived, if every agent did.
    pub evacuation_time: Option<f32>,
    /// Agents that were stuck at some point (see `StuckDetector`).
    pub stuck_agents: Vec<u32>,
    /// First time (s) at which every unfinished agent was stuck, if ever.
    pub deadlock_time: Option<f32>,
}

/// Per-agent, summary and crowd metrics of a run, as written by `crowdlab run --metrics`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    /// Totals.
    pub summary: SummaryMetrics,
    /// One entry per agent that appeared, by id.
    pub agents: Vec<AgentMetrics>,
    /// Crowd measures.
    pub crowd: CrowdMetrics,
}

struct AgentTrack {
    metrics: AgentMetrics,
    steerbench: SteerBenchTrack,
}

/// Accumulates metrics frame by frame.
#[derive(Default)]
pub struct MetricsAccumulator {
    slots: AgentSlots,
    /// Every agent met so far, by slot.
    agents: Vec<AgentTrack>,
    /// By slot: whether the agent has a goal to reach (one without may stand still: never
    /// stuck). Kept apart from the tracks, so that the stuck check, which reads it for every
    /// agent, does not load a whole track for it.
    goal_directed: Vec<bool>,
    open_contacts: FxHashSet<(u32, ContactWith)>,
    episodes: u32,
    max_penetration: f32,
    space: SpaceMeasures,
    stuck: StuckDetector,
    /// Agents stuck in the frame observed last.
    stuck_now: u32,
    /// Agents without a goal (never stuck); empty when built without a scene.
    idle: FxHashSet<u32>,
}

impl MetricsAccumulator {
    /// An accumulator that also measures the scene's measurement areas and lines and knows
    /// which agents have no goal.
    pub fn new(scene: &Scene) -> MetricsAccumulator {
        MetricsAccumulator {
            space: SpaceMeasures::new(&scene.measurement_areas, &scene.measurement_lines),
            idle: goal_less_agents(scene),
            ..MetricsAccumulator::default()
        }
    }

    /// Agents stuck in the frame observed last (standing still [`STUCK_SECONDS`] short of their
    /// goal), for the per-tick stuck count of the timeline and plots.
    pub fn stuck_now(&self) -> u32 {
        self.stuck_now
    }

    /// Takes the next frame of the run into account.
    pub fn observe(&mut self, frame: &Frame) {
        let slots = self.slots.assign(&frame.agents);
        let known = self.agents.len();
        for (a, &slot) in frame.agents.iter().zip(slots) {
            if slot as usize >= self.agents.len() {
                self.agents.push(AgentTrack {
                    metrics: AgentMetrics {
                        id: a.id,
                        reached_goal: false,
                        completion_time: None,
                        path_length: 0.0,
                        collisions: 0,
                        max_penetration: 0.0,
                        final_position: a.position,
                        start_time: frame.time,
                        first_move_time: None,
                        arrival_time: None,
                        max_obstacle_penetration: 0.0,
                        steerbench: SteerBenchAgent::default(),
                    },
                    steerbench: SteerBenchTrack::default(),
                });
                self.goal_directed.push(!self.idle.contains(&a.id));
            }
        }
        let agents = &mut self.agents;
        // Agents met in this frame for the first time have no previous position.
        self.space.observe(frame, |i| {
            let slot = slots[i] as usize;
            (slot < known).then(|| agents[slot].metrics.final_position)
        });
        let goal_directed = &self.goal_directed;
        self.stuck_now = self.stuck.observe(frame, slots, |slot| goal_directed[slot as usize]) as u32;
        for (a, &slot) in frame.agents.iter().zip(slots) {
            let track = &mut agents[slot as usize];
            let m = &mut track.metrics;
            m.path_length += a.position.distance(m.final_position);
            m.final_position = a.position;
            if m.first_move_time.is_none() && a.velocity.length() >= STUCK_SPEED {
                m.first_move_time = Some(frame.time);
            }
            if a.arrived() && !m.reached_goal {
                m.reached_goal = true;
                m.arrival_time = Some(frame.time);
                m.completion_time = Some(frame.time - m.start_time);
            }
            track.steerbench.observe(frame.time, a);
        }
        // An agent that leaves through an exit arrives and is gone in the same tick: only the
        // event tells.
        for e in &frame.events {
            if let AgentEvent::Arrived { agent } = *e
                && let Some(m) = self.track_mut(agent).map(|t| &mut t.metrics)
                && !m.reached_goal
            {
                m.reached_goal = true;
                m.arrival_time = Some(frame.time);
                m.completion_time = Some(frame.time - m.start_time);
            }
        }
        self.observe_contacts(frame);
    }

    /// The track of agent `id`, if it has been met.
    fn track_mut(&mut self, id: u32) -> Option<&mut AgentTrack> {
        let slot = self.slots.slot(id)?;
        self.agents.get_mut(slot as usize)
    }

    fn observe_contacts(&mut self, frame: &Frame) {
        let mut now = FxHashSet::with_capacity_and_hasher(frame.contacts.len(), Default::default());
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
                if let Some(track) = self.track_mut(id) {
                    track.metrics.collisions += u32::from(new_episode);
                    track.metrics.max_penetration = track.metrics.max_penetration.max(c.depth);
                    if matches!(c.with, ContactWith::Obstacle(_)) {
                        track.metrics.max_obstacle_penetration = track.metrics.max_obstacle_penetration.max(c.depth);
                    }
                }
            }
        }
        self.open_contacts = now;
    }

    /// The metrics so far, with the run's tick count and timings.
    pub fn finish(&self, ticks: u64, ms_per_tick: f64, wall_s: f64) -> Metrics {
        let mut tracks: Vec<&AgentTrack> = self.agents.iter().collect();
        tracks.sort_unstable_by_key(|t| t.metrics.id);
        let agents: Vec<AgentMetrics> = tracks
            .into_iter()
            .map(|t| AgentMetrics {
                steerbench: t.steerbench.measures(),
                ..t.metrics.clone()
            })
            .collect();
        let mut arrival_times: Vec<f32> = agents.iter().filter_map(|a| a.arrival_time).collect();
        arrival_times.sort_by(f32::total_cmp);
        let all_arrived = !agents.is_empty() && arrival_times.len() == agents.len();
        let (areas, lines) = self.space.finish();
        Metrics {
            summary: SummaryMetrics {
                agents: agents.len(),
                agents_reached: arrival_times.len(),
                collisions: self.episodes,
                max_penetration: self.max_penetration,
                ticks,
                ms_per_tick,
                wall_s,
                scores: CompositeScores::from_agents(agents.iter().map(|a| (a.collisions, &a.steerbench))),
            },
            crowd: CrowdMetrics {
                areas,
                lines,
                evacuation_time: all_arrived.then(|| arrival_times.last().copied()).flatten(),
                arrival_times,
                stuck_agents: self.stuck.stuck_agents(),
                deadlock_time: self.stuck.deadlock_time(),
            },
            agents,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{frame, moving};
    use super::*;
    use crate::record::{AgentSample, Contact, FLAG_ARRIVED};
    use crate::scene::{MeasurementArea, MeasurementLine};

    fn sample(id: u32, x: f32, flags: u8) -> AgentSample {
        moving(id, Vec2::new(x, 0.0), Vec2::ZERO, flags)
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
        assert_eq!(m.agents[0].arrival_time, Some(1.5));
        assert_eq!(m.agents[1].collisions, 2);
        assert_eq!(m.summary.max_penetration, 0.02);
        assert_eq!(m.agents[0].final_position, Vec2::new(4.0, 0.0));
        assert_eq!(m.crowd.arrival_times, vec![1.5]);
        assert_eq!(m.crowd.evacuation_time, None, "agent 1 never arrived");
    }

    #[test]
    fn first_move_evacuation_time_and_obstacle_penetration() {
        let wall = vec![Contact {
            agent: 1,
            with: ContactWith::Obstacle(0),
            depth: 0.03,
        }];
        let v = Vec2::new(1.0, 0.0);
        let mut acc = MetricsAccumulator::default();
        acc.observe(&frame(0, vec![moving(0, Vec2::ZERO, v, 0)], vec![]));
        acc.observe(&frame(
            1,
            vec![moving(0, Vec2::X, v, FLAG_ARRIVED), moving(1, Vec2::Y, Vec2::ZERO, 0)],
            wall,
        ));
        acc.observe(&frame(2, vec![moving(1, Vec2::Y, Vec2::ZERO, 0)], vec![]));
        acc.observe(&frame(3, vec![moving(1, Vec2::new(0.5, 1.0), v, FLAG_ARRIVED)], vec![]));
        let m = acc.finish(3, 0.0, 0.0);
        assert_eq!(m.agents[0].first_move_time, Some(0.0));
        assert_eq!(m.agents[1].start_time, 0.5);
        assert_eq!(m.agents[1].first_move_time, Some(1.5));
        assert_eq!(m.agents[1].max_obstacle_penetration, 0.03);
        assert_eq!(m.agents[0].max_obstacle_penetration, 0.0);
        assert_eq!(m.crowd.arrival_times, vec![0.5, 1.5]);
        assert_eq!(m.crowd.evacuation_time, Some(1.5));
    }

    #[test]
    fn scene_areas_and_lines_are_measured() {
        let mut scene = Scene::empty();
        scene.measurement_areas.push(MeasurementArea {
            id: "box".into(),
            min: Vec2::new(-1.0, -1.0),
            max: Vec2::new(1.0, 1.0),
        });
        scene.measurement_lines.push(MeasurementLine {
            id: "gate".into(),
            a: Vec2::new(2.0, 5.0),
            b: Vec2::new(2.0, -5.0),
        });
        let mut acc = MetricsAccumulator::new(&scene);
        let v = Vec2::new(2.0, 0.0);
        acc.observe(&frame(
            0,
            vec![
                moving(0, Vec2::ZERO, v, 0),
                moving(1, Vec2::new(0.5, 0.0), Vec2::ZERO, 0),
            ],
            vec![],
        ));
        acc.observe(&frame(
            1,
            vec![
                moving(0, Vec2::new(3.0, 0.0), v, 0),
                moving(1, Vec2::new(0.5, 0.0), Vec2::ZERO, 0),
            ],
            vec![],
        ));
        let m = acc.finish(1, 0.0, 0.0);
        let area = &m.crowd.areas[0];
        assert_eq!(area.samples.len(), 2);
        assert_eq!(
            (
                area.samples[0].count,
                area.samples[0].density,
                area.samples[0].mean_speed
            ),
            (2, 0.5, 1.0)
        );
        assert_eq!((area.samples[1].count, area.samples[1].density), (1, 0.25));
        assert_eq!(area.peak_density, 0.5);
        assert_eq!(m.crowd.lines[0].crossings.len(), 1);
        assert_eq!(
            m.crowd.lines[0].net_count, 1,
            "crossing a downward line toward +x ends on its left: positive"
        );
    }

    #[test]
    fn the_jumbled_runs_have_stuck_agents_contacts_and_arrivals_by_event() {
        let (mut stuck, mut contacts, mut by_event) = (0, 0, 0);
        for seed in 0..16 {
            let (frames, _) = test_support::jumbled_run(seed);
            let mut acc = MetricsAccumulator::default();
            frames.iter().for_each(|f| acc.observe(f));
            stuck += acc.finish(40, 0.0, 0.0).crowd.stuck_agents.len();
            contacts += frames.iter().map(|f| f.contacts.len()).sum::<usize>();
            by_event += frames.iter().map(|f| f.events.len()).sum::<usize>();
        }
        assert!(
            stuck > 0 && contacts > 0 && by_event > 0,
            "{stuck} {contacts} {by_event}"
        );
    }

    proptest::proptest! {
        #![proptest_config(crate::test_rng::fixed_cases(64, 0x5107_5EED))]
        /// The metrics of a run do not depend on the order of each frame's agents: the slots
        /// found by following the previous frame's order and those found by hashing agree.
        #[test]
        fn the_metrics_are_the_same_whatever_the_order_of_a_frames_agents(seed in proptest::prelude::any::<u32>()) {
            let (ordered, shuffled) = test_support::jumbled_run(seed);
            let metrics = |frames: &[Frame]| {
                let mut acc = MetricsAccumulator::default();
                let stuck: Vec<u32> = frames.iter().map(|f| { acc.observe(f); acc.stuck_now() }).collect();
                (acc.finish(40, 0.0, 0.0), stuck)
            };
            let (m, stuck) = metrics(&ordered);
            proptest::prop_assert_eq!(metrics(&shuffled), (m.clone(), stuck));
            proptest::prop_assert_eq!(m.agents.len(), 10);
        }
    }
}
