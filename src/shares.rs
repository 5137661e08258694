//! Work cut into blocks and dealt out in shares, one per worker of the current rayon pool, the
//! same share to the same worker every time the same worker calls: the calling worker first takes
//! the blocks of the first share, front to back, the next worker (by index, round the pool) the
//! second, and so on; once its own are done a worker helps the others, taking blocks from the
//! back of the share with the most left. So a world's decide phase gives each agent to the same
//! worker tick after tick, and what that worker wrote of the agent in one tick (its mind, its
//! decision) is still in its CPU's cache in the next; rayon's own splitting hands a block to
//! whichever worker steals it, often the other one. One task per worker, not a broadcast: a worker
//! busy elsewhere holds nothing up, since a worker that runs both tasks does both shares.
//!
//! The first share goes to the calling worker, not to worker 0, because rayon's own splits in the
//! tick's other phases give the front of the crowd to the calling worker too (it runs the first
//! half of a parallel iterator and the first closure of a join): the frame's blocks and the flock
//! sums computed ahead for the next tick are then written mostly by the worker that reads them in
//! the decide phase. With the first share on worker 0 and the step called on worker 1, the two
//! phases crossed over, and on a VM whose two CPUs were on different dies (a cache line's hand-off
//! about 180–200 ns one way) the 10,000-fish shoal ran 1.37–1.47× faster on 2 threads than on 1 instead
//! of 1.57–1.67× (see `docs/performance.md`, "Where the host puts the two CPUs").
//!
//! Which worker does a block never changes what the block computes.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

/// The blocks of one share still to take, `front..back`, packed in one word so that its worker
/// (at the front) and a helper (at the back) never take the same block.
struct Share(AtomicU64);

impl Share {
    fn new(front: usize, back: usize) -> Share {
        Share(AtomicU64::new(pack(front, back)))
    }

    /// How many blocks are left.
    fn left(&self) -> usize {
        let (front, back) = unpack(self.0.load(Ordering::Relaxed));
        back.saturating_sub(front)
    }

    /// Takes the first block left, if any.
    fn take_front(&self) -> Option<usize> {
        self.take(|front, back| (front, pack(front + 1, back)))
    }

    /// Takes the last block left, if any.
    fn take_back(&self) -> Option<usize> {
        self.take(|front, back| (back - 1, pack(front, back - 1)))
    }

    /// Takes the block `pick` names among the blocks left (`front..back`, not empty), with the
    /// share that leaves, unless another worker changed the share first (then tries again).
    fn take(&self, pick: impl Fn(usize, usize) -> (usize, u64)) -> Option<usize> {
        let mut now = self.0.load(Ordering::Acquire);
        loop {
            let (front, back) = unpack(now);
            if front >= back {
                return None;
            }
            let (block, after) = pick(front, back);
            match self
                .0
                .compare_exchange_weak(now, after, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Some(block),
                Err(changed) => now = changed,
            }
        }
    }
}

/// `front..back` in one word, `front` in the high half.
fn pack(front: usize, back: usize) -> u64 {
    ((front as u64) << 32) | back as u64
}

/// The `front..back` [`pack`] packed.
fn unpack(word: u64) -> (usize, usize) {
    ((word >> 32) as usize, (word & u64::from(u32::MAX)) as usize)
}

/// Calls `work(state, block)` once for every one of `blocks` on the workers of the current rayon
/// pool (the global pool outside one), in shares as the module describes, the first share the
/// calling worker's; each worker that takes a block makes its `state` with `init` first, once
/// per call.
pub fn for_each_in_shares<B: Send, S>(blocks: Vec<B>, init: impl Fn() -> S + Sync, work: impl Fn(&mut S, B) + Sync) {
    let workers = rayon::current_num_threads();
    let count = blocks.len();
    if workers < 2 || count < 2 {
        let mut state = init();
        blocks.into_iter().for_each(|block| work(&mut state, block));
        return;
    }
    assert!(
        count <= u32::MAX as usize,
        "{count} blocks: more than a share can count"
    );
    let slots: Vec<Mutex<Option<B>>> = blocks.into_iter().map(|b| Mutex::new(Some(b))).collect();
    let shares: Vec<Share> = (0..workers)
        .map(|t| Share::new(t * count / workers, (t + 1) * count / workers))
        .collect();
    let run = |state: &mut Option<S>, i: usize| {
        let block = slots[i]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .expect("every block is taken once");
        work(state.get_or_insert_with(&init), block);
    };
    let caller = rayon::current_thread_index().unwrap_or(0);
    (0..workers).into_par_iter().with_max_len(1).for_each(|_| {
        let own = (rayon::current_thread_index().unwrap_or(0) + workers - caller % workers) % workers;
        let mut state = None;
        while let Some(i) = shares[own].take_front() {
            run(&mut state, i);
        }
        // Another helper may empty the fullest share between the look and the take: then look
        // again, until no share has a block left.
        while let Some(fullest) = shares.iter().max_by_key(|s| s.left()).filter(|s| s.left() > 0) {
            if let Some(i) = fullest.take_back() {
                run(&mut state, i);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn every_block_is_worked_once_on_any_pool() {
        for threads in [1, 2, 3, 8] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            for count in [0, 1, 2, 5, 64, 1000] {
                let done: Vec<AtomicUsize> = (0..count).map(|_| AtomicUsize::new(0)).collect();
                let inits = AtomicUsize::new(0);
                pool.install(|| {
                    for_each_in_shares(
                        (0..count).collect(),
                        || inits.fetch_add(1, Ordering::Relaxed),
                        |_, i: usize| {
                            done[i].fetch_add(1, Ordering::Relaxed);
                        },
                    )
                });
                assert!(
                    done.iter().all(|d| d.load(Ordering::Relaxed) == 1),
                    "{threads} threads, {count} blocks"
                );
                assert!(
                    inits.load(Ordering::Relaxed) <= threads.max(1),
                    "{threads} threads, {count} blocks"
                );
            }
        }
    }

    #[test]
    fn each_worker_starts_with_its_own_share_the_first_the_callers() {
        // Two workers, two blocks in each share; the first block either worker starts waits
        // until the other worker has started one too, so neither can do the whole first share
        // alone: each starts with the first block of its own, the calling worker with the first
        // share's, whichever of the two it is.
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for caller in [0, 1] {
            let taken = pool.broadcast(|worker| (worker.index() == caller).then(first_blocks_taken));
            assert_eq!(taken.into_iter().flatten().collect::<Vec<_>>(), [(caller, 1 - caller)]);
        }
    }

    /// Called on a worker of a 2-worker pool, which worker took block 0 and which block 2 of
    /// four blocks in two shares, when neither may take a second block before the other has
    /// taken one.
    fn first_blocks_taken() -> (usize, usize) {
        let started = AtomicUsize::new(0);
        let owner: Vec<AtomicUsize> = (0..4).map(|_| AtomicUsize::new(usize::MAX)).collect();
        for_each_in_shares(
            (0..4).collect(),
            || (),
            |_, i: usize| {
                owner[i].store(rayon::current_thread_index().unwrap(), Ordering::Relaxed);
                if started.fetch_add(1, Ordering::AcqRel) < 2 {
                    while started.load(Ordering::Acquire) < 2 {
                        std::hint::spin_loop();
                    }
                }
            },
        );
        let first = |i: usize| owner[i].load(Ordering::Relaxed);
        (first(0), first(2))
    }

    #[test]
    fn a_share_hands_out_its_blocks_from_both_ends_once() {
        let share = Share::new(3, 7);
        assert_eq!(share.left(), 4);
        assert_eq!(share.take_front(), Some(3));
        assert_eq!(share.take_back(), Some(6));
        assert_eq!(share.take_back(), Some(5));
        assert_eq!(share.take_front(), Some(4));
        assert_eq!((share.take_front(), share.take_back(), share.left()), (None, None, 0));
    }
}
