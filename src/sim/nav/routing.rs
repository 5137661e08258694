//! Stria's routing table between regions (§1.2): for every start region P and goal region C the
//! set M(P, C) of pairs [S, d] — S a neighbour of P on a path to C of d portals — keeping only
//! d = min(P, C) and d = min(P, C) + 1 (which also drops paths with cycles).
//!
//! Regions are vertices and portals edges of an undirected multigraph; a parallel portal adds
//! nothing to the table. Agents choose only among the shortest-path neighbours
//! ([`RoutingTable::next_regions`]), as the thesis's implementation does to avoid ping-pong.

/// One entry [S, d] of M(P, C): go to neighbour `via`, `distance` portals in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Route {
    /// The neighbouring region to enter next (P itself when P = C).
    pub via: usize,
    /// Path length in portals.
    pub distance: usize,
}

/// M(P, C) for every pair of regions.
#[derive(Clone, Debug)]
pub struct RoutingTable {
    n: usize,
    entries: Vec<Vec<Route>>,
}

impl RoutingTable {
    /// Builds the table for `n` regions joined by `edges` (pairs of region indices), by the
    /// thesis's three steps: initialise, extend paths of length 1..n−1, prune d > min + 1.
    pub fn new(n: usize, edges: &[(usize, usize)]) -> RoutingTable {
        let mut adjacent = vec![Vec::new(); n];
        for &(a, b) in edges {
            if a != b && !adjacent[a].contains(&b) {
                adjacent[a].push(b);
                adjacent[b].push(a);
            }
        }
        let mut entries: Vec<Vec<Route>> = (0..n * n)
            .map(|i| {
                let (p, c) = (i / n, i % n);
                if p == c {
                    vec![Route { via: p, distance: 0 }]
                } else {
                    Vec::new()
                }
            })
            .collect();
        for d in 1..n {
            for p in 0..n {
                for c in 0..n {
                    for &s in &adjacent[p] {
                        let reachable = entries[s * n + c].iter().any(|r| r.distance == d - 1);
                        let entry = Route { via: s, distance: d };
                        if reachable && !entries[p * n + c].contains(&entry) {
                            entries[p * n + c].push(entry);
                        }
                    }
                }
            }
        }
        for list in &mut entries {
            if let Some(min) = list.iter().map(|r| r.distance).min() {
                list.retain(|r| r.distance <= min + 1);
            }
            // Several paths through the same neighbour: keep its shortest.
            list.sort_by_key(|r| (r.distance, r.via));
            let mut seen = Vec::new();
            list.retain(|r| {
                let fresh = !seen.contains(&r.via);
                seen.push(r.via);
                fresh
            });
        }
        RoutingTable { n, entries }
    }

    /// Number of regions.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True for a table without regions.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// M(from, to), shortest first.
    pub fn routes(&self, from: usize, to: usize) -> &[Route] {
        &self.entries[from * self.n + to]
    }

    /// The neighbours of `from` on a shortest path to `to` (empty when `to` is unreachable).
    pub fn next_regions(&self, from: usize, to: usize) -> impl Iterator<Item = usize> + '_ {
        let list = self.routes(from, to);
        let min = list.first().map(|r| r.distance);
        list.iter().filter(move |r| Some(r.distance) == min).map(|r| r.via)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(via: usize, distance: usize) -> Route {
        Route { via, distance }
    }

    #[test]
    fn reproduces_table_5_5() {
        // Fig. 5.4: R1–R2, R2–R3, R2–R4, R3–R4 (indices 0..4).
        let table = RoutingTable::new(4, &[(0, 1), (1, 2), (1, 3), (2, 3)]);
        let expected = [
            [vec![r(0, 0)], vec![r(1, 1)], vec![r(1, 2)], vec![r(1, 2)]],
            [
                vec![r(0, 1)],
                vec![r(1, 0)],
                vec![r(2, 1), r(3, 2)],
                vec![r(3, 1), r(2, 2)],
            ],
            [
                vec![r(1, 2), r(3, 3)],
                vec![r(1, 1), r(3, 2)],
                vec![r(2, 0)],
                vec![r(3, 1), r(1, 2)],
            ],
            [
                vec![r(1, 2), r(2, 3)],
                vec![r(1, 1), r(2, 2)],
                vec![r(2, 1), r(1, 2)],
                vec![r(3, 0)],
            ],
        ];
        for (p, row) in expected.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                assert_eq!(table.routes(p, c), cell.as_slice(), "M(R{}, R{})", p + 1, c + 1);
            }
        }
        // From R3 to R2 the agent goes directly (the shortest-path neighbour only).
        assert_eq!(table.next_regions(2, 1).collect::<Vec<_>>(), vec![1]);
    }

    #[test]
    fn no_cyclic_entries_in_the_fig_2_1_building() {
        // Fig. 2.1 style: R1–R2 (two doors), R2–R3, R3–R4, R2–R4.
        let table = RoutingTable::new(4, &[(0, 1), (0, 1), (1, 2), (2, 3), (1, 3)]);
        assert!(!table.routes(1, 2).contains(&r(0, 3)));
        assert_eq!(table.routes(1, 2), &[r(2, 1), r(3, 2)]);
        let unreachable = RoutingTable::new(3, &[(0, 1)]);
        assert!(unreachable.routes(0, 2).is_empty());
        assert_eq!(unreachable.next_regions(0, 2).count(), 0);
    }
}
