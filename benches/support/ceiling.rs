//! The machine's own ceiling for a 2-thread speed-up: two independent 1-thread runs at once.
//! On a VM whose two cores may share one physical core, that pair runs less than twice as fast
//! as one run alone, and no 2-thread run of the same work can do better.

/// The time of the slower of two runs of `run` started at once on two threads (each returning
/// its own time per unit of work): twice a lone run's time over it is the speed-up the machine
/// gives two jobs that never wait for each other.
pub fn slower_of_two_at_once(run: impl Fn() -> f64 + Sync) -> f64 {
    std::thread::scope(|s| {
        let runs = [s.spawn(&run), s.spawn(&run)];
        runs.map(|r| r.join().expect("a paired run"))
            .into_iter()
            .fold(0.0, f64::max)
    })
}
