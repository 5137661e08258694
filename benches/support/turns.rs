//! Timing several steppers of the same work side by side on a VM whose speed drifts (by up to a
//! third over seconds on the development machine): they take turns of a few ticks, so that each
//! sees the same drift, and the ratios of their summed times hold where absolute times do not.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crowdlab::scene::Scene;
use crowdlab::sim::World;
use crowdlab::workers::{Pinning, pool_builder};
use rayon::ThreadPool;

/// The pause before each turn, untimed: rayon's threads spin for a while after their work runs
/// out, and on two cores a spinning thread of the last turn's pool would slow this turn's.
const SETTLE: Duration = Duration::from_millis(1);

/// Something stepped in turns: given a tick count, it steps that many ticks and returns how long
/// the steps took.
pub type Stepper<'a> = Box<dyn FnMut(usize) -> Duration + Send + 'a>;

/// Steps each of `steppers` `ticks` ticks, in turns of `chunk` ticks, the order rotating by one
/// every turn (so that none always follows the same one); returns each one's summed time.
pub fn take_turns(steppers: &mut [Stepper], ticks: usize, chunk: usize) -> Vec<Duration> {
    let mut spent = vec![Duration::ZERO; steppers.len()];
    let (mut done, mut turn) = (0, 0);
    while done < ticks {
        let n = chunk.min(ticks - done);
        for k in 0..steppers.len() {
            let i = (turn + k) % steppers.len();
            std::thread::sleep(SETTLE);
            spent[i] += steppers[i](n);
        }
        done += n;
        turn += 1;
    }
    spent
}

/// A pool of `threads` threads, for the steppers of a run to share: those on one pool take their
/// turns on the same threads. Built as `crowdlab run` builds its pool: with two or more threads,
/// each keeps to a CPU of its own, unless `CROWDLAB_PIN_THREADS=0` (see `crowdlab::workers`).
pub fn pool(threads: usize) -> Arc<ThreadPool> {
    let pinning = Pinning::from_env().expect("CROWDLAB_PIN_THREADS");
    Arc::new(pool_builder(Some(threads), pinning).build().unwrap())
}

/// A world of `scene` stepped on `pool`, after `warm_up` untimed ticks; its steps alone are
/// timed.
pub fn world_on(pool: &Arc<ThreadPool>, scene: &Arc<Scene>, warm_up: usize) -> Stepper<'static> {
    watched_world_on(pool, scene, warm_up, |_| {})
}

/// [`world_on`], with `watch` shown the world after every timed tick (untimed).
pub fn watched_world_on(
    pool: &Arc<ThreadPool>,
    scene: &Arc<Scene>,
    warm_up: usize,
    mut watch: impl FnMut(&World) + Send + 'static,
) -> Stepper<'static> {
    let pool = Arc::clone(pool);
    let mut world = pool.install(|| {
        let mut world = World::new(Arc::clone(scene));
        for _ in 0..warm_up {
            world.step();
        }
        world
    });
    Box::new(move |ticks| {
        pool.install(|| {
            let mut spent = Duration::ZERO;
            for _ in 0..ticks {
                let t = Instant::now();
                let frame = world.step();
                spent += t.elapsed();
                watch(&world);
                // As `crowdlab run` does once the frame is written.
                world.recycle(frame);
            }
            spent
        })
    })
}

/// The summed time of each stepper in each of several runs, as [`take_turns`] returns them.
pub struct Runs(pub Vec<Vec<Duration>>);

impl Runs {
    /// The fastest of stepper `k`'s times.
    pub fn fastest(&self, k: usize) -> Duration {
        self.0.iter().map(|run| run[k]).min().expect("a run")
    }

    /// Over the runs (an odd count of them), the median of `scale` times stepper `a`'s time over
    /// stepper `b`'s, and its lowest and highest.
    pub fn ratio(&self, a: usize, b: usize, scale: f64) -> (f64, f64, f64) {
        median_and_range(
            (self.0.iter())
                .map(|run| scale * (run[a].as_secs_f64() / run[b].as_secs_f64()))
                .collect(),
        )
    }
}

/// The median of `values` (not empty; of an even count, the upper of the middle two), its lowest
/// and its highest.
pub fn median_and_range(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    (values[values.len() / 2], values[0], values[values.len() - 1])
}
