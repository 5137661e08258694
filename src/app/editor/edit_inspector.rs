//! The inspector: every field of the selected object with units and limits, and the
//! validation problems of that object shown inline. With several objects of one kind selected,
//! it edits the fields they share (a changed field is set on all of them).

use eframe::egui::{self, Color32, ComboBox, DragValue, Grid, Ui};
use glam::Vec2;

use super::areas::AreaKind;
use super::profiles_panel::profile_editor;
use super::selection::{Item, Selection, rename_in_goal};
use super::value_editor;
use crate::scene::{Agent, Goal, Obstacle, Path, Problem, Scene, Target};

/// Draws the inspector for `selection`; returns the edited scene, if changed.
pub fn show(ui: &mut Ui, scene: &Scene, selection: &Selection, problems: &[Problem]) -> Option<Scene> {
    let mut edited = scene.clone();
    match selection.0.as_slice() {
        [] => {
            ui.weak("Nothing selected. Pick the Select tool (V) and click an object.");
        }
        [item] => {
            single(ui, &mut edited, *item);
            inline_problems(ui, problems, &prefix(*item));
        }
        items => shared(ui, &mut edited, items),
    }
    (edited != *scene).then_some(edited)
}

/// The field-path prefix of `item` in validation messages, e.g. `agents[3]`.
pub fn prefix(item: Item) -> String {
    match item {
        Item::Agent(i) => format!("agents[{i}]"),
        Item::Target(i) => format!("targets[{i}]"),
        Item::Path(i) => format!("paths[{i}]"),
        Item::Obstacle(i) => format!("obstacles[{i}]"),
        Item::Area(kind, i) => format!("{}[{i}]", kind.list()),
    }
}

fn inline_problems(ui: &mut Ui, problems: &[Problem], prefix: &str) {
    let own = |p: &&Problem| p.path == prefix || p.path.starts_with(&format!("{prefix}."));
    for p in problems.iter().filter(own) {
        ui.colored_label(Color32::from_rgb(210, 60, 60), p.to_string());
    }
}

fn single(ui: &mut Ui, scene: &mut Scene, item: Item) {
    match item {
        Item::Agent(i) => {
            ui.strong(format!("Agent {}", scene.agents[i].id));
            let names = goal_names(scene);
            let agent = &mut scene.agents[i];
            Grid::new("agent").num_columns(2).show(ui, |ui| {
                number_u32(ui, "id", &mut agent.id);
                vec2_row(ui, "position", &mut agent.position);
                agent_fields(ui, agent, &names);
            });
            let name = scene.agents[i].profile.clone();
            if let Some(k) = scene.profiles.iter().position(|p| p.name == name) {
                let users = scene.agents.iter().filter(|a| a.profile == name).count();
                egui::CollapsingHeader::new(format!("Profile {name} (shared by {users} agent(s))"))
                    .default_open(false)
                    .show(ui, |ui| {
                        let before = scene.profiles[k].name.clone();
                        profile_editor(ui, &mut scene.profiles[k]);
                        let after = scene.profiles[k].name.clone();
                        for a in scene.agents.iter_mut().filter(|a| a.profile == before) {
                            a.profile = after.clone();
                        }
                    });
            }
        }
        Item::Target(i) => {
            ui.strong("Target");
            let old = scene.targets[i].id.clone();
            Grid::new("target")
                .num_columns(2)
                .show(ui, |ui| target_fields(ui, &mut scene.targets[i], true));
            rename_goals(scene, &old, &scene.targets[i].id.clone());
        }
        Item::Path(i) => {
            ui.strong("Path");
            let old = scene.paths[i].id.clone();
            Grid::new("path")
                .num_columns(2)
                .show(ui, |ui| path_fields(ui, &mut scene.paths[i], true));
            rename_goals(scene, &old, &scene.paths[i].id.clone());
        }
        Item::Obstacle(i) => obstacle_fields(ui, &mut scene.obstacles[i]),
        Item::Area(kind, i) => {
            ui.strong(format!("{kind:?}"));
            match kind {
                AreaKind::Region => value_editor::edit(ui, "region", &mut scene.regions[i]),
                AreaKind::Portal => value_editor::edit(ui, "portal", &mut scene.portals[i]),
                AreaKind::Gate => value_editor::edit(ui, "gate", &mut scene.gates[i]),
                AreaKind::Spawn => value_editor::edit(ui, "spawn", &mut scene.spawns[i]),
                AreaKind::MeasureArea => value_editor::edit(ui, "measurement area", &mut scene.measurement_areas[i]),
                AreaKind::MeasureLine => value_editor::edit(ui, "measurement line", &mut scene.measurement_lines[i]),
            };
        }
    }
}

/// Edits the fields shared by every selected object of the first selected kind.
fn shared(ui: &mut Ui, scene: &mut Scene, items: &[Item]) {
    ui.strong(format!("{} objects selected", items.len()));
    let agents: Vec<usize> = items
        .iter()
        .filter_map(|i| if let Item::Agent(k) = i { Some(*k) } else { None })
        .collect();
    let targets: Vec<usize> = items
        .iter()
        .filter_map(|i| if let Item::Target(k) = i { Some(*k) } else { None })
        .collect();
    let paths: Vec<usize> = items
        .iter()
        .filter_map(|i| if let Item::Path(k) = i { Some(*k) } else { None })
        .collect();
    if let Some(&first) = agents.first() {
        ui.label(format!("Shared fields of {} agents", agents.len()));
        let names = goal_names(scene);
        let before = scene.agents[first].clone();
        let mut after = before.clone();
        Grid::new("agents")
            .num_columns(2)
            .show(ui, |ui| agent_fields(ui, &mut after, &names));
        for &k in &agents {
            let a = &mut scene.agents[k];
            copy_if_changed(&before.profile, &after.profile, &mut a.profile);
            copy_if_changed(&before.heading_deg, &after.heading_deg, &mut a.heading_deg);
            copy_if_changed(&before.goal, &after.goal, &mut a.goal);
            copy_if_changed(&before.start_time, &after.start_time, &mut a.start_time);
            copy_if_changed(&before.end_time, &after.end_time, &mut a.end_time);
        }
    }
    if let Some(&first) = targets.first() {
        ui.label(format!("Shared fields of {} targets", targets.len()));
        let before = scene.targets[first].clone();
        let mut after = before.clone();
        Grid::new("targets")
            .num_columns(2)
            .show(ui, |ui| target_fields(ui, &mut after, false));
        for &k in &targets {
            copy_if_changed(&before.radius, &after.radius, &mut scene.targets[k].radius);
        }
    }
    if let Some(&first) = paths.first() {
        ui.label(format!("Shared fields of {} paths", paths.len()));
        let before = scene.paths[first].clone();
        let mut after = before.clone();
        Grid::new("paths")
            .num_columns(2)
            .show(ui, |ui| path_fields(ui, &mut after, false));
        for &k in &paths {
            copy_if_changed(&before.width, &after.width, &mut scene.paths[k].width);
            copy_if_changed(&before.closed, &after.closed, &mut scene.paths[k].closed);
        }
    }
}

fn copy_if_changed<T: Clone + PartialEq>(before: &T, after: &T, target: &mut T) {
    if before != after {
        *target = after.clone();
    }
}

/// The names an agent's profile and goal can refer to.
struct GoalNames {
    profiles: Vec<String>,
    targets: Vec<String>,
    paths: Vec<String>,
    exits: Vec<String>,
}

fn goal_names(scene: &Scene) -> GoalNames {
    GoalNames {
        profiles: scene.profiles.iter().map(|p| p.name.clone()).collect(),
        targets: scene.targets.iter().map(|t| t.id.clone()).collect(),
        paths: scene.paths.iter().map(|p| p.id.clone()).collect(),
        exits: scene.gates.iter().map(|g| g.id.clone()).collect(),
    }
}

/// A word for composite goals in the goal menu.
fn goal_kind(goal: &Goal) -> &'static str {
    match goal {
        Goal::Targets { .. } => "targets in order",
        Goal::AllOf(_) => "all of (in order)",
        Goal::AnyOf(_) => "one of (weighted)",
        Goal::RandomWalk => "random walk",
        _ => "single",
    }
}

/// Points agents' goals at a renamed target or path.
fn rename_goals(scene: &mut Scene, old: &str, new: &str) {
    if old != new {
        for a in &mut scene.agents {
            rename_in_goal(&mut a.goal, old, new);
        }
    }
}

/// The agent fields that several agents can share: profile, heading, goal, start and end time.
fn agent_fields(ui: &mut Ui, agent: &mut Agent, names: &GoalNames) {
    let GoalNames {
        profiles,
        targets,
        paths,
        exits,
    } = names;
    let label = ui.label("profile");
    ComboBox::from_id_salt("agent profile")
        .selected_text(agent.profile.clone())
        .show_ui(ui, |ui| {
            for p in profiles {
                ui.selectable_value(&mut agent.profile, p.clone(), p);
            }
        })
        .response
        .labelled_by(label.id);
    ui.end_row();
    number(ui, "heading", &mut agent.heading_deg, -360.0..=360.0, " °");
    let label = ui.label("goal");
    let shown = match &agent.goal {
        Goal::None => "none".to_string(),
        Goal::Target(t) => format!("target {t}"),
        Goal::Path(p) => format!("path {p}"),
        Goal::Exit(g) => format!("exit {g}"),
        other => goal_kind(other).to_string(),
    };
    ComboBox::from_id_salt("agent goal")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut agent.goal, Goal::None, "none");
            for t in targets {
                ui.selectable_value(&mut agent.goal, Goal::Target(t.clone()), format!("target {t}"));
            }
            for p in paths {
                ui.selectable_value(&mut agent.goal, Goal::Path(p.clone()), format!("path {p}"));
            }
            for g in exits {
                ui.selectable_value(&mut agent.goal, Goal::Exit(g.clone()), format!("exit {g}"));
            }
            ui.selectable_value(&mut agent.goal, Goal::RandomWalk, "random walk");
            let composite = [
                Goal::Targets {
                    ids: targets.to_vec(),
                    cycle: false,
                },
                Goal::AllOf(vec![Goal::None]),
                Goal::AnyOf(vec![(1.0, Goal::None)]),
            ];
            for g in composite {
                let name = goal_kind(&g);
                ui.selectable_value(&mut agent.goal, g, name);
            }
        })
        .response
        .labelled_by(label.id);
    ui.end_row();
    if matches!(agent.goal, Goal::Targets { .. } | Goal::AllOf(_) | Goal::AnyOf(_)) {
        ui.label("");
        ui.vertical(|ui| value_editor::edit(ui, "goal parts", &mut agent.goal));
        ui.end_row();
    }
    number(ui, "start time", &mut agent.start_time, 0.0..=f32::MAX, " s");
    let label = ui.label("end time");
    ui.horizontal(|ui| {
        let mut has_end = agent.end_time.is_some();
        ui.checkbox(&mut has_end, "").labelled_by(label.id);
        match (has_end, &mut agent.end_time) {
            (true, Some(end)) => {
                ui.add(
                    DragValue::new(end)
                        .range(agent.start_time..=f32::MAX)
                        .speed(0.1)
                        .suffix(" s"),
                )
                .labelled_by(label.id);
            }
            (true, None) => agent.end_time = Some(agent.start_time + 10.0),
            (false, _) => agent.end_time = None,
        }
    });
    ui.end_row();
}

fn target_fields(ui: &mut Ui, target: &mut Target, own: bool) {
    if own {
        text_row(ui, "target id", &mut target.id);
        vec2_row(ui, "position", &mut target.position);
    }
    number(ui, "arrival radius", &mut target.radius, 0.01..=1000.0, " m");
}

fn path_fields(ui: &mut Ui, path: &mut Path, own: bool) {
    if own {
        text_row(ui, "path id", &mut path.id);
    }
    number(ui, "width", &mut path.width, 0.01..=1000.0, " m");
    let label = ui.label("closed");
    ui.checkbox(&mut path.closed, "").labelled_by(label.id);
    ui.end_row();
    if own {
        points_rows(ui, "point", &mut path.points, 2);
    }
}

fn obstacle_fields(ui: &mut Ui, obstacle: &mut Obstacle) {
    let title = match obstacle {
        Obstacle::Circle { .. } => "Circle obstacle",
        Obstacle::Polygon { .. } => "Polygon obstacle",
        Obstacle::Wall { .. } => "Wall",
        Obstacle::MovingCircle { .. } => "Moving circle",
    };
    ui.strong(title);
    Grid::new("obstacle").num_columns(2).show(ui, |ui| match obstacle {
        Obstacle::Circle { center, radius } => {
            vec2_row(ui, "centre", center);
            number(ui, "radius", radius, 0.01..=1000.0, " m");
        }
        Obstacle::MovingCircle {
            center,
            radius,
            velocity,
        } => {
            vec2_row(ui, "centre", center);
            number(ui, "radius", radius, 0.01..=1000.0, " m");
            vec2_row(ui, "velocity (m/s)", velocity);
        }
        Obstacle::Polygon { vertices } => points_rows(ui, "vertex", vertices, 3),
        Obstacle::Wall { a, b } => {
            vec2_row(ui, "end a", a);
            vec2_row(ui, "end b", b);
        }
    });
}

/// One row per point with a remove button (kept at `min` points).
fn points_rows(ui: &mut Ui, name: &str, points: &mut Vec<Vec2>, min: usize) {
    let mut remove = None;
    let n = points.len();
    for (k, p) in points.iter_mut().enumerate() {
        ui.push_id(k, |ui| {
            ui.label(format!("{name} {k}"));
            ui.horizontal(|ui| {
                ui.add(DragValue::new(&mut p.x).speed(0.05).prefix("x ").suffix(" m"));
                ui.add(DragValue::new(&mut p.y).speed(0.05).prefix("y ").suffix(" m"));
                if ui
                    .add_enabled(n > min, egui::Button::new("remove"))
                    .on_hover_text(format!("Remove this {name}"))
                    .clicked()
                {
                    remove = Some(k);
                }
            });
        });
        ui.end_row();
    }
    if let Some(k) = remove {
        points.remove(k);
    }
}

fn vec2_row(ui: &mut Ui, name: &str, v: &mut Vec2) {
    ui.label(name);
    ui.horizontal(|ui| {
        ui.add(DragValue::new(&mut v.x).speed(0.05).prefix("x ").suffix(" m"));
        ui.add(DragValue::new(&mut v.y).speed(0.05).prefix("y ").suffix(" m"));
    });
    ui.end_row();
}

fn number(ui: &mut Ui, name: &str, value: &mut f32, range: std::ops::RangeInclusive<f32>, unit: &str) {
    let label = ui.label(name);
    ui.add(DragValue::new(value).range(range).speed(0.05).suffix(unit))
        .labelled_by(label.id);
    ui.end_row();
}

fn number_u32(ui: &mut Ui, name: &str, value: &mut u32) {
    let label = ui.label(name);
    ui.add(DragValue::new(value)).labelled_by(label.id);
    ui.end_row();
}

fn text_row(ui: &mut Ui, name: &str, text: &mut String) {
    let label = ui.label(name);
    ui.text_edit_singleline(text).labelled_by(label.id);
    ui.end_row();
}
