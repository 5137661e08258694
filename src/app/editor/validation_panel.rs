//! The validation panel: every problem of the scene with the same messages as `crowdlab check`;
//! clicking one selects the object it is about.

use eframe::egui::{Color32, RichText, Ui};

use super::areas::AreaKind;
use super::selection::Item;
use crate::scene::Problem;

/// Lists `problems`; returns the object of the one clicked, if any.
pub fn show(ui: &mut Ui, problems: &[Problem]) -> Option<Item> {
    if problems.is_empty() {
        ui.label(RichText::new("No problems").color(Color32::from_rgb(60, 150, 60)));
        return None;
    }
    let mut clicked = None;
    for p in problems {
        let text = RichText::new(p.to_string()).color(Color32::from_rgb(210, 60, 60));
        let r = ui
            .selectable_label(false, text)
            .on_hover_text("Click to select the object");
        if r.clicked() {
            clicked = item_of(&p.path);
        }
    }
    clicked
}

/// The object a problem's field path starts with, e.g. `agents[2].goal` → agent 2.
pub fn item_of(path: &str) -> Option<Item> {
    let (list, rest) = path.split_once('[')?;
    let index: usize = rest.split_once(']')?.0.parse().ok()?;
    match list {
        "agents" => Some(Item::Agent(index)),
        "targets" => Some(Item::Target(index)),
        "paths" => Some(Item::Path(index)),
        "obstacles" => Some(Item::Obstacle(index)),
        list => AreaKind::ALL
            .into_iter()
            .find(|k| k.list() == list)
            .map(|kind| Item::Area(kind, index)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problem_paths_name_their_object() {
        assert_eq!(item_of("agents[2].goal"), Some(Item::Agent(2)));
        assert_eq!(item_of("obstacles[10]"), Some(Item::Obstacle(10)));
        assert_eq!(item_of("gates[1].from"), Some(Item::Area(AreaKind::Gate, 1)));
        assert_eq!(item_of("profiles[0].radius"), None);
        assert_eq!(item_of("settings.dt"), None);
    }
}
