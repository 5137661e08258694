//! RVO2's agent k-d tree (`KdTree::buildAgentTree`, `queryAgentTreeRecursive`), rebuilt every
//! tick: the k nearest agents within a range are found by visiting the nearer child first and
//! skipping any node whose box lies farther than the k-th neighbour found so far, so a query
//! touches a few leaves of at most [`MAX_LEAF_SIZE`] agents whatever the crowd's density.

use glam::Vec2;

/// Largest number of agents in a leaf (RVO2's `MAX_LEAF_SIZE`).
const MAX_LEAF_SIZE: usize = 10;

/// A node: the agents `begin..end` of [`AgentTree::items`] and their bounding box; an inner
/// node's children are `left` and `right`.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    begin: u32,
    end: u32,
    min: Vec2,
    max: Vec2,
    left: u32,
    right: u32,
}

impl Node {
    fn is_leaf(&self) -> bool {
        (self.end - self.begin) as usize <= MAX_LEAF_SIZE
    }

    /// Squared distance from `p` to the node's box (0 inside).
    fn gap_sq(&self, p: Vec2) -> f32 {
        (self.min - p).max(p - self.max).max(Vec2::ZERO).length_squared()
    }
}

/// The k-d tree over `(agent index, position)` pairs.
#[derive(Clone, Debug, Default)]
pub struct AgentTree {
    /// The pairs, reordered so that every node's agents are contiguous.
    items: Vec<(u32, Vec2)>,
    nodes: Vec<Node>,
}

impl AgentTree {
    /// Rebuilds the tree over `items`, reusing the allocations.
    pub fn rebuild(&mut self, items: &[(u32, Vec2)]) {
        self.items.clear();
        self.items.extend_from_slice(items);
        self.nodes.clear();
        if !items.is_empty() {
            self.nodes.resize(2 * items.len() - 1, Node::default());
            self.build(0, items.len(), 0);
        }
    }

    /// RVO2's split: the longer side of the box at its middle; a split that leaves one side
    /// empty (all agents at one point, or a box one float wide) halves the agents instead.
    fn build(&mut self, begin: usize, end: usize, node: usize) {
        let (min, max) = self.items[begin..end]
            .iter()
            .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), &(_, q)| {
                (lo.min(q), hi.max(q))
            });
        self.nodes[node] = Node {
            begin: begin as u32,
            end: end as u32,
            min,
            max,
            left: 0,
            right: 0,
        };
        if end - begin <= MAX_LEAF_SIZE {
            return;
        }
        let axis = if max.x - min.x > max.y - min.y { 0 } else { 1 };
        let split = 0.5 * (min[axis] + max[axis]);
        let (mut left, mut right) = (begin, end);
        while left < right {
            while left < right && self.items[left].1[axis] < split {
                left += 1;
            }
            while right > left && self.items[right - 1].1[axis] >= split {
                right -= 1;
            }
            if left < right {
                self.items.swap(left, right - 1);
                left += 1;
                right -= 1;
            }
        }
        if left == begin || left == end {
            left = begin + (end - begin) / 2;
        }
        let (left_node, right_node) = (node + 1, node + 2 * (left - begin));
        self.nodes[node].left = left_node as u32;
        self.nodes[node].right = right_node as u32;
        self.build(begin, left, left_node);
        self.build(left, end, right_node);
    }

    /// Fills `out` (cleared first) with the `k` agents nearest to `p` whose centre lies
    /// strictly within `radius`, leaving out agent `skip`, nearest first (ties by agent index).
    pub fn nearest(&self, p: Vec2, radius: f32, k: usize, skip: u32, out: &mut Vec<(f32, u32)>) {
        let mut best = KNearest::new(out, k, radius, skip);
        if k > 0 && !self.nodes.is_empty() {
            self.query(0, p, &mut best);
        }
    }

    fn query(&self, node: usize, p: Vec2, best: &mut KNearest) {
        let n = &self.nodes[node];
        if n.is_leaf() {
            for &(i, q) in &self.items[n.begin as usize..n.end as usize] {
                let d = q.distance_squared(p);
                if best.reaches(d) {
                    best.insert(d, i);
                }
            }
            return;
        }
        let (left, right) = (n.left as usize, n.right as usize);
        let (gap_left, gap_right) = (self.nodes[left].gap_sq(p), self.nodes[right].gap_sq(p));
        let (near, gap_near, far, gap_far) = if gap_left < gap_right {
            (left, gap_left, right, gap_right)
        } else {
            (right, gap_right, left, gap_left)
        };
        if best.reaches(gap_near) {
            self.query(near, p, best);
            if best.reaches(gap_far) {
                self.query(far, p, best);
            }
        }
    }
}

/// The running answer of a k-nearest query: at most `k` (squared distance, agent) pairs within
/// range, nearest first, ties by agent index.
pub(super) struct KNearest<'a> {
    out: &'a mut Vec<(f32, u32)>,
    k: usize,
    r_sq: f32,
    skip: u32,
    /// The squared range while fewer than `k` are found, then the k-th squared distance.
    limit: f32,
}

impl<'a> KNearest<'a> {
    /// An empty answer (`out` is cleared) for the `k` nearest within `radius`, leaving out
    /// agent `skip`.
    pub fn new(out: &'a mut Vec<(f32, u32)>, k: usize, radius: f32, skip: u32) -> KNearest<'a> {
        out.clear();
        let r_sq = radius * radius;
        KNearest {
            out,
            k,
            r_sq,
            skip,
            limit: r_sq,
        }
    }

    /// True when an agent at squared distance `d` could still enter the answer (one at exactly
    /// the k-th distance may, with a lower index).
    #[inline]
    pub fn reaches(&self, d: f32) -> bool {
        d < self.r_sq && d <= self.limit && self.k > 0
    }

    /// Offers agent `i` at squared distance `d`: RVO2's bounded insertion.
    #[inline]
    pub fn offer(&mut self, d: f32, i: u32) {
        if self.reaches(d) {
            self.insert(d, i);
        }
    }

    /// Inserts agent `i` at squared distance `d` (which [`KNearest::reaches`]) in order.
    fn insert(&mut self, d: f32, i: u32) {
        let key = (d, i);
        if i == self.skip {
            return;
        }
        if self.out.len() == self.k {
            if !less(key, self.out[self.k - 1]) {
                return;
            }
            self.out.pop();
        }
        self.out.push(key);
        let mut at = self.out.len() - 1;
        while at > 0 && less(key, self.out[at - 1]) {
            self.out[at] = self.out[at - 1];
            at -= 1;
        }
        self.out[at] = key;
        if self.out.len() == self.k {
            self.limit = self.out[self.k - 1].0;
        }
    }
}

/// The order of the answer: by squared distance, then by agent index.
fn less(a: (f32, u32), b: (f32, u32)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
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
        tree.rebuild(&items);
        let mut out = Vec::new();
        for (p, skip) in [
            (Vec2::new(30.0, 30.0), 465),
            (Vec2::new(70.0, 5.0), 950),
            (Vec2::new(-3.0, -3.0), 1000),
            (Vec2::new(-50.0, 90.0), 0),
        ] {
            for (radius, k) in [(3.0, 10), (15.0, 10), (15.0, 1), (200.0, 60)] {
                tree.nearest(p, radius, k, skip, &mut out);
                assert_eq!(out, by_sorting(&items, p, radius, k, skip), "at {p}, r {radius}, k {k}");
            }
        }
    }

    #[test]
    fn an_empty_tree_finds_no_one() {
        let mut tree = AgentTree::default();
        tree.rebuild(&[]);
        let mut out = vec![(0.0, 1)];
        tree.nearest(Vec2::ZERO, 10.0, 5, 0, &mut out);
        assert!(out.is_empty());
    }
}
