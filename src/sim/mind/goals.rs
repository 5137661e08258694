//! Stria's goal stack (§2.5): the top is the current goal; an achieved goal is popped and the one
//! below becomes current. Scene goals decompose when they reach the top:
//!
//! - a target is a *simple goal* (reach a point; popped when close enough) — or, in another
//!   region, a *composite* one: a portal crossing is pushed for each region on the route
//!   (next region from the routing table, among the shortest-path neighbours);
//! - a portal is crossed by the *two-point method*: a point on the portal inside the current
//!   region, then, once near it, a point inside the neighbouring region;
//! - an exit pushes "leave" under "reach the gate";
//! - a *disjunction* pushes one option picked at random by weight; a *conjunction* pushes all
//!   its goals so that the first is on top; a path pushes its waypoints;
//! - a *random walk* never completes: it keeps pushing "reach a random point" of any region.

use glam::Vec2;
use rand::Rng;
use rand_pcg::Pcg32;

use super::navigator::Destination;
use super::world_map::WorldMap;
use crate::scene::{Goal, Scene};

/// Distance (metres) within which a portal point counts as reached.
pub const PORTAL_REACH: f32 = 1.0;

/// Distance (metres) within which a gate point counts as reached.
pub const GATE_REACH: f32 = 0.8;

/// Distance (metres) within which a random-walk point counts as reached.
pub const WALK_REACH: f32 = 1.0;

/// One entry of the stack.
#[derive(Clone, Debug, PartialEq)]
pub enum StackGoal {
    /// A scene goal not yet decomposed.
    Scene(Goal),
    /// Reach `point` (in `region`) within `reach`; `is_final` = stop there.
    Reach {
        point: Vec2,
        region: usize,
        reach: f32,
        is_final: bool,
    },
    /// Cross `portal` into region `into`: first `near`, then `beyond`.
    Cross {
        portal: usize,
        into: usize,
        near: Vec2,
        beyond: Option<Vec2>,
    },
    /// Leave the world through gate `gate` (the agent is at it).
    Leave { gate: usize },
    /// Never achieved; keeps generating random points.
    RandomWalk,
}

/// What happened after the agent moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackEvent {
    /// Still working on a goal.
    Busy,
    /// The stack emptied after a final point was reached.
    Arrived,
    /// The agent left the world through this gate.
    Left(usize),
}

/// An agent's goal stack.
#[derive(Clone, Debug, Default)]
pub struct GoalStack {
    stack: Vec<StackGoal>,
}

/// Decomposition depth limit per tick (a guard against goals that expand to nothing forever).
const MAX_EXPANSIONS: usize = 64;

impl GoalStack {
    /// A stack holding one scene goal.
    pub fn new(goal: Goal) -> GoalStack {
        GoalStack {
            stack: vec![StackGoal::Scene(goal)],
        }
    }

    /// The stack, bottom first.
    pub fn entries(&self) -> &[StackGoal] {
        &self.stack
    }

    /// True when nothing is left to do.
    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    /// Decomposes the top until it is something to walk to, and returns that destination.
    pub fn destination(
        &mut self,
        position: Vec2,
        scene: &Scene,
        map: &WorldMap,
        rng: &mut Pcg32,
    ) -> Option<Destination> {
        for _ in 0..MAX_EXPANSIONS {
            let top = self.stack.last()?.clone();
            match top {
                StackGoal::Scene(goal) => {
                    self.stack.pop();
                    self.expand(goal, scene, map, rng);
                }
                StackGoal::RandomWalk => {
                    let region = rng.random_range(0..map.regions.len());
                    let point = map.random_point_in(region, rng);
                    self.stack.push(StackGoal::Reach {
                        point,
                        region,
                        reach: WALK_REACH,
                        is_final: false,
                    });
                }
                StackGoal::Reach {
                    point,
                    region,
                    is_final,
                    ..
                } => {
                    let here = map.region_at(position);
                    if here == region {
                        return Some(Destination { point, is_final });
                    }
                    let options: Vec<usize> = map.routing.next_regions(here, region).collect();
                    if options.is_empty() {
                        // Unreachable through portals: walk there directly.
                        return Some(Destination { point, is_final });
                    }
                    let next = options[rng.random_range(0..options.len())];
                    let portals: Vec<usize> = map.portals_between(here, next).collect();
                    let portal = portals[rng.random_range(0..portals.len())];
                    let near = map.portal_point(portal, here, rng);
                    self.stack.push(StackGoal::Cross {
                        portal,
                        into: next,
                        near,
                        beyond: None,
                    });
                }
                StackGoal::Cross { near, beyond, .. } => {
                    return Some(Destination {
                        point: beyond.unwrap_or(near),
                        is_final: false,
                    });
                }
                StackGoal::Leave { .. } => return None,
            }
        }
        None
    }

    fn expand(&mut self, goal: Goal, scene: &Scene, map: &WorldMap, rng: &mut Pcg32) {
        let reach_target = |id: &str| {
            scene.target(id).map(|t| StackGoal::Reach {
                point: t.position,
                region: map.region_at(t.position),
                reach: t.radius,
                is_final: true,
            })
        };
        match goal {
            Goal::None => {}
            Goal::Target(id) => self.stack.extend(reach_target(&id)),
            Goal::Path(id) => {
                let Some(path) = scene.path(&id) else { return };
                if path.closed {
                    self.stack.push(StackGoal::Scene(Goal::Path(id.clone())));
                }
                let last = path.points.len() - 1;
                for (i, &point) in path.points.iter().enumerate().rev() {
                    self.stack.push(StackGoal::Reach {
                        point,
                        region: map.region_at(point),
                        reach: path.width * 0.5,
                        is_final: !path.closed && i == last,
                    });
                }
            }
            Goal::Exit(id) => {
                let Some(gate) = scene.gates.iter().position(|g| g.id == id) else {
                    return;
                };
                let point = map.gate_point(gate, GATE_REACH * 0.5, rng);
                self.stack.push(StackGoal::Leave { gate });
                self.stack.push(StackGoal::Reach {
                    point,
                    region: map.region_at(point),
                    reach: GATE_REACH,
                    is_final: false,
                });
            }
            Goal::RandomWalk => self.stack.push(StackGoal::RandomWalk),
            Goal::AnyOf(options) => {
                let total: f32 = options.iter().map(|(w, _)| w.max(0.0)).sum();
                let mut pick = rng.random_range(0.0..1.0f32) * total;
                let chosen = options.iter().find(|(w, _)| {
                    pick -= w.max(0.0);
                    pick < 0.0
                });
                if let Some((_, g)) = chosen.or(options.last()) {
                    self.stack.push(StackGoal::Scene(g.clone()));
                }
            }
            Goal::AllOf(goals) => self.stack.extend(goals.into_iter().rev().map(StackGoal::Scene)),
            Goal::Targets { ids, cycle } => {
                if cycle {
                    self.stack.push(StackGoal::Scene(Goal::Targets {
                        ids: ids.clone(),
                        cycle,
                    }));
                }
                let last = ids.len().saturating_sub(1);
                for (i, id) in ids.iter().enumerate().rev() {
                    if let Some(StackGoal::Reach {
                        point, region, reach, ..
                    }) = reach_target(id)
                    {
                        self.stack.push(StackGoal::Reach {
                            point,
                            region,
                            reach,
                            is_final: !cycle && i == last,
                        });
                    }
                }
            }
        }
    }

    /// Pops what the agent achieved by moving to `position`.
    pub fn after_move(&mut self, position: Vec2, map: &WorldMap, rng: &mut Pcg32) -> StackEvent {
        match self.stack.last_mut() {
            Some(StackGoal::Reach {
                point, reach, is_final, ..
            }) if position.distance(*point) <= *reach => {
                let is_final = *is_final;
                self.stack.pop();
                if let Some(StackGoal::Leave { gate }) = self.stack.last() {
                    let gate = *gate;
                    self.stack.pop();
                    return StackEvent::Left(gate);
                }
                if is_final && self.stack.is_empty() {
                    return StackEvent::Arrived;
                }
            }
            Some(StackGoal::Cross {
                portal,
                into,
                near,
                beyond,
            }) => match beyond {
                None if position.distance(*near) <= PORTAL_REACH => {
                    *beyond = Some(map.portal_point(*portal, *into, rng));
                }
                Some(b) if map.region_at(position) == *into && position.distance(*b) <= PORTAL_REACH => {
                    self.stack.pop();
                }
                _ => {}
            },
            _ => {}
        }
        StackEvent::Busy
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::scene::{Region, Target};

    fn scene() -> Scene {
        let mut s = Scene::empty();
        s.bounds.min = Vec2::ZERO;
        s.bounds.max = Vec2::new(30.0, 10.0);
        s.regions = ["a", "b", "c"]
            .iter()
            .enumerate()
            .map(|(i, id)| Region {
                id: id.to_string(),
                min: Vec2::new(10.0 * i as f32, 0.0),
                max: Vec2::new(10.0 * (i + 1) as f32, 10.0),
            })
            .collect();
        s.portals = vec![
            crate::scene::Portal {
                id: "ab".into(),
                regions: ("a".into(), "b".into()),
                from: Vec2::new(10.0, 4.0),
                to: Vec2::new(10.0, 6.0),
            },
            crate::scene::Portal {
                id: "bc".into(),
                regions: ("b".into(), "c".into()),
                from: Vec2::new(20.0, 4.0),
                to: Vec2::new(20.0, 6.0),
            },
        ];
        s.targets = vec![
            Target {
                id: "t1".into(),
                position: Vec2::new(5.0, 5.0),
                radius: 0.5,
            },
            Target {
                id: "t2".into(),
                position: Vec2::new(25.0, 5.0),
                radius: 0.5,
            },
        ];
        s
    }

    /// Walks the stack by teleporting onto each destination; returns the visited points.
    fn walk(stack: &mut GoalStack, from: Vec2, scene: &Scene, steps: usize) -> (Vec<Vec2>, StackEvent) {
        let map = WorldMap::new(scene);
        let mut rng = Pcg32::seed_from_u64(7);
        let mut p = from;
        let mut visited = Vec::new();
        for _ in 0..steps {
            let Some(d) = stack.destination(p, scene, &map, &mut rng) else {
                break;
            };
            p = d.point;
            visited.push(p);
            let event = stack.after_move(p, &map, &mut rng);
            if event != StackEvent::Busy {
                return (visited, event);
            }
        }
        (visited, StackEvent::Busy)
    }

    #[test]
    fn composite_goal_crosses_each_portal_with_two_points_then_reaches_the_target() {
        let s = scene();
        let mut stack = GoalStack::new(Goal::Target("t2".into()));
        let (visited, event) = walk(&mut stack, Vec2::new(2.0, 5.0), &s, 20);
        assert_eq!(event, StackEvent::Arrived);
        let xs: Vec<f32> = visited.iter().map(|p| p.x).collect();
        // near p(ab) in a, beyond it in b, near p(bc) in b, beyond it in c, then the target.
        assert_eq!(xs, vec![9.0, 11.0, 19.0, 21.0, 25.0]);
    }

    #[test]
    fn conjunction_in_order_and_disjunction_picks_one() {
        let s = scene();
        let mut all = GoalStack::new(Goal::AllOf(vec![Goal::Target("t1".into()), Goal::Target("t2".into())]));
        let (visited, _) = walk(&mut all, Vec2::new(15.0, 5.0), &s, 20);
        let t1 = visited.iter().position(|p| *p == Vec2::new(5.0, 5.0)).unwrap();
        let t2 = visited.iter().position(|p| *p == Vec2::new(25.0, 5.0)).unwrap();
        assert!(t1 < t2);
        let mut any = GoalStack::new(Goal::AnyOf(vec![
            (1.0, Goal::Target("t1".into())),
            (0.0, Goal::Target("t2".into())),
        ]));
        let (visited, event) = walk(&mut any, Vec2::new(5.0, 8.0), &s, 5);
        assert_eq!((visited, event), (vec![Vec2::new(5.0, 5.0)], StackEvent::Arrived));
    }

    #[test]
    fn random_walk_never_completes_and_cycle_loops() {
        let s = scene();
        let mut walk_stack = GoalStack::new(Goal::RandomWalk);
        let (visited, event) = walk(&mut walk_stack, Vec2::new(5.0, 5.0), &s, 40);
        assert_eq!(event, StackEvent::Busy);
        assert_eq!(visited.len(), 40);
        assert_eq!(walk_stack.entries()[0], StackGoal::RandomWalk);
        let mut cycle = GoalStack::new(Goal::Targets {
            ids: vec!["t1".into(), "t2".into()],
            cycle: true,
        });
        let (visited, event) = walk(&mut cycle, Vec2::new(5.0, 5.0), &s, 30);
        assert_eq!(event, StackEvent::Busy);
        assert!(visited.iter().filter(|p| **p == Vec2::new(25.0, 5.0)).count() >= 2);
    }
}
