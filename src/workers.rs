//! The worker threads that step a world: a rayon pool whose workers each keep to a CPU of their
//! own.
//!
//! Linux places a waking thread by heuristics, and on the 2-core development VM they left both
//! workers of a 2-thread pool queued on one CPU, taking turns, for up to 10 ms while the other
//! CPU idled (`perf sched`), whenever the pool had been idle for a while: a world stepped a tick
//! at a time with pauses between, as the window plays at 1x, then took 3.0–3.4 ms a tick of the
//! 10,000-fish shoal on 2 threads, no less than on 1. Pinned, 1.9–2.1 ms. Stepped without
//! pauses, as `crowdlab run` does, the pool kept its CPUs either way (1.66–1.77 ms pinned or not;
//! see `docs/performance.md`, "Pinned workers"). In the window at its fastest speed, where its own
//! threads and the software renderer's want the CPUs too, pinned workers stepped half as many
//! ticks a second (58–60, not 118–139) and the window drew 69–86 frames a second instead of 43–47.
//!
//! A pool is pinned only when it has at least two workers and no more than the process may run
//! on, each worker on a CPU of its own: two 1-thread runs side by side must not share one CPU.
//! `CROWDLAB_PIN_THREADS=0` leaves the workers free to move.

use rayon::ThreadPoolBuilder;

/// The environment variable that turns pinning off (`0`) or on (`1`, the default).
pub const PIN_VARIABLE: &str = "CROWDLAB_PIN_THREADS";

/// Whether a pool's workers each keep to a CPU of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pinning {
    /// Each worker keeps to one CPU (when there are enough of them).
    Pinned,
    /// The workers go wherever the system puts them.
    Free,
}

impl Pinning {
    /// The pinning [`PIN_VARIABLE`] asks for: pinned when it is unset.
    pub fn from_env() -> Result<Pinning, String> {
        match std::env::var(PIN_VARIABLE) {
            Ok(value) => Pinning::parse(&value),
            Err(std::env::VarError::NotPresent) => Ok(Pinning::Pinned),
            Err(std::env::VarError::NotUnicode(value)) => Pinning::parse(&value.to_string_lossy()),
        }
    }

    /// The pinning a value of [`PIN_VARIABLE`] names: `1` pinned, `0` free; anything else is
    /// refused with a message naming the variable and the value.
    fn parse(value: &str) -> Result<Pinning, String> {
        match value.trim() {
            "1" => Ok(Pinning::Pinned),
            "0" => Ok(Pinning::Free),
            _ => Err(format!(
                "{PIN_VARIABLE}={value:?}: use 1 (workers pinned, the default) or 0 (free)"
            )),
        }
    }
}

/// A builder of a pool of `threads` workers (`None`: as many as `RAYON_NUM_THREADS` says, as
/// rayon's own pools have, or else one per CPU the process may run on), whose workers each keep
/// to a CPU of their own when `pinning` asks for it and the pool has at least two workers and no
/// more than those CPUs. The caller may set more (names, stack size) before building.
pub fn pool_builder(threads: Option<usize>, pinning: Pinning) -> ThreadPoolBuilder {
    let cpus = allowed_cpus();
    let from_rayon = || {
        let count = std::env::var("RAYON_NUM_THREADS").ok()?.trim().parse().ok();
        count.filter(|&n: &usize| n > 0)
    };
    let count = threads.or_else(from_rayon).unwrap_or(cpus.len().max(1));
    let builder = ThreadPoolBuilder::new().num_threads(count);
    if pinning == Pinning::Free || count < 2 || count > cpus.len() {
        return builder;
    }
    builder.start_handler(move |worker| pin_current_thread(cpus[worker]))
}

/// Starts rayon's global pool, on which the window's simulation, validation runs and PNG frames
/// work, as [`pool_builder`]`(None, pinning)` builds it. A process that already runs the global
/// pool (one that used it before, such as a test harness calling the command line in-process)
/// keeps it as it is.
pub fn start_global_pool(pinning: Pinning) {
    // rayon refuses a second global pool; the one running then does the work the same way.
    let _ = pool_builder(None, pinning).build_global();
}

/// The CPUs the calling thread may run on (a thread the program starts inherits the process's),
/// in ascending order; one per available core where the system does not say.
fn allowed_cpus() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `set` is a plain bit mask that sched_getaffinity fills for this thread.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        // SAFETY: the size passed is the mask's own.
        if unsafe { libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), &mut set) } == 0 {
            // SAFETY: CPU_ISSET only reads the mask, and every index is below its bit count.
            return (0..libc::CPU_SETSIZE as usize)
                .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
                .collect();
        }
    }
    (0..std::thread::available_parallelism().map_or(1, usize::from)).collect()
}

/// Keeps the calling thread on `cpu`. A refusal leaves it free: the pool works the same, only
/// placed by the system.
fn pin_current_thread(cpu: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: `set` is a plain bit mask holding `cpu` (below CPU_SETSIZE, as sched_getaffinity
    // reported it), and sched_setaffinity only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cpu;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_takes_one_or_zero_and_refuses_anything_else_by_name() {
        assert_eq!(Pinning::parse("1"), Ok(Pinning::Pinned));
        assert_eq!(Pinning::parse("0"), Ok(Pinning::Free));
        assert_eq!(Pinning::parse(" 0\n"), Ok(Pinning::Free));
        let refused = Pinning::parse("off").unwrap_err();
        assert!(
            refused.contains("CROWDLAB_PIN_THREADS") && refused.contains("\"off\""),
            "{refused}"
        );
    }

    #[test]
    fn a_pinned_pool_keeps_each_worker_on_a_cpu_of_its_own() {
        let cpus = allowed_cpus();
        assert!(!cpus.is_empty());
        if cpus.len() < 2 {
            return; // Nothing to pin on a single CPU: the pool is built free (tested below).
        }
        let pool = pool_builder(Some(2), Pinning::Pinned).build().unwrap();
        let placed: Vec<Vec<usize>> = pool.broadcast(|_| allowed_cpus());
        assert_eq!(placed, vec![vec![cpus[0]], vec![cpus[1]]]);
    }

    #[test]
    fn single_free_and_oversized_pools_are_not_pinned() {
        let cpus = allowed_cpus();
        for (threads, pinning) in [
            (1, Pinning::Pinned),
            (2, Pinning::Free),
            (cpus.len() + 1, Pinning::Pinned),
        ] {
            let pool = pool_builder(Some(threads), pinning).build().unwrap();
            assert_eq!(pool.current_num_threads(), threads);
            let placed: Vec<Vec<usize>> = pool.broadcast(|_| allowed_cpus());
            assert!(placed.iter().all(|p| *p == cpus), "{threads} {pinning:?}: {placed:?}");
        }
    }

    #[test]
    fn without_a_count_the_pool_has_a_worker_per_allowed_cpu() {
        let pool = pool_builder(None, Pinning::Pinned).build().unwrap();
        assert_eq!(pool.current_num_threads(), allowed_cpus().len());
    }
}
