//! Per-tick analysis of a run for the timeline and the whole-run plots: a summary of every tick
//! (mean speed, contacts, arrivals, closest pair of agents) and the events worth a marker
//! (an agent arrives, a contact begins, an agent's mind state changes).
//!
//! The same [`Analyzer`] observes a live run's frames on the simulation worker and a loaded
//! recording's frames on a background scan, so both timelines show the same markers.

use glam::Vec2;
use rustc_hash::FxHashSet;

use crate::record::{AgentEvent, AgentSlots, ContactWith, Frame};

/// The whole-run numbers of one tick.
#[derive(Clone, Debug, PartialEq)]
pub struct TickSummary {
    /// The tick.
    pub tick: u64,
    /// Agents present (appeared and not yet left).
    pub present: u32,
    /// Mean speed of the present agents (m/s), 0 without agents.
    pub mean_speed: f32,
    /// Contacts (overlaps) existing after the tick.
    pub contacts: u32,
    /// Agents that have arrived so far, whether still present or gone (the evacuation curve).
    pub arrived: u32,
    /// Smallest centre-to-centre distance between two present agents (m), `None` with fewer than two.
    pub min_distance: Option<f32>,
    /// Agents stuck at the tick (standing still for a while short of their goal, as in the
    /// metrics' stuck count).
    pub stuck: u32,
    /// Present agents in each mind state, by state index (as long as the highest state present).
    pub states: Vec<u32>,
}

/// What happened at an event marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// The agent reached the end of its goal.
    Arrived,
    /// The agent began overlapping another agent or an obstacle.
    Collision,
    /// The agent's mind state changed to this state index.
    StateChange(u16),
}

/// One marker on the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimelineEvent {
    /// Tick at which it happened.
    pub tick: u64,
    /// The agent concerned.
    pub agent: u32,
    /// What happened.
    pub kind: EventKind,
}

/// Observes the frames of a run in tick order and reports each tick's summary and events.
#[derive(Default)]
pub struct Analyzer {
    slots: AgentSlots,
    /// Frames observed.
    frames: u64,
    /// By slot: the number of the frame (from 1) each agent was last seen in, and its mind state
    /// there; 0 for an agent not seen yet.
    last_seen: Vec<(u64, u16)>,
    /// Contacts of the previous frame.
    contacts: FxHashSet<(u32, ContactWith)>,
    /// By slot: whether the agent has arrived.
    arrived: Vec<bool>,
    /// Agents that have arrived so far.
    arrivals: u32,
}

impl Analyzer {
    /// The summary of `frame`, with `stuck` agents stuck in it (counted by the run's metrics), and
    /// the events that begin at it (nothing is an event in the first frame an agent appears in
    /// except arriving or colliding right away).
    pub fn observe(&mut self, frame: &Frame, stuck: u32) -> (TickSummary, Vec<TimelineEvent>) {
        let mut events = Vec::new();
        let mut event = |agent, kind| {
            events.push(TimelineEvent {
                tick: frame.tick,
                agent,
                kind,
            })
        };
        self.frames += 1;
        let now = self.frames;
        let slots = self.slots.assign(&frame.agents);
        for (a, &slot) in frame.agents.iter().zip(slots) {
            let slot = slot as usize;
            if a.arrived() && first_arrival(&mut self.arrived, slot) {
                self.arrivals += 1;
                event(a.id, EventKind::Arrived);
            }
            if slot >= self.last_seen.len() {
                self.last_seen.resize(slot + 1, (0, 0));
            }
            let (seen, state) = self.last_seen[slot];
            if seen > 0 && seen + 1 == now && state != a.state {
                event(a.id, EventKind::StateChange(a.state));
            }
            self.last_seen[slot] = (now, a.state);
        }
        for e in &frame.events {
            if let AgentEvent::Arrived { agent } = *e
                && first_arrival(&mut self.arrived, self.slots.slot_or_new(agent) as usize)
            {
                self.arrivals += 1;
                event(agent, EventKind::Arrived);
            }
        }
        let mut contacts = FxHashSet::with_capacity_and_hasher(frame.contacts.len(), Default::default());
        for c in &frame.contacts {
            let key = (c.agent, c.with);
            if !self.contacts.contains(&key) {
                event(c.agent, EventKind::Collision);
            }
            contacts.insert(key);
        }
        self.contacts = contacts;
        let mut summary = summarize(frame, self.arrivals);
        summary.stuck = stuck;
        (summary, events)
    }
}

/// Marks the agent of `slot` in `arrived` (by slot) as arrived; true if it had not arrived before.
fn first_arrival(arrived: &mut Vec<bool>, slot: usize) -> bool {
    if slot >= arrived.len() {
        arrived.resize(slot + 1, false);
    }
    !std::mem::replace(&mut arrived[slot], true)
}

/// The whole-run numbers of one frame, `arrived` agents having arrived so far.
fn summarize(frame: &Frame, arrived: u32) -> TickSummary {
    let n = frame.agents.len();
    let mean_speed = if n == 0 {
        0.0
    } else {
        frame.agents.iter().map(|a| a.velocity.length()).sum::<f32>() / n as f32
    };
    let positions: Vec<Vec2> = frame.agents.iter().map(|a| a.position).collect();
    let mut states = Vec::new();
    for a in &frame.agents {
        let state = usize::from(a.state);
        if states.len() <= state {
            states.resize(state + 1, 0);
        }
        states[state] += 1;
    }
    TickSummary {
        tick: frame.tick,
        present: n as u32,
        mean_speed,
        contacts: frame.contacts.len() as u32,
        arrived,
        min_distance: min_pair_distance(&positions),
        stuck: 0,
        states,
    }
}

/// The smallest distance between two of `points`, by a uniform grid whose cell is sized so a
/// handful of points share a cell (near-linear time for crowds spread over an area). The grid is
/// a copy of the points sorted by cell (a counting sort), so it costs no hashing and three
/// allocations however many points there are, and each pair of neighbouring cells is compared once.
pub fn min_pair_distance(points: &[Vec2]) -> Option<f32> {
    if points.len() < 2 {
        return None;
    }
    let (lo, hi) = points
        .iter()
        .fold((points[0], points[0]), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let extent = (hi - lo).max(Vec2::splat(1e-3));
    let mut cell = (extent.x * extent.y / points.len() as f32).sqrt().max(1e-3) * 2.0;
    let columns = |cell: f32| (extent / cell).as_uvec2().as_usizevec2() + 1;
    // A crowd strung out along a line would get more cells than points: fewer, larger cells.
    while columns(cell).element_product() > 4 * points.len() + 16 {
        cell *= 2.0;
    }
    let size = columns(cell);
    let cell_at = |p: Vec2| ((p - lo) / cell).as_uvec2().as_usizevec2().min(size - 1);
    let index = |c: glam::USizeVec2| c.y * size.x + c.x;
    // starts[c]..starts[c + 1] are the places of cell c's points in cell order.
    let mut starts = vec![0usize; size.element_product() + 1];
    for p in points {
        starts[index(cell_at(*p)) + 1] += 1;
    }
    for c in 1..starts.len() {
        starts[c] += starts[c - 1];
    }
    // The points in cell order: cell c's are sorted[starts[c]..starts[c + 1]].
    let mut sorted = vec![Vec2::ZERO; points.len()];
    let mut next = starts.clone();
    for p in points {
        let c = index(cell_at(*p));
        sorted[next[c]] = *p;
        next[c] += 1;
    }
    let in_cell = |x: usize, y: usize| {
        let at = y * size.x + x;
        &sorted[starts[at]..starts[at + 1]]
    };
    // Every pair within a cell or between neighbouring cells once: each cell with itself and with
    // the four of its eight neighbours that come after it. Squared distances, one square root at
    // the end: the square root is monotonic, so the root of the least square is the least
    // distance, to the bit.
    let mut best_squared = f32::INFINITY;
    for y in 0..size.y {
        for x in 0..size.x {
            let here = in_cell(x, y);
            for (k, p) in here.iter().enumerate() {
                for q in &here[k + 1..] {
                    best_squared = best_squared.min(p.distance_squared(*q));
                }
            }
            let right = x + 1 < size.x;
            let below = y + 1 < size.y;
            let neighbours = [
                right.then(|| (x + 1, y)),
                (below && x > 0).then(|| (x - 1, y + 1)),
                below.then(|| (x, y + 1)),
                (below && right).then(|| (x + 1, y + 1)),
            ];
            for (nx, ny) in neighbours.into_iter().flatten() {
                let there = in_cell(nx, ny);
                for p in here {
                    for q in there {
                        best_squared = best_squared.min(p.distance_squared(*q));
                    }
                }
            }
        }
    }
    let mut best = best_squared.sqrt();
    // The 3x3 search finds every pair closer than a cell; when none is, the closest pair may lie
    // further out, so fall back to the exact all-pairs answer (rare: a sparse handful of agents).
    if best > cell {
        best = points
            .iter()
            .enumerate()
            .flat_map(|(i, p)| points[i + 1..].iter().map(move |q| p.distance(*q)))
            .fold(f32::INFINITY, f32::min);
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{AgentSample, Contact, FLAG_ARRIVED};

    fn sample(id: u32, x: f32, flags: u8, state: u16) -> AgentSample {
        AgentSample {
            id,
            profile: 0,
            position: Vec2::new(x, 0.0),
            velocity: Vec2::new(1.0, 0.0),
            heading: Vec2::X,
            preferred_velocity: Vec2::ZERO,
            steering: Vec2::ZERO,
            avoidance: Vec2::ZERO,
            state,
            flags,
            force_start: 0,
            force_count: 0,
        }
    }

    #[test]
    fn events_mark_arrivals_contact_starts_and_state_changes_once() {
        let contact = vec![Contact {
            agent: 0,
            with: ContactWith::Agent(1),
            depth: 0.1,
        }];
        let frames = [
            (vec![sample(0, 0.0, 0, 0), sample(1, 3.0, 0, 0)], vec![]),
            (vec![sample(0, 1.0, 0, 0), sample(1, 3.0, 0, 0)], contact.clone()),
            (vec![sample(0, 2.0, 0, 0), sample(1, 3.0, 0, 0)], contact),
            (vec![sample(0, 2.0, FLAG_ARRIVED, 1), sample(1, 3.0, 0, 0)], vec![]),
            (vec![sample(0, 2.0, FLAG_ARRIVED, 1), sample(1, 3.0, 0, 0)], vec![]),
        ];
        let mut analyzer = Analyzer::default();
        let mut all = Vec::new();
        for (tick, (agents, contacts)) in frames.into_iter().enumerate() {
            let frame = Frame {
                tick: tick as u64,
                time: tick as f32 * 0.1,
                agents,
                contacts,
                ..Frame::default()
            };
            let (summary, events) = analyzer.observe(&frame, 0);
            assert_eq!(summary.mean_speed, 1.0);
            all.extend(events);
        }
        let kinds: Vec<(u64, u32, EventKind)> = all.iter().map(|e| (e.tick, e.agent, e.kind)).collect();
        assert_eq!(
            kinds,
            vec![
                (1, 0, EventKind::Collision),
                (3, 0, EventKind::Arrived),
                (3, 0, EventKind::StateChange(1)),
            ]
        );
    }

    #[test]
    fn summaries_count_agents_per_state_and_carry_the_runs_stuck_count() {
        let mut analyzer = Analyzer::default();
        for tick in 0..8u64 {
            let frame = Frame {
                tick,
                time: tick as f32,
                agents: vec![sample(0, 0.0, 0, 0), sample(1, tick as f32, 0, 0), sample(2, 5.0, 0, 2)],
                ..Frame::default()
            };
            let (summary, _) = analyzer.observe(&frame, tick as u32 / 3);
            assert_eq!(summary.states, vec![2, 0, 1]);
            assert_eq!(summary.stuck, tick as u32 / 3);
        }
    }

    #[test]
    fn closest_pair_matches_brute_force() {
        let points: Vec<Vec2> = (0..200)
            .map(|i| {
                let t = i as f32 * 0.7;
                Vec2::new((t * 3.1).sin() * 20.0 + t * 0.1, (t * 1.7).cos() * 15.0)
            })
            .collect();
        let brute = points
            .iter()
            .enumerate()
            .flat_map(|(i, p)| points[i + 1..].iter().map(move |q| p.distance(*q)))
            .fold(f32::INFINITY, f32::min);
        assert_eq!(min_pair_distance(&points), Some(brute));
        assert_eq!(min_pair_distance(&[Vec2::ZERO, Vec2::new(100.0, 0.0)]), Some(100.0));
        // Strung out along a line a million metres long (fewer, larger cells), with one near pair
        // and one agent far off to the side.
        let mut line: Vec<Vec2> = (0..500).map(|i| Vec2::new(i as f32 * 2000.0, 0.0)).collect();
        line.push(Vec2::new(123_456.0, 0.25));
        line.push(Vec2::new(123_456.5, 0.25));
        line.push(Vec2::new(5.0, 1e5));
        assert_eq!(min_pair_distance(&line), Some(0.5));
        assert_eq!(min_pair_distance(&[Vec2::ZERO]), None);
    }

    #[test]
    fn closest_pair_matches_brute_force_on_clustered_crowds_of_any_size() {
        for seed in 0..60u32 {
            let mut r = crate::test_rng::unit_floats(seed);
            let n = 2 + (r() * 300.0) as usize;
            // Clusters of various spreads, some points on top of one another.
            let spread = [0.01, 1.0, 50.0][seed as usize % 3];
            let centres: Vec<Vec2> = (0..3).map(|_| Vec2::new(r(), r()) * 100.0).collect();
            let mut points: Vec<Vec2> = (0..n)
                .map(|i| centres[i % 3] + Vec2::new(r() - 0.5, r() - 0.5) * spread)
                .collect();
            if seed % 7 == 0 {
                points.push(points[0]);
            }
            let brute = points
                .iter()
                .enumerate()
                .flat_map(|(i, p)| points[i + 1..].iter().map(move |q| p.distance(*q)))
                .fold(f32::INFINITY, f32::min);
            assert_eq!(
                min_pair_distance(&points),
                Some(brute),
                "seed {seed}, {} points",
                points.len()
            );
        }
    }

    #[test]
    fn a_state_change_counts_only_against_the_frame_before_and_an_arrival_only_once() {
        let frame = |tick: u64, agents: Vec<AgentSample>, events: Vec<AgentEvent>| Frame {
            tick,
            time: tick as f32 * 0.1,
            agents,
            events,
            ..Frame::default()
        };
        let frames = [
            frame(0, vec![sample(0, 0.0, 0, 0), sample(1, 3.0, 0, 0)], vec![]),
            // Agent 1 is away for a frame and comes back in another state: no change is seen.
            frame(1, vec![sample(0, 1.0, 0, 0)], vec![]),
            frame(2, vec![sample(0, 2.0, 0, 2), sample(1, 3.0, 0, 1)], vec![]),
            // Agent 7, never in a frame, arrives by event, twice; agent 0 by its flag, then by event.
            frame(
                3,
                vec![sample(0, 2.0, FLAG_ARRIVED, 2)],
                vec![AgentEvent::Arrived { agent: 7 }],
            ),
            frame(
                4,
                vec![],
                vec![AgentEvent::Arrived { agent: 7 }, AgentEvent::Arrived { agent: 0 }],
            ),
        ];
        let mut analyzer = Analyzer::default();
        let mut kinds = Vec::new();
        let mut arrived = Vec::new();
        for f in &frames {
            let (summary, events) = analyzer.observe(f, 0);
            arrived.push(summary.arrived);
            kinds.extend(events.iter().map(|e| (e.tick, e.agent, e.kind)));
        }
        assert_eq!(
            kinds,
            vec![
                (2, 0, EventKind::StateChange(2)),
                (3, 0, EventKind::Arrived),
                (3, 7, EventKind::Arrived),
            ]
        );
        assert_eq!(arrived, [0, 0, 0, 2, 2]);
    }

    proptest::proptest! {
        #![proptest_config(crate::test_rng::fixed_cases(64, 0xA11A_1E5E))]
        /// The timeline's summaries and events do not depend on the order of each frame's
        /// agents (but for the rounding of the mean speed's sum).
        #[test]
        fn the_analysis_is_the_same_whatever_the_order_of_a_frames_agents(seed in proptest::prelude::any::<u32>()) {
            let (ordered, shuffled) = crate::record::test_support::jumbled_run(seed);
            let analyse = |frames: &[Frame]| {
                let mut analyzer = Analyzer::default();
                frames
                    .iter()
                    .map(|f| {
                        let (summary, mut events) = analyzer.observe(f, 0);
                        events.sort_by_key(|e| (e.agent, format!("{:?}", e.kind)));
                        (summary, events)
                    })
                    .collect::<Vec<_>>()
            };
            let (a, b) = (analyse(&ordered), analyse(&shuffled));
            for ((mut sa, ea), (mut sb, eb)) in a.into_iter().zip(b) {
                proptest::prop_assert!((sa.mean_speed - sb.mean_speed).abs() <= 1e-5, "{} against {}", sa.mean_speed, sb.mean_speed);
                (sa.mean_speed, sb.mean_speed) = (0.0, 0.0);
                proptest::prop_assert_eq!(sa, sb);
                proptest::prop_assert_eq!(ea, eb);
            }
        }
    }
}
