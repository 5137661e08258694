//! The time series of one agent over a run — speed, acceleration, distance to its goal, each
//! behaviour's force, the combined steering force and the avoidance correction — read frame by
//! frame from the recording, a few milliseconds' worth at a time so the window stays fluid.

use std::time::{Duration, Instant};

use glam::Vec2;

use crate::record::{FrameSource, RecordingError, RecordingHeader};
use crate::scene::{Goal, Scene};

/// Points `[time s, value]` of one quantity, in tick order (ticks without the agent are absent).
pub type Series = Vec<[f64; 2]>;

/// A stretch of run time (seconds) the agent spent in one mind state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StateSpan {
    /// When the state began (or the agent appeared).
    pub from: f64,
    /// The last recorded time in the state.
    pub to: f64,
    /// The state's index in the header.
    pub state: u16,
}

/// Everything plotted for one agent, for the ticks read so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentSeries {
    /// The agent's id.
    pub agent: u32,
    /// Speed (m/s).
    pub speed: Series,
    /// Magnitude of the change of velocity per second (m/s²) since the previous recorded frame.
    pub acceleration: Series,
    /// Distance (m) from the agent to the fixed point its goal ends at, when it has one.
    pub distance_to_goal: Series,
    /// Magnitude of each behaviour's weighted force, by label index in the header: 0 at a tick
    /// where the agent's profile has the behaviour but it recorded no force.
    pub forces: Vec<(u16, Series)>,
    /// Magnitude of the combined steering force.
    pub steering: Series,
    /// Magnitude of the avoidance correction to the velocity.
    pub avoidance: Series,
    /// The agent's mind state over time, one span per stretch of consecutive recorded frames in
    /// one state.
    pub states: Vec<StateSpan>,
    /// The next tick to read.
    next: u64,
    /// Velocity and time of the agent's previous sample.
    previous: Option<(Vec2, f32)>,
}

impl AgentSeries {
    /// Empty series of agent `id`, to be read from the first recorded tick `first`.
    pub fn new(id: u32, first: u64) -> AgentSeries {
        AgentSeries {
            agent: id,
            next: first,
            ..AgentSeries::default()
        }
    }

    /// Reads the frames after those read so far, up to the source's newest tick or until
    /// `budget` has passed. Returns the share (0–1) of the recorded ticks read.
    pub fn extend(&mut self, source: &dyn FrameSource, budget: Duration) -> Result<f32, RecordingError> {
        let started = Instant::now();
        let (first, last) = source.tick_range();
        let stride = source.stride();
        let header = source.header();
        let goal = goal_point(header, self.agent);
        while self.next <= last && started.elapsed() < budget {
            let frame = source.frame(self.next)?;
            self.next += stride;
            let Some(a) = frame.agent(self.agent) else {
                self.previous = None;
                continue;
            };
            let t = f64::from(frame.time);
            self.extend_states(t, a.state);
            self.speed.push([t, f64::from(a.velocity.length())]);
            if let Some((velocity, time)) = self.previous.filter(|(_, time)| frame.time > *time) {
                let rate = (a.velocity - velocity).length() / (frame.time - time);
                self.acceleration.push([t, f64::from(rate)]);
            }
            self.previous = Some((a.velocity, frame.time));
            if let Some(goal) = goal {
                self.distance_to_goal.push([t, f64::from(a.position.distance(goal))]);
            }
            let forces = frame.forces_of(a);
            let profile_labels = header
                .agents
                .profiles
                .get(a.profile as usize)
                .map_or(&[][..], |p| &p.force_labels);
            let labels = profile_labels.iter().copied().chain(forces.iter().map(|f| f.label));
            for label in labels {
                let slot = match self.forces.iter().position(|(l, _)| *l == label) {
                    Some(slot) => slot,
                    None => {
                        self.forces.push((label, Vec::new()));
                        self.forces.len() - 1
                    }
                };
                let points = &mut self.forces[slot].1;
                if points.last().is_some_and(|p| p[0] == t) {
                    continue;
                }
                let force = forces
                    .iter()
                    .filter(|f| f.label == label)
                    .map(|f| f.force)
                    .sum::<Vec2>();
                points.push([t, f64::from(force.length())]);
            }
            self.steering.push([t, f64::from(a.steering.length())]);
            self.avoidance.push([t, f64::from(a.avoidance.length())]);
        }
        let span = (last - first + 1) as f32;
        Ok(((self.next.min(last + 1) - first) as f32 / span).clamp(0.0, 1.0))
    }

    /// Records that the agent was in `state` at time `t`, just after the frame read before (if
    /// the agent was in it).
    fn extend_states(&mut self, t: f64, state: u16) {
        let contiguous = self.previous.is_some();
        match self.states.last_mut() {
            Some(span) if contiguous && span.state == state => span.to = t,
            last => {
                let from = last.filter(|_| contiguous).map_or(t, |span| span.to);
                self.states.push(StateSpan { from, to: t, state });
            }
        }
    }

    /// True once every recorded tick up to `last` has been read.
    pub fn is_read_to(&self, last: u64) -> bool {
        self.next > last
    }
}

/// The fixed point agent `id`'s goal ends at: its target, or the end of an open path.
fn goal_point(header: &RecordingHeader, id: u32) -> Option<Vec2> {
    let goal = &header.agents.agent(id)?.goal;
    end_of(&header.scene, goal)
}

fn end_of(scene: &Scene, goal: &Goal) -> Option<Vec2> {
    match goal {
        Goal::Target(name) => scene.target(name).map(|t| t.position),
        Goal::Path(name) => scene
            .paths
            .iter()
            .find(|p| p.id == *name && !p.closed)
            .and_then(|p| p.points.last().copied()),
        Goal::AllOf(goals) => goals.last().and_then(|g| end_of(scene, g)),
        Goal::Targets { ids, cycle: false } => ids.last().and_then(|id| scene.target(id)).map(|t| t.position),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::record::MemoryRecording;
    use crate::scene::default_scene;
    use crate::sim::World;
    use crate::sim::run::header_for;

    #[test]
    fn the_series_hold_the_recorded_values_tick_by_tick() {
        let scene = Arc::new(default_scene());
        let mut world = World::new(scene.clone());
        let mut recording = MemoryRecording::new(header_for(&world));
        recording.push(world.snapshot_frame());
        for _ in 0..30 {
            recording.push(world.step());
        }
        let id = scene.agents[0].id;
        let mut series = AgentSeries::new(id, 0);
        // A zero budget reads nothing; a generous one reads everything.
        assert_eq!(series.extend(&recording, Duration::ZERO).unwrap(), 0.0);
        assert_eq!(series.extend(&recording, Duration::from_secs(10)).unwrap(), 1.0);
        assert!(series.is_read_to(30));
        assert_eq!(series.speed.len(), 31);
        assert_eq!(series.acceleration.len(), 30);
        let target = match &scene.agents[0].goal {
            Goal::Target(name) => scene.target(name).unwrap().position,
            other => panic!("the default scene's first agent walks to a target, not {other:?}"),
        };
        for tick in [0u64, 7, 30] {
            let frame = recording.frame(tick).unwrap();
            let a = frame.agent(id).unwrap();
            let i = tick as usize;
            assert_eq!(series.speed[i], [f64::from(frame.time), f64::from(a.velocity.length())]);
            assert_eq!(series.distance_to_goal[i][1], f64::from(a.position.distance(target)));
            assert_eq!(series.steering[i][1], f64::from(a.steering.length()));
            for (label, points) in &series.forces {
                let force: Vec2 = frame
                    .forces_of(a)
                    .iter()
                    .filter(|f| f.label == *label)
                    .map(|f| f.force)
                    .sum();
                assert_eq!(
                    points[i],
                    [f64::from(frame.time), f64::from(force.length())],
                    "label {label}"
                );
            }
        }
        let (v0, v1) = (
            recording.frame(0).unwrap().agent(id).unwrap().velocity,
            recording.frame(1).unwrap().agent(id).unwrap().velocity,
        );
        let dt = f64::from(scene.settings.dt);
        assert!((series.acceleration[0][1] - f64::from((v1 - v0).length()) / dt).abs() < 1e-4);
    }

    #[test]
    fn state_spans_join_consecutive_frames_and_break_at_changes_and_absences() {
        let mut series = AgentSeries::new(3, 0);
        let read = |series: &mut AgentSeries, t: f64, state: Option<u16>| match state {
            Some(state) => {
                series.extend_states(t, state);
                series.previous = Some((Vec2::ZERO, t as f32));
            }
            None => series.previous = None,
        };
        for (t, state) in [
            (0.0, Some(0)),
            (0.1, Some(0)),
            (0.2, Some(1)),
            (0.3, Some(1)),
            (0.4, None),
            (0.5, Some(1)),
        ] {
            read(&mut series, t, state);
        }
        let spans: Vec<(f64, f64, u16)> = series.states.iter().map(|s| (s.from, s.to, s.state)).collect();
        // The change at 0.2 s starts where the previous span ended; the absence at 0.4 s leaves a gap.
        assert_eq!(spans, vec![(0.0, 0.1, 0), (0.1, 0.3, 1), (0.5, 0.5, 1)]);
    }
}
