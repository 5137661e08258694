//! RVO2's agent k-d tree (`KdTree::buildAgentTree`, `queryAgentTreeRecursive`), rebuilt every
//! tick: the k nearest agents within a range are found by visiting the nearer child first and
//! skipping any child whose box lies farther than the k-th neighbour found so far, so a query
//! touches a few leaves of at most [`MAX_LEAF_SIZE`] agents whatever the crowd's density. Each
//! inner node holds both children's boxes, so choosing and pruning a child reads one node.

use glam::Vec2;

/// Largest number of agents in a leaf (RVO2's `MAX_LEAF_SIZE`).
const MAX_LEAF_SIZE: usize = 10;

/// A subtree as its parent sees it: the agents `begin..end` of [`AgentTree::items`], their
/// bounding box and, unless they fit in a leaf, the inner node `split` that divides them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Branch {
    min: Vec2,
    max: Vec2,
    begin: u32,
    end: u32,
    split: u32,
}

impl Branch {
    fn is_leaf(&self) -> bool {
        (self.end - self.begin) as usize <= MAX_LEAF_SIZE
    }

    /// Squared distance from `p` to the branch's box (0 inside).
    fn gap_sq(&self, p: Vec2) -> f32 {
        (self.min - p).max(p - self.max).max(Vec2::ZERO).length_squared()
    }
}

/// The k-d tree over `(agent index, position)` pairs.
#[derive(Clone, Debug, Default)]
pub struct AgentTree {
    /// The agents, reordered so that every branch's agents are contiguous, and their
    /// positions in the same order (apart, so a leaf's scan reads only positions).
    ids: Vec<u32>,
    points: Vec<Vec2>,
    /// The pairs while the tree is built.
    items: Vec<(u32, Vec2)>,
    /// Inner nodes: the two halves of a split, in preorder.
    splits: Vec<[Branch; 2]>,
    /// The whole tree (empty when there are no agents).
    root: Branch,
}

impl AgentTree {
    /// Rebuilds the tree over `items`, reusing the allocations; the halves of a large crowd, and
    /// their halves, are built in parallel (the same tree as on one thread).
    pub fn rebuild(&mut self, items: impl Iterator<Item = (u32, Vec2)>) {
        self.items.clear();
        self.items.extend(items);
        self.splits.clear();
        self.root = build(&mut self.items, 0, &mut self.splits, PARALLEL_LEVELS);
        self.ids.clear();
        self.ids.extend(self.items.iter().map(|&(i, _)| i));
        self.points.clear();
        self.points.extend(self.items.iter().map(|&(_, q)| q));
    }

    /// Fills `out` (cleared first) with the `k` agents nearest to `p` whose centre lies
    /// strictly within `radius`, leaving out agent `skip`, nearest first (ties by agent index).
    pub fn nearest(&self, p: Vec2, radius: f32, k: usize, skip: u32, out: &mut Vec<Neighbour>) {
        let mut best = KNearest::new(out, k, radius, skip);
        if !self.ids.is_empty() && best.reaches(self.root.gap_sq(p)) {
            self.query(&self.root, p, &mut best);
        }
    }

    /// Offers every agent of `branch` (whose box `best` reaches) that could enter: down the
    /// nearer child first, the farther ones deferred on a stack (deeper than [`DEFERRED`], by
    /// recursion) and skipped if by then the k-th neighbour found is nearer than their box.
    fn query<'t>(&'t self, mut branch: &'t Branch, p: Vec2, best: &mut KNearest) {
        let mut deferred = [(0.0, &self.root); DEFERRED];
        let mut len = 0;
        loop {
            if branch.is_leaf() {
                let (begin, end) = (branch.begin as usize, branch.end as usize);
                best.offer_all(&self.ids[begin..end], &self.points[begin..end], p);
            } else {
                let [left, right] = &self.splits[branch.split as usize];
                let (gap_left, gap_right) = (left.gap_sq(p), right.gap_sq(p));
                let (near, gap_near, far, gap_far) = if gap_left < gap_right {
                    (left, gap_left, right, gap_right)
                } else {
                    (right, gap_right, left, gap_left)
                };
                if best.reaches(gap_near) {
                    if len < DEFERRED {
                        deferred[len] = (gap_far, far);
                        len += 1;
                    } else if best.reaches(gap_far) {
                        self.query(near, p, best);
                        branch = far;
                        continue;
                    }
                    branch = near;
                    continue;
                }
            }
            // The most recently deferred branch that can still hold a neighbour.
            loop {
                if len == 0 {
                    return;
                }
                len -= 1;
                let (gap, next) = deferred[len];
                if best.reaches(gap) {
                    branch = next;
                    break;
                }
            }
        }
    }
}

/// Fewest agents whose tree is built as two halves in parallel.
const PARALLEL_BUILD: usize = 512;

/// How many levels of splits build their halves in parallel (2: up to four parts at once).
const PARALLEL_LEVELS: u32 = 2;

/// The subtree over `items` (which start at `base` in the whole list), its inner nodes appended
/// to `splits` in preorder; the halves of the top `parallel` levels of splits are built in
/// parallel when there are enough agents (the same tree: the upper half's nodes are numbered
/// apart, then moved after the lower's). RVO2's split: the longer side of the box at its
/// middle; a split that leaves one side empty (all agents at one point, or a box one float
/// wide) halves the agents instead.
fn build(items: &mut [(u32, Vec2)], base: usize, splits: &mut Vec<[Branch; 2]>, parallel: u32) -> Branch {
    let (min, max) = items
        .iter()
        .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), &(_, q)| {
            (lo.min(q), hi.max(q))
        });
    let mut branch = Branch {
        min,
        max,
        begin: base as u32,
        end: (base + items.len()) as u32,
        split: 0,
    };
    if branch.is_leaf() {
        return branch;
    }
    let axis = if max.x - min.x > max.y - min.y { 0 } else { 1 };
    let split = 0.5 * (min[axis] + max[axis]);
    let (mut left, mut right) = (0, items.len());
    while left < right {
        while left < right && items[left].1[axis] < split {
            left += 1;
        }
        while right > left && items[right - 1].1[axis] >= split {
            right -= 1;
        }
        if left < right {
            items.swap(left, right - 1);
            left += 1;
            right -= 1;
        }
    }
    if left == 0 || left == items.len() {
        left = items.len() / 2;
    }
    branch.split = splits.len() as u32;
    splits.push([Branch::default(); 2]);
    let (low, high) = items.split_at_mut(left);
    let halves = if parallel > 0 && low.len().min(high.len()) * 2 >= PARALLEL_BUILD {
        // The upper half's inner nodes are numbered from 0 apart, then moved after the lower's.
        let mut high_splits = Vec::new();
        let (lower, mut upper) = rayon::join(
            || build(low, base, splits, parallel - 1),
            || build(high, base + left, &mut high_splits, parallel - 1),
        );
        let offset = splits.len() as u32;
        for b in std::iter::once(&mut upper).chain(high_splits.iter_mut().flatten()) {
            if !b.is_leaf() {
                b.split += offset;
            }
        }
        splits.extend(high_splits);
        [lower, upper]
    } else {
        let lower = build(low, base, splits, 0);
        [lower, build(high, base + left, splits, 0)]
    };
    splits[branch.split as usize] = halves;
    branch
}

/// How many farther branches one query defers before it recurses instead: deeper than a
/// balanced tree over millions of agents.
const DEFERRED: usize = 24;

/// One agent of a k-nearest answer: its squared distance and index packed in one integer whose
/// order is the answer's (by distance, ties by index), since the bits of a non-negative float
/// order like the float.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Neighbour(u64);

impl Neighbour {
    /// Agent `agent` at squared distance `distance_sq` (not negative).
    #[inline]
    pub fn new(distance_sq: f32, agent: u32) -> Neighbour {
        Neighbour((u64::from(distance_sq.to_bits()) << 32) | u64::from(agent))
    }

    /// The agent's index.
    #[inline]
    pub fn agent(self) -> u32 {
        self.0 as u32
    }

    /// Its squared distance.
    pub fn distance_sq(self) -> f32 {
        f32::from_bits((self.0 >> 32) as u32)
    }
}

/// The running answer of a k-nearest query: at most `k` agents within range, nearest first,
/// ties by agent index.
pub(super) struct KNearest<'a> {
    out: &'a mut Vec<Neighbour>,
    k: usize,
    skip: u32,
    /// Agents ordered before this may enter: an agent at the squared range with index 0 while
    /// fewer than `k` are found, then the k-th found; the least value when `k` is 0.
    bound: Neighbour,
}

impl<'a> KNearest<'a> {
    /// An empty answer (`out` is cleared) for the `k` nearest within `radius`, leaving out
    /// agent `skip`.
    pub fn new(out: &'a mut Vec<Neighbour>, k: usize, radius: f32, skip: u32) -> KNearest<'a> {
        out.clear();
        KNearest {
            out,
            k,
            skip,
            bound: Neighbour::new(if k > 0 { radius * radius } else { 0.0 }, 0),
        }
    }

    /// True when an agent at squared distance `d` could still enter the answer.
    #[inline]
    pub fn reaches(&self, d: f32) -> bool {
        Neighbour::new(d, 0) < self.bound
    }

    /// Offers agent `i` at squared distance `d`: RVO2's bounded insertion.
    #[inline]
    pub fn offer(&mut self, d: f32, i: u32) {
        let key = Neighbour::new(d, i);
        if key < self.bound && i != self.skip {
            self.insert(key);
        }
    }

    /// Offers the agents `ids` at `points` by their distance to `p`.
    #[inline(always)]
    pub fn offer_all(&mut self, ids: &[u32], points: &[Vec2], p: Vec2) {
        for (&i, q) in ids.iter().zip(points) {
            self.offer(q.distance_squared(p), i);
        }
    }

    /// Inserts `key`, which is below the bound, in order.
    #[inline(always)]
    fn insert(&mut self, key: Neighbour) {
        let out = &mut *self.out;
        if out.len() == self.k {
            out.pop();
        }
        out.push(key);
        let slots = &mut out[..];
        let mut at = slots.len() - 1;
        while at > 0 && key < slots[at - 1] {
            slots[at] = slots[at - 1];
            at -= 1;
        }
        slots[at] = key;
        if slots.len() == self.k {
            self.bound = slots[self.k - 1];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer by definition: every agent within range but `skip`, sorted, the first `k`.
    fn by_sorting(items: &[(u32, Vec2)], p: Vec2, radius: f32, k: usize, skip: u32) -> Vec<(f32, u32)> {
        let mut all: Vec<(f32, u32)> = items
            .iter()
            .map(|&(i, q)| (q.distance_squared(p), i))
            .filter(|&(d, i)| d < radius * radius && i != skip)
            .collect();
        all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        all.truncate(k);
        all
    }

    #[test]
    fn nearest_matches_sorting_on_lattices_clusters_and_coincident_points() {
        // A lattice (many equal distances), a tight cluster and 40 agents on one point.
        let mut items: Vec<(u32, Vec2)> = (0..900)
            .map(|i| (i, Vec2::new((i % 30) as f32 * 2.0, (i / 30) as f32 * 2.0)))
            .collect();
        items.extend((900..1000).map(|i| (i, Vec2::new(70.0 + (i % 10) as f32 * 1e-6, 5.0))));
        items.extend((1000..1040).map(|i| (i, Vec2::new(-3.0, -3.0))));
        let mut tree = AgentTree::default();
        tree.rebuild(items.iter().copied());
        let mut out = Vec::new();
        for (p, skip) in [
            (Vec2::new(30.0, 30.0), 465),
            (Vec2::new(70.0, 5.0), 950),
            (Vec2::new(-3.0, -3.0), 1000),
            (Vec2::new(-50.0, 90.0), 0),
        ] {
            for (radius, k) in [(3.0, 10), (15.0, 10), (15.0, 1), (200.0, 60)] {
                tree.nearest(p, radius, k, skip, &mut out);
                let found: Vec<(f32, u32)> = out.iter().map(|n| (n.distance_sq(), n.agent())).collect();
                assert_eq!(
                    found,
                    by_sorting(&items, p, radius, k, skip),
                    "at {p}, r {radius}, k {k}"
                );
            }
        }
    }

    #[test]
    fn the_tree_built_in_parallel_parts_is_the_one_built_in_one() {
        // Pseudo-random crowds large enough for every parallel level (and a lattice with ties),
        // on a pool of 2 threads: the parts built apart give the same nodes, in the same order,
        // as one serial build.
        let mut next = crate::test_rng::unit_floats(4711);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for n in [600, 2_500, 10_000] {
            let items: Vec<(u32, Vec2)> = (0..n as u32)
                .map(|i| match i % 3 {
                    0 => (i, Vec2::new((i % 50) as f32, (i / 50) as f32)),
                    _ => (i, Vec2::new(next() * 300.0, next() * 80.0)),
                })
                .collect();
            let mut tree = AgentTree::default();
            pool.install(|| tree.rebuild(items.iter().copied()));
            let (mut serial, mut splits) = (items.clone(), Vec::new());
            let root = build(&mut serial, 0, &mut splits, 0);
            assert_eq!(tree.root, root, "{n} agents");
            assert_eq!(tree.splits, splits, "{n} agents");
            assert_eq!(tree.items, serial, "{n} agents");
        }
    }

    #[test]
    fn an_empty_tree_finds_no_one() {
        let mut tree = AgentTree::default();
        tree.rebuild(std::iter::empty());
        let mut out = vec![Neighbour::new(0.0, 1)];
        tree.nearest(Vec2::ZERO, 10.0, 5, 0, &mut out);
        assert!(out.is_empty());
    }
}
