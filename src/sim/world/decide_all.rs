//! The think and decide phases over the whole crowd ([`World::think_and_decide_all`]): each
//! present agent's mind, then its move, from the snapshot of the previous tick, in blocks dealt
//! out to the workers in shares.

use std::sync::atomic::{AtomicBool, Ordering};

use super::decide::{Decision, Scratch, SnapshotView};
use super::{MindShown, World};
use crate::shares::for_each_in_shares;
use crate::sim::StaticGeometry;
use crate::sim::mind::{MindEvent, Senses, Signals, exit_loads};
use crate::sim::nav::SearchScratch;

thread_local! {
    /// Each worker thread's A* memory, reused across ticks (Stria's per-simulator pool).
    static SCRATCH: std::cell::RefCell<SearchScratch> = std::cell::RefCell::new(SearchScratch::default());
}

/// Bounds on the agents per block of the decide phase ([`decide_block_len`]): about 10 to 40 µs
/// of deciding in the ORCA Circle and the 10,000-fish flock.
const DECIDE_BLOCK: std::ops::RangeInclusive<usize> = 16..=64;

/// How many agents a block of the decide phase, the longest, holds: the crowd's share of 64
/// blocks per thread, within [`DECIDE_BLOCK`], so that a thread that starts late or finishes
/// early still finds work and the last block is short (a thread makes its buffers once a tick,
/// however many blocks it takes).
fn decide_block_len(agents: usize) -> usize {
    let threads = rayon::current_num_threads();
    (agents / (64 * threads)).clamp(*DECIDE_BLOCK.start(), *DECIDE_BLOCK.end())
}

impl World {
    /// Every present agent's mind decides its destination (think), then the agent its move
    /// (decide), and the mind takes in where the move ends (its event and what the frame shows
    /// of it go into the decision, so that later phases need not read the mind),
    /// written into `decisions` (indexed like the bodies; `None` for absent agents) — in
    /// parallel from the snapshot of the previous tick, in one pass: a mind reads only the
    /// snapshot and the signals, a decision only the snapshot and its own mind. The agents go
    /// to the workers in blocks dealt out in shares ([`for_each_in_shares`]), so each agent's
    /// mind and decision stay in one worker's cache from tick to tick (see `docs/performance.md`,
    /// "Agents in shares"). What `decisions` held, last tick's, lends its memory. The same pass
    /// writes each agent's body as its decision moves it into [`World::moved`] (a copy of the
    /// snapshot's for absent agents), so no second pass over the crowd moves them. True when
    /// some mind reported an event of its move.
    pub(super) fn think_and_decide_all(&mut self, decisions: &mut Vec<Option<Decision>>) -> bool {
        let time = self.time();
        let scene = &*self.scene;
        // Only state machines read signals (a mind's driver is fixed when it is made).
        let signals: Vec<Signals> = if self.machines {
            self.minds.iter().map(|m| m.mind.signals(scene, time)).collect()
        } else {
            Vec::new()
        };
        let radius = scene.evacuation.balancing.as_ref().map_or(0.0, |b| b.crowd_radius);
        let exit_load = exit_loads(&self.map, &self.bodies, radius);
        let view = SnapshotView {
            scene,
            profiles: &self.profiles,
            bodies: &self.bodies,
            non_reactive: &self.non_reactive,
            grid: &self.grid,
            statics: &self.statics,
            steer_obstacles: &self.steer_obstacles,
            avoid_obstacles: &self.avoid_obstacles,
            agents: &self.agent_index,
            max_radius: self.max_radius,
            time,
            tick: self.tick,
            debug_agent: self.debug_agent,
            ahead: &self.ahead,
        };
        let senses = |index: usize| Senses {
            index,
            bodies: &self.bodies,
            signals: &signals,
            neighbours: &self.grid,
            map: &self.map,
            scene,
            exit_load: &exit_load,
            time,
            tick: self.tick,
            dt: scene.settings.dt,
        };
        // A mind sees from where the move ends, at the time after the tick.
        let (map, statics) = (&self.map, &self.statics);
        let sees = sight(statics, self.time_at(self.tick + 1));
        decisions.resize_with(self.bodies.len(), || None);
        let mut moved = std::mem::take(&mut self.moved);
        if moved.len() != self.bodies.len() {
            moved.clone_from(&self.bodies);
        }
        let reported = AtomicBool::new(false);
        let len = decide_block_len(self.bodies.len());
        let blocks: Vec<_> = (decisions.chunks_mut(len))
            .zip(moved.chunks_mut(len))
            .zip(self.minds.chunks_mut(len))
            .enumerate()
            .collect();
        let bodies = &self.bodies;
        for_each_in_shares(blocks, Scratch::default, |scratch, (block, ((slots, nexts), minds))| {
            let agents = slots.iter_mut().zip(nexts).zip(minds).enumerate();
            for (k, ((slot, next), mind)) in agents {
                let index = block * len + k;
                let body = &bodies[index];
                *next = *body;
                if !body.status.present() {
                    *slot = None;
                    continue;
                }
                SCRATCH.with(|search| mind.mind.think(&senses(index), &mut search.borrow_mut()));
                let decision = slot.get_or_insert_with(Decision::default);
                view.decide(index, body, mind, scratch, decision);
                decision.event = mind.mind.after_move(decision.position, scene, map, &sees);
                decision.shown = MindShown::of(mind, decision.heading);
                if decision.event != MindEvent::None {
                    reported.store(true, Ordering::Relaxed);
                }
                next.position = decision.position;
                next.velocity = decision.velocity;
                next.heading = decision.heading;
            }
        });
        self.moved = moved;
        reported.into_inner()
    }
}

/// The line-of-sight test of the minds at `time`: whether `b` is in sight from `a`, no static
/// obstacle or wall crossing the segment between them (a point sees itself).
fn sight(statics: &StaticGeometry, time: f32) -> impl Fn(glam::Vec2, glam::Vec2) -> bool + Sync + '_ {
    move |a, b| {
        let along = b - a;
        along
            .try_normalize()
            .is_none_or(|dir| statics.cast_ray(a, dir, along.length(), time).is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_crowds_get_smaller_decide_blocks() {
        // Room for 64 blocks per thread, of 16 to 64 agents each: Circle 5,000's crowd is cut
        // into blocks of 39 agents on 2 threads, 1,000's of 16, a big crowd's of 64.
        let on = |threads: usize, agents: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| decide_block_len(agents))
        };
        assert_eq!(on(2, 10_000), 64);
        assert_eq!(on(2, 5_000), 39);
        assert_eq!(on(2, 1_000), 16);
        assert_eq!(on(2, 100), 16);
        assert_eq!(on(1, 1_000), 16);
        assert_eq!(on(1, 10_000), 64);
    }
}
