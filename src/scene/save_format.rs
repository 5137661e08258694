//! The text a scene is saved as: only the fields that differ from their defaults, and — when
//! the scene was loaded from a file — that file's field order, line breaks, explicitly written
//! fields and comments, so a hand-written scene comes back close to how its author wrote it.

use std::collections::HashMap;
use std::path::Path;

use super::io::parse_scene;
use super::model::Scene;
use super::ron_tree::{self, Group, Item, Value};

/// Columns a group may use before it is broken one item per line (when the file gives no say).
const WIDTH: usize = 100;

/// The scene as RON text laid out after `template`, the text it was loaded from (if any).
/// Reading the result gives back exactly `scene`; should the careful layout ever fail that
/// check, every field is written out instead.
pub fn scene_text(scene: &Scene, template: Option<&str>) -> String {
    let full = full_tree(scene);
    let template = template.and_then(|t| ron_tree::parse(t).ok());
    let mut tree = full.clone();
    let mut defaults = Defaults {
        full: &full,
        known: HashMap::new(),
    };
    shape(&mut tree, template.as_ref(), &mut defaults, &mut Vec::new(), "");
    let text = ron_tree::print(&tree, WIDTH);
    if parse_scene(&text, Path::new("saved scene")).is_ok_and(|back| back == *scene) {
        return text;
    }
    let mut plain = full;
    shape_without_defaults(&mut plain);
    ron_tree::print(&plain, WIDTH)
}

/// Every field of the scene, as serde writes it.
fn full_tree(scene: &Scene) -> Value {
    let text = ron::to_string(scene).expect("scene model always serialises");
    ron_tree::parse(&text).expect("ron's own output is a tree")
}

/// Drops the layout marks of serde's one-line output, keeping every field.
fn shape_without_defaults(value: &mut Value) {
    if let Value::Group(group) = value {
        group.one_line = None;
        group
            .items
            .iter_mut()
            .for_each(|i| shape_without_defaults(&mut i.value));
    }
}

/// A step from a group to one of its items: by field name, or by position.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Position(usize),
}

/// The default value of each field, found by leaving the field out of a small copy of the
/// scene and reading what serde fills in; remembered per field pattern (`profiles[]/radius`).
struct Defaults<'a> {
    full: &'a Value,
    known: HashMap<String, Option<String>>,
}

impl Defaults<'_> {
    /// The one-line text of the default of the field at `path`, or `None` when it has none.
    fn of(&mut self, path: &[Step], pattern: &str) -> Option<String> {
        if let Some(known) = self.known.get(pattern) {
            return known.clone();
        }
        let found = self.probe(path);
        self.known.insert(pattern.to_string(), found.clone());
        found
    }

    fn probe(&self, path: &[Step]) -> Option<String> {
        let without = without_field(self.full, path);
        let scene = parse_scene(&without.one_line(), Path::new("probe")).ok()?;
        let mut value = &full_tree(&scene);
        let mut found = None;
        for step in path {
            let group = value.group()?;
            let item = match step {
                Step::Key(key) => group.field(key)?,
                Step::Position(_) if group.is_list() => group.items.first()?,
                Step::Position(p) => group.items.get(*p)?,
            };
            value = &item.value;
            found = Some(value);
        }
        found.map(Value::one_line)
    }
}

/// A copy of `value` without the field at `path`, with every list off the path emptied and every
/// list on it cut to the one element the path goes through, so that it parses quickly.
fn without_field(value: &Value, path: &[Step]) -> Value {
    let Value::Group(group) = value else {
        return value.clone();
    };
    let item_with = |item: &Item, value: Value| Item {
        key: item.key.clone(),
        value,
        comments: Vec::new(),
        trailing: None,
    };
    let mut items = Vec::new();
    for (n, item) in group.items.iter().enumerate() {
        let on_path = match &path[0] {
            Step::Key(key) => item.key.as_ref() == Some(key),
            Step::Position(p) => *p == n,
        };
        if on_path {
            if path.len() > 1 {
                items.push(item_with(item, without_field(&item.value, &path[1..])));
            }
        } else if !group.is_list() {
            let value = match &item.value {
                Value::Group(g) if g.open != '(' => Value::Group(g.with_items(Vec::new())),
                other => other.clone(),
            };
            items.push(item_with(item, value));
        }
    }
    Value::Group(group.with_items(items))
}

/// Shapes `value` (a fresh serde tree) after `template`: drops defaulted fields the template did
/// not write, orders fields as the template does, and takes its line breaks and comments.
fn shape(value: &mut Value, template: Option<&Value>, defaults: &mut Defaults, path: &mut Vec<Step>, pattern: &str) {
    let group = match (value, template) {
        (Value::Group(group), _) => group,
        (Value::Atom(text), Some(Value::Atom(written))) if same_token(text, written) => {
            text.clone_from(written);
            return;
        }
        (Value::Atom(_), _) => return,
    };
    let template = template.and_then(Value::group);
    group.closing_comments = template.map(|t| t.closing_comments.clone()).unwrap_or_default();
    let pattern = format!("{pattern}{}", group.name.as_deref().unwrap_or(""));
    let mut used = vec![false; template.map_or(0, |t| t.items.len())];
    let mut kept = Vec::with_capacity(group.items.len());
    for (n, mut item) in std::mem::take(&mut group.items).into_iter().enumerate() {
        let counterpart = template.and_then(|t| counterpart(t, group.is_list(), &item, n, &mut used));
        let (step, segment) = match &item.key {
            Some(key) => (Step::Key(key.clone()), format!("/{key}")),
            None if group.is_list() => (Step::Position(n), "/[]".to_string()),
            None => (Step::Position(n), format!("/{n}")),
        };
        path.push(step);
        let segment = format!("{pattern}{segment}");
        let defaulted = item.key.is_some()
            && counterpart.is_none()
            && defaults.of(path, &segment).is_some_and(|d| d == item.value.one_line());
        if !defaulted {
            if let Some(t) = counterpart {
                item.comments = t.comments.clone();
                item.trailing = t.trailing.clone();
            }
            shape(&mut item.value, counterpart.map(|t| &t.value), defaults, path, &segment);
            kept.push(item);
        }
        path.pop();
    }
    if let Some(t) = template {
        order_like(&mut kept, t);
    }
    group.items = kept;
    group.one_line = template.and_then(|t| one_line_mark(group, t));
}

/// True when two tokens mean the same, e.g. `"it\'s"` and `"it's"`, `0.0001` and `1e-4`, or
/// the raw identifier `r#None` and `None`.
fn same_token(a: &str, b: &str) -> bool {
    unraw(a) == unraw(b)
        || matches!(
            (ron::from_str::<ron::Value>(a), ron::from_str::<ron::Value>(b)),
            (Ok(x), Ok(y)) if x == y
        )
}

/// An identifier without its raw marker `r#`.
fn unraw(token: &str) -> &str {
    token
        .strip_prefix("r#")
        .filter(|rest| !rest.starts_with(['"', '#']))
        .unwrap_or(token)
}

/// The template's layout for `group`, if it still suits: a one-line group stays on one line
/// only while it has not grown much longer than it was.
fn one_line_mark(group: &Group, template: &Group) -> Option<bool> {
    match template.one_line? {
        true => {
            let now = group.one_line().len();
            let then = template.one_line().len();
            (now <= WIDTH.max(then + then / 2)).then_some(true)
        }
        false => Some(false),
    }
}

/// The template item that `item` (number `n` of its group) stands for: the field of the same
/// name; in a list the element with the same text (preferring the same place), else the element
/// at the same place; in a tuple the same place.
fn counterpart<'t>(template: &'t Group, in_list: bool, item: &Item, n: usize, used: &mut [bool]) -> Option<&'t Item> {
    let index = match &item.key {
        Some(key) => template.items.iter().position(|t| t.key.as_ref() == Some(key)),
        None if in_list => {
            let text = item.value.one_line();
            let same_text = |i: &usize| !used[*i] && template.items[*i].value.one_line() == text;
            Some(n)
                .filter(|i| *i < used.len() && same_text(i))
                .or_else(|| (0..used.len()).find(same_text))
                .or(Some(n).filter(|i| *i < used.len() && !used[*i]))
        }
        None => Some(n).filter(|i| *i < used.len()),
    }?;
    used[index] = true;
    Some(&template.items[index])
}

/// Orders the fields of `items` as in `template`; a field the template lacks follows the field
/// it followed in serde's order.
fn order_like(items: &mut [Item], template: &Group) {
    if items.iter().any(|i| i.key.is_none()) {
        return;
    }
    let mut rank = 0.0;
    let mut ranked: Vec<(f64, usize)> = Vec::with_capacity(items.len());
    for (n, item) in items.iter().enumerate() {
        rank = match template.items.iter().position(|t| t.key == item.key) {
            Some(p) => p as f64,
            None => rank + 1e-3,
        };
        ranked.push((rank, n));
    }
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let order: Vec<usize> = ranked.into_iter().map(|(_, n)| n).collect();
    let original = items.to_vec();
    for (slot, n) in order.into_iter().enumerate() {
        items[slot] = original[n].clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Obstacle, default_scene};
    use glam::Vec2;

    #[test]
    fn defaults_are_left_out_and_the_text_reads_back_the_same() {
        let scene = Scene::empty();
        let text = scene_text(&scene, None);
        assert!(!text.contains("non_penetration"), "{text}");
        assert!(!text.contains("regions"), "{text}");
        assert!(text.contains("max_speed: 1.8"), "required fields stay: {text}");
        assert_eq!(parse_scene(&text, Path::new("x")).unwrap(), scene);
    }

    #[test]
    fn a_loaded_file_keeps_its_comments_order_layout_and_explicit_defaults() {
        let original = "(
  // A hand-written scene.
  version: 1,
  name: \"hand\",
  bounds: (min: (-5.0, -5.0), max: (5.0, 5.0)),
  settings: (seed: 3, dt: 0.1, duration: 20.0, non_penetration: false), // explicit default
  profiles: [
    (name: \"walker\", radius: 0.3, mass: 1.0, max_speed: 1.8, preferred_speed: 1.3, max_force: 4.0, max_turn_rate_deg: 360.0, behaviours: []),
  ],
  agents: [],
  obstacles: [
    // the fountain
    Circle(center: (0.0, 0.0), radius: 1.0),
  ],
)
";
        let mut scene = parse_scene(original, Path::new("hand.ron")).unwrap();
        assert_eq!(
            scene_text(&scene, Some(original)),
            original,
            "unchanged scene, unchanged text"
        );
        scene.obstacles.push(Obstacle::Wall {
            a: Vec2::new(1.0, 1.0),
            b: Vec2::new(2.0, 1.0),
        });
        scene.obstacles[0] = Obstacle::Circle {
            center: Vec2::ZERO,
            radius: 1.5,
        };
        let text = scene_text(&scene, Some(original));
        let changed: Vec<_> = diff_lines(original, &text);
        assert_eq!(
            changed,
            [
                "-    Circle(center: (0.0, 0.0), radius: 1.0),",
                "+    Circle(center: (0.0, 0.0), radius: 1.5),",
                "+    Wall(a: (1.0, 1.0), b: (2.0, 1.0)),"
            ],
            "{text}"
        );
        assert!(text.contains("    // the fountain\n    Circle"), "{text}");
    }

    #[test]
    fn tokens_keep_the_spelling_of_the_file() {
        assert!(same_token("\"it\\'s\"", "\"it's\""));
        assert!(same_token("0.0001", "1e-4"));
        assert!(same_token("r#None", "None"));
        assert!(!same_token("0.5", "0.25"));
        assert!(!same_token("\"a\"", "\"b\""));
    }

    #[test]
    fn the_embedded_default_scene_saves_as_its_own_text() {
        let original = include_str!("../../assets/default_scene.ron");
        let text = scene_text(&default_scene(), Some(original));
        assert_eq!(diff_lines(original, &text), Vec::<String>::new());
    }

    /// Lines only in `a` (`-`) and only in `b` (`+`), as multisets.
    fn diff_lines(a: &str, b: &str) -> Vec<String> {
        let mut only_b: Vec<&str> = b.lines().collect();
        let mut out = Vec::new();
        for line in a.lines() {
            match only_b.iter().position(|l| *l == line) {
                Some(p) => {
                    only_b.remove(p);
                }
                None => out.push(format!("-{line}")),
            }
        }
        out.extend(only_b.into_iter().map(|l| format!("+{l}")));
        out
    }
}
