//! Global planning benchmark: A* + line-of-sight smoothing on a 400 × 400 m city (20 m blocks,
//! 10 m streets, 25 cm cells = 2.56 million cells), 1,000 agents each planning from a random
//! street point to another — reported per plan, for the quadtree, grid and any-angle planners.

use criterion::{Criterion, criterion_group, criterion_main};
use crowdlab::scene::PlannerKind;
use crowdlab::scene::{Bounds, Obstacle};
use crowdlab::sim::nav::{NavMap, SearchScratch};
use glam::Vec2;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

/// Square blocks of `block` metres separated by `street`-metre streets over a `size` square.
fn city(size: f32, block: f32, street: f32) -> Vec<Obstacle> {
    let pitch = block + street;
    let n = (size / pitch) as i32;
    (0..n * n)
        .map(|k| {
            let lo = Vec2::new((k % n) as f32, (k / n) as f32) * pitch + street;
            Obstacle::Polygon {
                vertices: vec![lo, lo + Vec2::new(block, 0.0), lo + block, lo + Vec2::new(0.0, block)],
            }
        })
        .collect()
}

/// `n` (start, goal) pairs on the streets (x or y within a street band).
fn street_pairs(n: usize, size: f32, pitch: f32, street: f32) -> Vec<(Vec2, Vec2)> {
    let mut rng = Pcg32::seed_from_u64(42);
    let mut point = || {
        let along = rng.random_range(street..size - street);
        let band = rng.random_range(0..(size / pitch) as i32) as f32 * pitch + street * 0.5;
        if rng.random_bool(0.5) {
            Vec2::new(along, band)
        } else {
            Vec2::new(band, along)
        }
    };
    (0..n).map(|_| (point(), point())).collect()
}

fn plans(c: &mut Criterion) {
    let (size, block, street) = (400.0, 20.0, 10.0);
    let bounds = Bounds {
        min: Vec2::ZERO,
        max: Vec2::splat(size),
    };
    let obstacles = city(size, block, street);
    let pairs = street_pairs(1000, size, block + street, street);
    let mut group = c.benchmark_group("nav_city_400m");
    group.sample_size(10);
    for kind in [PlannerKind::Quadtree, PlannerKind::Grid, PlannerKind::AnyAngle] {
        let map = NavMap::new(bounds, &obstacles, 0.25, 0.3, kind);
        let mut scratch = SearchScratch::default();
        // One iteration = 1,000 agents planning; criterion's time / 1000 is the time per plan.
        let count = if kind == PlannerKind::Quadtree { 1000 } else { 50 };
        group.bench_function(format!("{kind:?}_{count}_plans"), |b| {
            b.iter(|| {
                pairs[..count]
                    .iter()
                    .filter(|(from, to)| map.plan(&mut scratch, *from, *to).is_some())
                    .count()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, plans);
criterion_main!(benches);
