//! Where the host put a 2-thread pool's two CPUs, turn by turn. On the development VMs the two
//! vCPUs move between physical cores every few seconds: a cache line handed from one to the other
//! took 35–90 ns one way in some seconds (cores sharing a cache) and 180–350 ns in others (cores
//! on different dies or sockets), and a 2-thread tick, whose workers read what the other wrote in
//! the phase before, runs at the speed of that hand-off. So a bench logs each turn of its
//! 1-thread and 2-thread worlds with the hand-off time measured just before the 2-thread turn,
//! and reports the speed-up for near and for far turns apart. (Needs `support/turns.rs` as the
//! bench's `turns` module.)

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rayon::ThreadPool;

use crate::turns::{Stepper, median_and_range};

/// Round trips timed per measurement: about 0.1 ms when the CPUs are near, 1 ms when far.
const ROUND_TRIPS: u64 = 1000;

/// One-way hand-off times below this are "near" (a shared cache), above it "far": the two
/// groups measured 35–90 and 180–350 ns, nothing between.
pub const NEAR_BELOW: Duration = Duration::from_nanos(140);

/// A value on a cache line of its own, so that nothing else shares the line handed back and
/// forth.
#[repr(align(128))]
struct Line(AtomicU64);

/// The one-way time of a cache line handed between the first two workers of `pool` (which must
/// have at least two): worker 0 writes an odd count, worker 1 answers with the next even one,
/// [`ROUND_TRIPS`] times after as many untimed; half the mean round trip.
pub fn handoff(pool: &ThreadPool) -> Duration {
    assert!(pool.current_num_threads() >= 2, "a hand-off needs two workers");
    let line = Line(AtomicU64::new(0));
    let wait_for = |value: u64| {
        while line.0.load(Ordering::Acquire) != value {
            std::hint::spin_loop();
        }
    };
    let timed = pool.broadcast(|worker| {
        let mut start = Instant::now();
        for trip in 0..2 * ROUND_TRIPS {
            if trip == ROUND_TRIPS {
                start = Instant::now();
            }
            match worker.index() {
                0 => {
                    line.0.store(2 * trip + 1, Ordering::Release);
                    wait_for(2 * trip + 2);
                }
                1 => {
                    wait_for(2 * trip + 1);
                    line.0.store(2 * trip + 2, Ordering::Release);
                }
                _ => break,
            }
        }
        start.elapsed()
    });
    timed[0] / (2 * ROUND_TRIPS as u32)
}

/// One turn of a logged stepper: how long its ticks took, and the hand-off time of its pool
/// measured just before (for a stepper logged with a pool).
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    /// The turn's summed tick time.
    pub spent: Duration,
    /// The pool's hand-off time before the turn.
    pub handoff: Option<Duration>,
}

/// The turns of one stepper, in order, filled by the stepper [`TurnLog::logged`] returns.
#[derive(Clone, Default)]
pub struct TurnLog(Arc<Mutex<Vec<Turn>>>);

impl TurnLog {
    /// `stepper`, each of whose turns is appended to this log; with `probe`, the hand-off time of
    /// that pool is measured (untimed) before every turn.
    pub fn logged<'a>(&self, mut stepper: Stepper<'a>, probe: Option<Arc<ThreadPool>>) -> Stepper<'a> {
        let log = self.clone();
        Box::new(move |ticks| {
            let handoff = probe.as_deref().map(handoff);
            let spent = stepper(ticks);
            log.0.lock().unwrap().push(Turn { spent, handoff });
            spent
        })
    }

    /// The turns logged so far.
    pub fn turns(&self) -> Vec<Turn> {
        self.0.lock().unwrap().clone()
    }
}

/// The speed-up of the 2-thread turns over the 1-thread turns of the same rounds (`one[i]` and
/// `two[i]` taken in turn, `two[i]` with its hand-off time), for the rounds whose CPUs were near
/// and for those whose CPUs were far: as a table cell each, the median speed-up with the lowest
/// and highest, the round count and the median hand-off (`–` for a group with no rounds).
pub fn speed_up_by_placement(one: &[Turn], two: &[Turn]) -> [String; 2] {
    let mut groups = [(Vec::new(), Vec::new()), (Vec::new(), Vec::new())];
    for (a, b) in one.iter().zip(two) {
        let handoff = b.handoff.expect("2-thread turns are probed");
        let (ratios, handoffs) = &mut groups[usize::from(handoff >= NEAR_BELOW)];
        ratios.push(a.spent.as_secs_f64() / b.spent.as_secs_f64());
        handoffs.push(handoff.as_secs_f64() * 1e9);
    }
    groups.map(|(ratios, handoffs)| {
        if ratios.is_empty() {
            return "–".to_string();
        }
        let turns = ratios.len();
        let (median, low, high) = median_and_range(ratios);
        let (handoff, _, _) = median_and_range(handoffs);
        format!("{median:.2}x ({low:.2}–{high:.2}; {turns} turns, hand-off {handoff:.0} ns)")
    })
}
