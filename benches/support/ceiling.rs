//! The machine's own ceiling for a 2-thread speed-up: two independent 1-thread worlds stepped at
//! once. On a VM whose two cores may share one physical core, that pair runs less than twice as
//! fast as one world alone, and no 2-thread run of the same work can do better. (Needs
//! `support/turns.rs` as the bench's `turns` module.)

use std::sync::Arc;
use std::time::Instant;

use crowdlab::scene::Scene;
use rayon::ThreadPool;

use crate::turns::{Stepper, world_on};

/// Two 1-thread worlds of `scene` (after `warm_up` untimed ticks) stepped at once, one on each of
/// two 1-thread `pools`: a turn lasts until both are done. Twice a lone 1-thread world's time over
/// it is the speed-up the machine gives two jobs that never wait for each other.
pub fn two_at_once(pools: [&Arc<ThreadPool>; 2], scene: &Arc<Scene>, warm_up: usize) -> Stepper<'static> {
    let (mut a, mut b) = (world_on(pools[0], scene, warm_up), world_on(pools[1], scene, warm_up));
    Box::new(move |ticks| {
        let t = Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| a(ticks));
            b(ticks);
        });
        t.elapsed()
    })
}
