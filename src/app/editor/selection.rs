//! What the user has selected in the scene, how a pointer position finds an object or a vertex,
//! and the edits that act on a selection: move, delete, copy and paste.

use glam::Vec2;

use super::areas::{self, AreaKind};
use crate::geom::{distance_to_segment, point_in_polygon};
use crate::scene::{Agent, Goal, Obstacle, Path, Scene, Target};

/// One object of the scene, by its list and index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Item {
    /// `scene.agents[i]`.
    Agent(usize),
    /// `scene.targets[i]`.
    Target(usize),
    /// `scene.paths[i]`.
    Path(usize),
    /// `scene.obstacles[i]`.
    Obstacle(usize),
    /// A region, portal, gate or spawn group.
    Area(AreaKind, usize),
}

/// A movable point of an object: a path waypoint, a polygon vertex or a wall end (0 = a, 1 = b).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vertex {
    /// The object the point belongs to.
    pub item: Item,
    /// The point's index in that object.
    pub index: usize,
}

/// The selected objects, in selection order without repeats.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selection(pub Vec<Item>);

impl Selection {
    /// True when `item` is selected.
    pub fn contains(&self, item: Item) -> bool {
        self.0.contains(&item)
    }

    /// Selects only `item`.
    pub fn set(&mut self, item: Item) {
        self.0 = vec![item];
    }

    /// Adds `item`, or removes it when it was selected (shift-click).
    pub fn toggle(&mut self, item: Item) {
        match self.0.iter().position(|&i| i == item) {
            Some(k) => {
                self.0.remove(k);
            }
            None => self.0.push(item),
        }
    }

    /// Drops items that no longer exist in `scene` (after undo or an external change).
    pub fn retain_existing(&mut self, scene: &Scene) {
        self.0.retain(|&i| exists(scene, i));
    }
}

/// True when `item` indexes an object of `scene`.
pub fn exists(scene: &Scene, item: Item) -> bool {
    match item {
        Item::Agent(i) => i < scene.agents.len(),
        Item::Target(i) => i < scene.targets.len(),
        Item::Path(i) => i < scene.paths.len(),
        Item::Obstacle(i) => i < scene.obstacles.len(),
        Item::Area(kind, i) => i < kind.count(scene),
    }
}

/// The body radius an agent is drawn with (its profile's, or a default when the profile is unknown).
pub fn agent_radius(scene: &Scene, agent: &Agent) -> f32 {
    scene.profile(&agent.profile).map_or(0.25, |p| p.radius)
}

/// The topmost object within `tolerance` metres of `p`: agents over targets over paths over obstacles.
pub fn hit(scene: &Scene, p: Vec2, tolerance: f32) -> Option<Item> {
    let agent = scene
        .agents
        .iter()
        .rposition(|a| a.position.distance(p) <= agent_radius(scene, a) + tolerance)
        .map(Item::Agent);
    agent
        .or_else(|| {
            let t = scene
                .targets
                .iter()
                .rposition(|t| t.position.distance(p) <= t.radius + tolerance);
            t.map(Item::Target)
        })
        .or_else(|| {
            let near = |path: &Path| {
                segments(&path.points, path.closed).any(|(a, b)| distance_to_segment(p, a, b) <= tolerance)
            };
            scene.paths.iter().rposition(near).map(Item::Path)
        })
        .or_else(|| areas::hit(scene, p, tolerance).map(|(kind, i)| Item::Area(kind, i)))
        .or_else(|| {
            let inside = |o: &Obstacle| match o {
                Obstacle::Circle { center, radius } | Obstacle::MovingCircle { center, radius, .. } => {
                    center.distance(p) <= radius + tolerance
                }
                Obstacle::Polygon { vertices } => {
                    point_in_polygon(p, vertices)
                        || segments(vertices, true).any(|(a, b)| distance_to_segment(p, a, b) <= tolerance)
                }
                Obstacle::Wall { a, b } => distance_to_segment(p, *a, *b) <= tolerance,
            };
            scene.obstacles.iter().rposition(inside).map(Item::Obstacle)
        })
}

/// Consecutive point pairs of a polyline (and the closing pair when `closed`).
fn segments(points: &[Vec2], closed: bool) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
    let closing = (closed && points.len() > 2).then(|| (points[points.len() - 1], points[0]));
    points.windows(2).map(|w| (w[0], w[1])).chain(closing)
}

/// The editable points of `item`: path waypoints, polygon vertices, wall ends; none otherwise.
pub fn vertices(scene: &Scene, item: Item) -> Vec<Vec2> {
    match item {
        Item::Path(i) => scene.paths[i].points.clone(),
        Item::Obstacle(i) => match &scene.obstacles[i] {
            Obstacle::Polygon { vertices } => vertices.clone(),
            Obstacle::Wall { a, b } => vec![*a, *b],
            _ => Vec::new(),
        },
        Item::Area(kind, i) => areas::points(scene, kind, i),
        _ => Vec::new(),
    }
}

/// The vertex of a selected object within `tolerance` of `p`, if any.
pub fn hit_vertex(scene: &Scene, selection: &Selection, p: Vec2, tolerance: f32) -> Option<Vertex> {
    selection.0.iter().find_map(|&item| {
        let index = vertices(scene, item).iter().position(|v| v.distance(p) <= tolerance)?;
        Some(Vertex { item, index })
    })
}

/// Moves one vertex to `to`.
pub fn set_vertex(scene: &mut Scene, vertex: Vertex, to: Vec2) {
    match vertex.item {
        Item::Path(i) => scene.paths[i].points[vertex.index] = to,
        Item::Obstacle(i) => match &mut scene.obstacles[i] {
            Obstacle::Polygon { vertices } => vertices[vertex.index] = to,
            Obstacle::Wall { a, b } => *(if vertex.index == 0 { a } else { b }) = to,
            _ => {}
        },
        Item::Area(kind, i) => areas::set_point(scene, kind, i, vertex.index, to),
        _ => {}
    }
}

/// A reference point of `item`: its position, centre or first point.
pub fn anchor(scene: &Scene, item: Item) -> Vec2 {
    match item {
        Item::Agent(i) => scene.agents[i].position,
        Item::Target(i) => scene.targets[i].position,
        Item::Obstacle(i) => match &scene.obstacles[i] {
            Obstacle::Circle { center, .. } | Obstacle::MovingCircle { center, .. } => *center,
            Obstacle::Polygon { vertices } => vertices.first().copied().unwrap_or_default(),
            Obstacle::Wall { a, .. } => *a,
        },
        _ => vertices(scene, item).first().copied().unwrap_or_default(),
    }
}

/// Moves every selected object by `delta` metres.
pub fn translate(scene: &mut Scene, selection: &Selection, delta: Vec2) {
    for &item in &selection.0 {
        match item {
            Item::Agent(i) => scene.agents[i].position += delta,
            Item::Target(i) => scene.targets[i].position += delta,
            Item::Path(i) => scene.paths[i].points.iter_mut().for_each(|p| *p += delta),
            Item::Obstacle(i) => translate_obstacle(&mut scene.obstacles[i], delta),
            Item::Area(kind, i) => areas::translate(scene, kind, i, delta),
        }
    }
}

/// Moves one obstacle by `delta` metres.
fn translate_obstacle(obstacle: &mut Obstacle, delta: Vec2) {
    match obstacle {
        Obstacle::Circle { center, .. } | Obstacle::MovingCircle { center, .. } => *center += delta,
        Obstacle::Polygon { vertices } => vertices.iter_mut().for_each(|p| *p += delta),
        Obstacle::Wall { a, b } => {
            *a += delta;
            *b += delta;
        }
    }
}

/// True when some point of `item` lies inside the rectangle spanned by `a` and `b`.
pub fn in_rect(scene: &Scene, item: Item, a: Vec2, b: Vec2) -> bool {
    let (lo, hi) = (a.min(b), a.max(b));
    let inside = |p: Vec2| p.cmpge(lo).all() && p.cmple(hi).all();
    match item {
        Item::Agent(_) | Item::Target(_) => inside(anchor(scene, item)),
        Item::Obstacle(i)
            if matches!(
                scene.obstacles[i],
                Obstacle::Circle { .. } | Obstacle::MovingCircle { .. }
            ) =>
        {
            inside(anchor(scene, item))
        }
        _ => {
            let points = vertices(scene, item);
            !points.is_empty() && points.into_iter().all(inside)
        }
    }
}

/// Every object of `scene`, in hit-test order reversed (obstacles first).
pub fn all_items(scene: &Scene) -> impl Iterator<Item = Item> + '_ {
    let obstacles = (0..scene.obstacles.len()).map(Item::Obstacle);
    let paths = (0..scene.paths.len()).map(Item::Path);
    let targets = (0..scene.targets.len()).map(Item::Target);
    let agents = (0..scene.agents.len()).map(Item::Agent);
    let areas = AreaKind::ALL
        .into_iter()
        .flat_map(|kind| (0..kind.count(scene)).map(move |i| Item::Area(kind, i)));
    obstacles.chain(areas).chain(paths).chain(targets).chain(agents)
}

/// Removes the selected objects from `scene`.
pub fn delete(scene: &mut Scene, selection: &Selection) {
    let doomed = |wanted: fn(Item) -> Option<usize>| -> Vec<usize> {
        let mut v: Vec<usize> = selection.0.iter().filter_map(|&i| wanted(i)).collect();
        v.sort_unstable_by(|a, b| b.cmp(a));
        v
    };
    let as_agent = |i| if let Item::Agent(k) = i { Some(k) } else { None };
    let as_target = |i| if let Item::Target(k) = i { Some(k) } else { None };
    let as_path = |i| if let Item::Path(k) = i { Some(k) } else { None };
    let as_obstacle = |i| if let Item::Obstacle(k) = i { Some(k) } else { None };
    for k in doomed(as_agent) {
        scene.agents.remove(k);
    }
    for k in doomed(as_target) {
        scene.targets.remove(k);
    }
    for k in doomed(as_path) {
        scene.paths.remove(k);
    }
    for k in doomed(as_obstacle) {
        scene.obstacles.remove(k);
    }
    for kind in AreaKind::ALL {
        let of_kind = selection.0.iter().filter_map(|&i| match i {
            Item::Area(k, index) if k == kind => Some(index),
            _ => None,
        });
        areas::delete(scene, kind, of_kind.collect());
    }
}

/// Copied agents, targets, paths and obstacles, independent of any scene (regions, portals,
/// gates and spawn groups are not copied: they describe the world's layout).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clipboard {
    agents: Vec<Agent>,
    targets: Vec<Target>,
    paths: Vec<Path>,
    obstacles: Vec<Obstacle>,
}

impl Clipboard {
    /// Copies the selected objects of `scene`.
    pub fn copy(scene: &Scene, selection: &Selection) -> Clipboard {
        let mut c = Clipboard::default();
        for &item in &selection.0 {
            match item {
                Item::Agent(i) => c.agents.push(scene.agents[i].clone()),
                Item::Target(i) => c.targets.push(scene.targets[i].clone()),
                Item::Path(i) => c.paths.push(scene.paths[i].clone()),
                Item::Obstacle(i) => c.obstacles.push(scene.obstacles[i].clone()),
                Item::Area(..) => {}
            }
        }
        c
    }

    /// True when nothing was copied.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty() && self.targets.is_empty() && self.paths.is_empty() && self.obstacles.is_empty()
    }

    /// Adds the copies to `scene`, shifted by `offset`, with fresh agent ids and target/path names
    /// (goals between pasted objects follow the renames); returns the new objects as a selection.
    pub fn paste(&self, scene: &mut Scene, offset: Vec2) -> Selection {
        let mut added = Vec::new();
        let mut renames: Vec<(String, String)> = Vec::new();
        for t in &self.targets {
            let id = unique_name(&t.id, |n| scene.target(n).is_some());
            renames.push((t.id.clone(), id.clone()));
            added.push(Item::Target(scene.targets.len()));
            scene.targets.push(Target {
                id,
                position: t.position + offset,
                ..t.clone()
            });
        }
        for p in &self.paths {
            let id = unique_name(&p.id, |n| scene.path(n).is_some());
            renames.push((p.id.clone(), id.clone()));
            added.push(Item::Path(scene.paths.len()));
            let points = p.points.iter().map(|q| *q + offset).collect();
            scene.paths.push(Path {
                id,
                points,
                ..p.clone()
            });
        }
        for o in &self.obstacles {
            added.push(Item::Obstacle(scene.obstacles.len()));
            let mut o = o.clone();
            translate_obstacle(&mut o, offset);
            scene.obstacles.push(o);
        }
        let rename = |id: &str| renames.iter().find(|(old, _)| old == id).map(|(_, new)| new.clone());
        for a in &self.agents {
            let id = next_agent_id(scene);
            let mut goal = a.goal.clone();
            map_goal_ids(&mut goal, &rename);
            added.push(Item::Agent(scene.agents.len()));
            scene.agents.push(Agent {
                id,
                position: a.position + offset,
                goal,
                ..a.clone()
            });
        }
        Selection(added)
    }
}

/// Renames target or path `old` to `new` wherever `goal` (or a goal inside it) refers to it.
pub fn rename_in_goal(goal: &mut Goal, old: &str, new: &str) {
    map_goal_ids(goal, &|id| (id == old).then(|| new.to_string()));
}

/// Replaces every target and path id in `goal` (nested goals included) for which `rename` gives a new one.
fn map_goal_ids(goal: &mut Goal, rename: &dyn Fn(&str) -> Option<String>) {
    let apply = |id: &mut String| {
        if let Some(new) = rename(id) {
            *id = new;
        }
    };
    match goal {
        Goal::Target(id) | Goal::Path(id) => apply(id),
        Goal::Targets { ids, .. } => ids.iter_mut().for_each(apply),
        Goal::AnyOf(options) => options.iter_mut().for_each(|(_, g)| map_goal_ids(g, rename)),
        Goal::AllOf(goals) => goals.iter_mut().for_each(|g| map_goal_ids(g, rename)),
        Goal::None | Goal::Exit(_) | Goal::RandomWalk => {}
    }
}

/// One more than the largest agent id in use (0 for an empty scene).
pub fn next_agent_id(scene: &Scene) -> u32 {
    scene.agents.iter().map(|a| a.id + 1).max().unwrap_or(0)
}

/// `base` itself when free, else `base-2`, `base-3`, … (a trailing `-N` of `base` is replaced).
pub fn unique_name(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_string();
    }
    let stem = match base.rsplit_once('-') {
        Some((stem, n)) if n.parse::<u32>().is_ok() => stem,
        _ => base,
    };
    (2..)
        .map(|n| format!("{stem}-{n}"))
        .find(|n| !taken(n))
        .expect("some suffix is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene() -> Scene {
        let mut s = Scene::empty();
        s.targets.push(Target {
            id: "exit".into(),
            position: Vec2::new(5.0, 0.0),
            radius: 0.5,
        });
        s.agents.push(Agent {
            id: 3,
            profile: "walker".into(),
            position: Vec2::ZERO,
            heading_deg: 0.0,
            goal: Goal::Target("exit".into()),
            start_time: 0.0,
            end_time: None,
            agent_type: None,
        });
        s.obstacles.push(Obstacle::Polygon {
            vertices: vec![Vec2::new(-3.0, -1.0), Vec2::new(-2.0, -1.0), Vec2::new(-2.0, 1.0)],
        });
        s
    }

    #[test]
    fn hits_prefer_agents_and_find_polygons_inside() {
        let s = scene();
        assert_eq!(hit(&s, Vec2::new(0.1, 0.0), 0.05), Some(Item::Agent(0)));
        assert_eq!(hit(&s, Vec2::new(5.2, 0.1), 0.05), Some(Item::Target(0)));
        assert_eq!(hit(&s, Vec2::new(-2.2, -0.5), 0.05), Some(Item::Obstacle(0)));
        assert_eq!(hit(&s, Vec2::new(3.0, 3.0), 0.05), None);
    }

    #[test]
    fn paste_renames_and_rewires_goals() {
        let mut s = scene();
        let all = Selection(vec![Item::Agent(0), Item::Target(0)]);
        let pasted = Clipboard::copy(&s, &all).paste(&mut s, Vec2::new(1.0, 1.0));
        assert_eq!(pasted.0.len(), 2);
        assert_eq!(s.targets[1].id, "exit-2");
        assert_eq!(s.agents[1].id, 4);
        assert_eq!(s.agents[1].goal, Goal::Target("exit-2".into()));
        assert_eq!(s.agents[1].position, Vec2::new(1.0, 1.0));
        delete(&mut s, &pasted);
        assert_eq!(s, scene());
    }
}
