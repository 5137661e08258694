//! A fork-join whose helper stays on: the worker that takes the second half of a
//! `rayon::join` and finishes it first does not go back to the pool's idle loop, where it falls
//! asleep after a few dozen microseconds of finding nothing and must be woken again when the
//! first half deals out its parallel parts. It takes up the pool's pending work until the first
//! half is done.
//!
//! This pays where one half is short and the other long and ending in parallel work: a frame's
//! layout beside the flock's neighbour index, whose gathers are parallel and are followed at once
//! by the frame's blocks. Woken late, the helper missed most of the gathers and started the blocks
//! behind (measured in `docs/performance.md`, "A helper that stays awake").

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Sets its flag when dropped, so that the flag tells "done" even when the work panicked.
struct DoneOnDrop<'a>(&'a AtomicBool);

impl Drop for DoneOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Runs `first` and `second` as `rayon::join` does and returns both results; when another
/// worker takes `second` and finishes it while `first` still runs, that worker runs the pool's
/// pending work (yielding its CPU when there is none) until `first` is done, instead of idling.
/// On the worker that runs `first`, `second` never waits for it. The pending work it takes up may
/// be any of the pool's, as with a thread waiting inside `rayon::join`: a long job of other work
/// sharing the pool (a PNG export beside a live run) delays the return until that job is done.
pub fn join_keeping_awake<A, B, RA, RB>(first: A, second: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    let first_done = AtomicBool::new(false);
    // The index of the worker that runs `first` (both halves run on the pool's workers).
    let first_runner = AtomicUsize::new(usize::MAX);
    rayon::join(
        || {
            let _done = DoneOnDrop(&first_done);
            first_runner.store(rayon::current_thread_index().unwrap_or(usize::MAX), Ordering::Relaxed);
            first()
        },
        || {
            let result = second();
            // The worker of `first` may come to `second` while `first` waits for work it dealt
            // out (rayon takes up pending work there); waiting for `first` would then be waiting
            // for itself.
            let runs_first = rayon::current_thread_index().is_some_and(|t| t == first_runner.load(Ordering::Relaxed));
            while !runs_first && !first_done.load(Ordering::Acquire) {
                if rayon::yield_now() != Some(rayon::Yield::Executed) {
                    std::thread::yield_now();
                }
            }
            result
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
    }

    #[test]
    fn both_halves_run_and_return_their_results_at_any_thread_count() {
        for threads in [1, 2, 4] {
            let (a, b) = pool(threads).install(|| join_keeping_awake(|| 6 * 7, || "second"));
            assert_eq!((a, b), (42, "second"), "{threads} threads");
        }
    }

    #[test]
    fn parallel_work_of_the_first_half_completes_while_the_helper_waits() {
        use rayon::prelude::*;
        let (sum, ()) = pool(2).install(|| {
            join_keeping_awake(
                || {
                    (0..10_000u32)
                        .into_par_iter()
                        .with_min_len(100)
                        .map(u64::from)
                        .sum::<u64>()
                },
                || (),
            )
        });
        assert_eq!(sum, 10_000 * 9_999 / 2);
    }

    #[test]
    fn a_panic_in_the_first_half_reaches_the_caller_instead_of_hanging_the_helper() {
        let caught = pool(2).install(|| {
            std::panic::catch_unwind(|| {
                join_keeping_awake(
                    || -> u8 { panic!("first half failed") },
                    || std::thread::sleep(std::time::Duration::from_millis(5)),
                )
            })
        });
        assert!(caught.is_err());
    }
}
