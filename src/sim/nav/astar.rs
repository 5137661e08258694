//! Generic A* (Stria §1.5) over graphs whose nodes are dense indices `0..len`, with reusable
//! scratch memory so one search allocates nothing once warmed up (the role of Stria's
//! per-simulator `PoolAllocator`: one [`SearchScratch`] per thread, no locking).
//!
//! OPEN is a binary heap with lazy deletion; a node reached again with a lower g is re-opened,
//! which covers both of Stria's "replace in OPEN" and "move from CLOSED back to OPEN" cases.
//! A graph may offer a *shortcut* (Theta*): when the parent of the expanded node can see the
//! successor directly, the successor is linked to that grandparent instead, giving any-angle paths.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A search graph with nodes `0..node_count()`.
pub trait SearchGraph {
    /// Number of nodes.
    fn node_count(&self) -> usize;
    /// Appends `(successor, edge cost)` pairs of `node` to `out`.
    fn successors(&self, node: u32, out: &mut Vec<(u32, f32)>);
    /// Admissible estimate of the cost from `node` to `goal`.
    fn heuristic(&self, node: u32, goal: u32) -> f32;
    /// The cost of linking `to` directly from `from` when that is allowed (any-angle planners).
    fn shortcut(&self, _from: u32, _to: u32) -> Option<f32> {
        None
    }
}

#[derive(Clone, Copy, PartialEq)]
struct Open {
    f: f32,
    g: f32,
    node: u32,
}

impl Eq for Open {}

impl Ord for Open {
    /// Smallest f first; among equal f the deeper node (larger g), then the smaller index.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then(self.g.total_cmp(&other.g))
            .then(other.node.cmp(&self.node))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Per-thread working memory of A*, reused across searches (generation-stamped, never cleared).
#[derive(Default)]
pub struct SearchScratch {
    g: Vec<f32>,
    parent: Vec<u32>,
    stamp: Vec<u32>,
    closed: Vec<u32>,
    generation: u32,
    open: BinaryHeap<Open>,
    successors: Vec<(u32, f32)>,
    /// Nodes expanded by the last search (for benchmarks and tests).
    pub expanded: usize,
}

impl SearchScratch {
    fn begin(&mut self, len: usize) {
        if self.g.len() < len {
            self.g.resize(len, 0.0);
            self.parent.resize(len, 0);
            self.stamp.resize(len, 0);
            self.closed.resize(len, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.closed.fill(0);
            self.generation = 1;
        }
        self.open.clear();
        self.expanded = 0;
    }

    fn seen(&self, n: u32) -> bool {
        self.stamp[n as usize] == self.generation
    }

    fn reach(&mut self, graph: &impl SearchGraph, node: u32, parent: u32, g: f32, goal: u32) {
        let i = node as usize;
        if self.seen(node) && self.g[i] <= g {
            return;
        }
        self.stamp[i] = self.generation;
        self.g[i] = g;
        self.parent[i] = parent;
        self.closed[i] = 0;
        self.open.push(Open {
            f: g + graph.heuristic(node, goal),
            g,
            node,
        });
    }

    /// The cheapest node sequence from `start` to `goal` (both included), or `None` if unreachable.
    pub fn search(&mut self, graph: &impl SearchGraph, start: u32, goal: u32) -> Option<Vec<u32>> {
        self.begin(graph.node_count());
        self.reach(graph, start, start, 0.0, goal);
        while let Some(Open { g, node, .. }) = self.open.pop() {
            let i = node as usize;
            if self.closed[i] == self.generation || g > self.g[i] {
                continue;
            }
            self.closed[i] = self.generation;
            self.expanded += 1;
            if node == goal {
                return Some(self.path_to(goal));
            }
            let mut successors = std::mem::take(&mut self.successors);
            successors.clear();
            graph.successors(node, &mut successors);
            let parent = self.parent[i];
            for &(next, cost) in &successors {
                if self.closed[next as usize] == self.generation {
                    continue;
                }
                match (parent != node).then(|| graph.shortcut(parent, next)).flatten() {
                    Some(direct) => self.reach(graph, next, parent, self.g[parent as usize] + direct, goal),
                    None => self.reach(graph, next, node, g + cost, goal),
                }
            }
            self.successors = successors;
        }
        None
    }

    /// The cost of the last successful search's path to `node`.
    pub fn cost(&self, node: u32) -> f32 {
        self.g[node as usize]
    }

    fn path_to(&self, goal: u32) -> Vec<u32> {
        let mut path = vec![goal];
        let mut n = goal;
        while self.parent[n as usize] != n {
            n = self.parent[n as usize];
            path.push(n);
        }
        path.reverse();
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directed test graph given by its edge list, with a zero heuristic (Dijkstra).
    struct Edges(usize, Vec<(u32, u32, f32)>);

    impl SearchGraph for Edges {
        fn node_count(&self) -> usize {
            self.0
        }
        fn successors(&self, node: u32, out: &mut Vec<(u32, f32)>) {
            out.extend(self.1.iter().filter(|e| e.0 == node).map(|e| (e.1, e.2)));
        }
        fn heuristic(&self, _: u32, _: u32) -> f32 {
            0.0
        }
    }

    #[test]
    fn finds_the_cheaper_of_two_routes_and_reports_unreachable() {
        let graph = Edges(5, vec![(0, 1, 1.0), (1, 3, 5.0), (0, 2, 2.0), (2, 3, 1.0), (3, 0, 1.0)]);
        let mut scratch = SearchScratch::default();
        assert_eq!(scratch.search(&graph, 0, 3), Some(vec![0, 2, 3]));
        assert_eq!(scratch.cost(3), 3.0);
        assert_eq!(scratch.search(&graph, 0, 4), None);
        // Scratch reuse gives the same answer.
        assert_eq!(scratch.search(&graph, 0, 3), Some(vec![0, 2, 3]));
    }
}
