//! Tests of the boundary search ([`super`]): worked cases, ties, half-planes met together and
//! the search's patience.

use super::*;
use crate::sim::avoid::cone::half_plane;
use crate::sim::avoid::region::{INSIDE_MARGIN, square};

#[test]
fn overlapping_squares_split_edges_into_outer_and_inner_pieces() {
    // Two squares overlapping in [1, 2] × [1, 2]; max speed large.
    let regions = [square((0.0, 0.0), 2.0), square((1.0, 1.0), 2.0)];
    let pieces = classify_boundary(&regions, 100.0);
    // Square 0's right edge x = 2 from y = 0 to 2 is cut at y = 1: the lower half is outer,
    // the upper half lies inside square 1.
    let right_edge: Vec<_> = pieces.iter().filter(|p| p.a.x == 2.0 && p.b.x == 2.0).collect();
    assert_eq!(right_edge.len(), 2);
    let near = |a: Vec2, b: Vec2| (a - b).length() < 2.0 * INSIDE_MARGIN;
    assert!(near(right_edge[0].a, Vec2::new(2.0, 0.0)) && near(right_edge[0].b, Vec2::new(2.0, 1.0)));
    assert!(right_edge[0].outer);
    assert!(near(right_edge[1].a, Vec2::new(2.0, 1.0)) && near(right_edge[1].b, Vec2::new(2.0, 2.0)));
    assert!(!right_edge[1].outer);
    assert_eq!(
        pieces.iter().filter(|p| !p.outer).count(),
        4,
        "one inner piece per crossing edge"
    );
}

#[test]
fn pieces_beyond_max_speed_are_not_outer() {
    let pieces = classify_boundary(&[square((-1.0, -1.0), 4.0)], 2.0);
    let top = pieces.iter().filter(|p| p.a.y == 3.0).collect::<Vec<_>>();
    assert!(
        !top.is_empty() && top.iter().all(|p| !p.outer),
        "the top edge y = 3 lies beyond 2 m/s"
    );
    assert!(pieces.iter().any(|p| p.outer && p.a.y == -1.0));
}

#[test]
fn nearest_free_velocity_is_on_the_outer_boundary() {
    let regions = [square((0.0, -1.0), 2.0)];
    let scratch = &mut BoundaryScratch::default();
    assert_eq!(
        nearest_free((&regions, 0), 5.0, (Vec2::new(-1.0, 0.0), usize::MAX), scratch, None),
        Nearest::Velocity(Vec2::new(-1.0, 0.0))
    );
    let v = nearest_free((&regions, 0), 5.0, (Vec2::new(0.4, 0.2), usize::MAX), scratch, None);
    let v = v.velocity().unwrap();
    assert!((v - Vec2::new(0.0, 0.2)).length() < 1e-6, "{v}");
    // A region covering the whole disc leaves nothing.
    assert_eq!(
        nearest_free(
            (&[square((-10.0, -10.0), 20.0)], 0),
            2.0,
            (Vec2::ZERO, usize::MAX),
            scratch,
            None
        ),
        Nearest::Blocked
    );
}

#[test]
fn nearest_free_velocity_skips_edge_parts_inside_other_regions() {
    // Preferred (1.5, 0.5) is inside square 0. The nearest edge points, (1.8, 0.5) on square
    // 1 and (2, 0.5) on square 0, each lie inside the other square; the answer is (1.5, 0)
    // on square 0's bottom edge.
    let regions = [square((0.0, 0.0), 2.0), square((1.8, -3.0), 6.0)];
    let v = nearest_free(
        (&regions, 0),
        10.0,
        (Vec2::new(1.5, 0.5), usize::MAX),
        &mut BoundaryScratch::default(),
        None,
    );
    let v = v.velocity().unwrap();
    assert!((v - Vec2::new(1.5, 0.0)).length() < 1e-4, "{v}");
}

#[test]
fn static_regions_first_answer_as_static_regions_last() {
    // Squares around the preferred velocity on the y axis, each static one the mirror image
    // (through that axis) of a neighbour's, so that their edges tie to the bit and the order
    // of ties picks the side: the statics listed first and counted as such give the answer
    // of the statics listed last.
    let mut next = crate::test_rng::unit_floats(77);
    let mirror = |r: &Region| {
        let v: Vec<Vec2> = r.vertices().iter().rev().map(|v| Vec2::new(-v.x, v.y)).collect();
        Region::polygon([v[0], v[1], v[2], v[3]])
    };
    let scratch = &mut BoundaryScratch::default();
    let (mut cases, mut sided) = (0, 0);
    for _ in 0..300 {
        let movers: Vec<Region> = (0..1 + (next() * 4.0) as usize)
            .map(|_| square((next() * 2.0 - 1.5, next() * 2.0 - 1.5), 0.5 + next() * 2.0))
            .collect();
        let statics: Vec<Region> = movers.iter().take(2).map(mirror).collect();
        let preferred = (Vec2::new(0.0, next() * 2.0 - 1.0), usize::MAX);
        let last: Vec<Region> = movers.iter().chain(&statics).copied().collect();
        let first: Vec<Region> = statics.iter().chain(&movers).copied().collect();
        let expected = nearest_free((&last, 0), 2.0, preferred, scratch, None);
        assert_eq!(
            nearest_free((&first, statics.len()), 2.0, preferred, scratch, None),
            expected
        );
        cases += 1;
        // Without the rank, ties would go to the statics: another side.
        sided += (nearest_free((&first, 0), 2.0, preferred, scratch, None) != expected) as u32;
    }
    assert!(sided > 10, "ties that pick a side: {sided} of {cases}");
}

#[test]
fn half_planes_met_together_answer_as_regions_met_one_by_one() {
    // Squares and side half-planes (some sharing a border with opposite sides, some parallel
    // to the squares' edges) around the preferred velocity: the search meets the half-planes
    // together; the same half-planes as regions with an inside test on every edge (the
    // closing ones, far beyond max speed, change nothing within it) are met one by one.
    // Both give the same velocity, to the bit (short of a sliver thinner than rounding that
    // the one-by-one box test drops, see `half_planes`, which these cases do not meet).
    const MAX_SPEED: f32 = 2.0;
    let mut next = crate::test_rng::unit_floats(4242);
    let scratch = &mut BoundaryScratch::default();
    let as_region = |h: &Region| {
        let v = h.vertices();
        Region::closed_beyond([v[0], v[1], v[2], v[3]], 0b0001, [0, 1, 2, 3], MAX_SPEED)
    };
    let (mut found, mut with_planes) = (0, 0);
    for case in 0..600 {
        let mut regions: Vec<Region> = (0..(next() * 4.0) as usize)
            .map(|_| square((next() * 3.0 - 2.0, next() * 3.0 - 2.0), 0.5 + next() * 2.0))
            .collect();
        for _ in 0..1 + (next() * 6.0) as usize {
            let point = Vec2::new(next() * 2.0 - 1.0, next() * 2.0 - 1.0);
            let normal = match case % 3 {
                // Along the squares' edges.
                0 => [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y][(next() * 4.0) as usize % 4],
                _ => Vec2::from_angle(next() * 6.3),
            };
            regions.push(half_plane(point, normal, MAX_SPEED));
            if case % 4 == 0 {
                regions.push(half_plane(point, -normal, MAX_SPEED));
            }
        }
        let one_by_one: Vec<Region> = regions
            .iter()
            .map(|r| if r.is_half_plane() { as_region(r) } else { *r })
            .collect();
        assert!(one_by_one.iter().all(|r| !r.is_half_plane()));
        let preferred = (Vec2::new(next() * 3.0 - 1.5, next() * 3.0 - 1.5), usize::MAX);
        let together = nearest_free((&regions, 0), MAX_SPEED, preferred, scratch, None);
        let apart = nearest_free((&one_by_one, 0), MAX_SPEED, preferred, scratch, None);
        assert_eq!(together, apart, "case {case}");
        if let Nearest::Velocity(v) = together {
            found += 1;
            with_planes += (v != preferred.0) as u32;
        }
    }
    assert!(
        found > 100 && with_planes > 50,
        "{found} found, {with_planes} on a boundary"
    );
}

#[test]
fn a_search_gives_up_only_while_no_edge_has_given_a_piece() {
    // A unit square inside a 6 m one: the 4 nearest edges (the small square's) lie inside
    // the large one; its right edge gives (3, 0).
    let regions = [square((-0.5, -0.5), 1.0), square((-3.0, -3.0), 6.0)];
    let scratch = &mut BoundaryScratch::default();
    let mut search =
        |preferred: Vec2, patience| nearest_free((&regions, 0), 10.0, (preferred, patience), scratch, None);
    assert_eq!(search(Vec2::new(0.1, 0.0), 4), Nearest::GaveUp);
    let found = search(Vec2::new(0.1, 0.0), 5);
    assert_eq!(found, Nearest::Velocity(Vec2::new(3.0, 0.0)));
    assert_eq!(search(Vec2::new(0.1, 0.0), usize::MAX), found);
    // Near the large square's edge, the nearest edge gives a piece at once: patience 1 is
    // enough, and the answer is the same.
    let v = search(Vec2::new(2.5, 1.0), 1);
    assert_eq!(v, Nearest::Velocity(Vec2::new(3.0, 1.0)));
    assert_eq!(search(Vec2::new(2.5, 1.0), usize::MAX), v);
    // Nothing permitted: only an unlimited search says so (the large square's edges lie
    // beyond max speed and are not even tried; the small one's lie inside it).
    let whole = [square((-10.0, -10.0), 20.0), square((-0.5, -0.5), 1.0)];
    assert_eq!(
        nearest_free((&whole, 0), 2.0, (Vec2::ZERO, 2), scratch, None),
        Nearest::GaveUp
    );
    assert_eq!(
        nearest_free((&whole, 0), 2.0, (Vec2::ZERO, usize::MAX), scratch, None),
        Nearest::Blocked
    );
}

#[test]
fn a_search_keeping_the_last_half_planes_answers_as_a_fresh_one() {
    // Pseudo-random half-planes and squares: a search, then one among the same half-planes
    // (same order) but other squares, placed elsewhere among them, told to keep the
    // half-planes' lines and free box, answers as a fresh search of the same regions does.
    const MAX_SPEED: f32 = 2.0;
    let mut next = crate::test_rng::unit_floats(4242);
    let (kept, fresh) = (&mut BoundaryScratch::default(), &mut BoundaryScratch::default());
    let squares = |count: usize, next: &mut dyn FnMut() -> f32| -> Vec<Region> {
        (0..count)
            .map(|_| square((next() * 3.0 - 2.0, next() * 3.0 - 2.0), 0.3 + next() * 2.0))
            .collect()
    };
    let (mut found, mut blocked, mut reused) = (0, 0, 0);
    for case in 0..400 {
        let sides: Vec<Region> = (0..1 + case % 7)
            .map(|_| {
                let point = Vec2::new(next() * 2.0 - 1.0, next() * 2.0 - 1.0);
                half_plane(point, Vec2::from_angle(next() * 6.3), MAX_SPEED)
            })
            .collect();
        // The squares interleaved with the half-planes, `step` of them before each.
        let interleave = |squares: &[Region], step: usize| -> Vec<Region> {
            let mut all = Vec::new();
            let mut left = squares.iter();
            for side in &sides {
                all.extend(left.by_ref().take(step));
                all.push(*side);
            }
            all.extend(left);
            all
        };
        let first = interleave(&squares(case % 5 + 1, &mut next), case % 2);
        let preferred = (Vec2::new(next() * 2.0 - 1.0, next() * 2.0 - 1.0), usize::MAX);
        // Kept only when the first search got past the preferred velocity's test.
        let searched = nearest_free((&first, 0), MAX_SPEED, preferred, kept, None) != Nearest::Velocity(preferred.0);
        reused += searched as u32;
        let second = interleave(&squares(case % 4, &mut next), 1 + case % 3);
        kept.same_half_planes();
        let answer = nearest_free((&second, 0), MAX_SPEED, preferred, kept, None);
        assert_eq!(
            answer,
            nearest_free((&second, 0), MAX_SPEED, preferred, fresh, None),
            "case {case}"
        );
        found += matches!(answer, Nearest::Velocity(v) if v != preferred.0) as u32;
        blocked += (answer == Nearest::Blocked) as u32;
    }
    assert!(
        reused > 200 && found > 100 && blocked > 10,
        "{reused} kept, {found} found on a boundary, {blocked} blocked"
    );
}
