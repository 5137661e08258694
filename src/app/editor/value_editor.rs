//! A generic parameter editor for any serde type (behaviours, combiners, and whatever variants
//! they grow): the value is shown through its JSON form, numbers as drag values with units
//! guessed from the field name, booleans as check boxes, enum names as combo boxes whose choices
//! come from the type itself (serde's "expected one of …" list), and the edit is accepted only
//! when it deserializes back into the type.

use eframe::egui::{ComboBox, DragValue, Grid, Id, Response, Ui};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Edits `value` in place; returns true when the user changed it. `salt` keeps widget ids apart.
pub fn edit<T: Serialize + DeserializeOwned>(
    ui: &mut Ui,
    salt: impl std::hash::Hash + std::fmt::Debug,
    value: &mut T,
) -> bool {
    let Ok(original) = serde_json::to_value(&*value) else {
        return false;
    };
    let mut json = original.clone();
    let choices = |path: &[Step]| variant_choices::<T>(&original, path);
    ui.push_id(salt, |ui| {
        edit_value(ui, "", None, &mut json, &mut Vec::new(), &choices)
    });
    if json == original {
        return false;
    }
    match serde_json::from_value::<T>(json) {
        Ok(edited) => {
            *value = edited;
            true
        }
        Err(_) => false,
    }
}

/// A menu of the variants of the enum `value` (those that can be made with default parameters)
/// followed by the chosen variant's parameters; returns true when the user changed either.
pub fn edit_enum<T: Serialize + DeserializeOwned>(ui: &mut Ui, label: &str, value: &mut T) -> bool {
    let Ok(json) = serde_json::to_value(&*value) else {
        return false;
    };
    let current = match &json {
        Value::String(name) => name.clone(),
        Value::Object(map) if map.len() == 1 => map.keys().next().cloned().unwrap_or_default(),
        _ => String::new(),
    };
    let mut changed = false;
    ui.horizontal(|ui| {
        let name = ui.label(label);
        ComboBox::from_id_salt(ui.scope_id().with(label))
            .selected_text(current.clone())
            .show_ui(ui, |ui| {
                for (variant, made) in variants::<T>(&json) {
                    if ui.selectable_label(variant == current, &variant).clicked() && variant != current {
                        *value = made;
                        changed = true;
                    }
                }
            })
            .response
            .labelled_by(name.id);
    });
    changed | edit(ui, label, value)
}

/// Every variant of the enum that `json` is a value of, made with default parameters (variants
/// whose parameters have no defaults are left out).
fn variants<T: DeserializeOwned>(json: &Value) -> Vec<(String, T)> {
    let names = variant_choices::<T>(json, &[]).unwrap_or_default();
    names
        .into_iter()
        .filter_map(|name| {
            let candidates = [
                Value::String(name.clone()),
                serde_json::json!({ name.clone(): {} }),
                serde_json::json!({ name.clone(): [] }),
                serde_json::json!({ name.clone(): null }),
            ];
            let made = candidates
                .into_iter()
                .find_map(|c| serde_json::from_value::<T>(c).ok())?;
            Some((name, made))
        })
        .collect()
}

/// One step into a JSON tree.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn edit_value(
    ui: &mut Ui,
    key: &str,
    label: Option<Id>,
    value: &mut Value,
    path: &mut Vec<Step>,
    choices: &dyn Fn(&[Step]) -> Option<Vec<String>>,
) {
    match value {
        Value::Object(map) => {
            let grid_id = ui.scope_id().with(path_text(path));
            Grid::new(grid_id).num_columns(2).show(ui, |ui| {
                for (k, v) in map.iter_mut() {
                    let nested = matches!(v, Value::Object(_)) || is_long_array(v);
                    let name = k.replace('_', " ");
                    let label = ui.label(if v.is_boolean() { "" } else { name.as_str() }).id;
                    path.push(Step::Key(k.clone()));
                    if nested {
                        ui.end_row();
                        ui.label("");
                        ui.vertical(|ui| edit_value(ui, k, Some(label), v, path, choices));
                    } else {
                        ui.horizontal(|ui| edit_value(ui, k, Some(label), v, path, choices));
                    }
                    path.pop();
                    ui.end_row();
                }
            });
        }
        Value::Array(items) => {
            let horizontal = !is_long_array(&Value::Array(items.clone()));
            let mut each = |ui: &mut Ui| {
                for (i, item) in items.iter_mut().enumerate() {
                    path.push(Step::Index(i));
                    edit_value(ui, key, label, item, path, choices);
                    path.pop();
                }
            };
            if horizontal {
                ui.horizontal(|ui| each(ui));
            } else {
                ui.vertical(|ui| each(ui));
            }
        }
        Value::Number(n) => {
            let integer = n.is_u64() || n.is_i64();
            let mut x = n.as_f64().unwrap_or(0.0);
            let unit = unit_of(key);
            let mut drag = DragValue::new(&mut x)
                .suffix(unit)
                .speed(if integer { 1.0 } else { 0.01 });
            if integer {
                drag = drag.fixed_decimals(0);
            }
            if nonnegative(key) {
                drag = drag.range(0.0..=f64::MAX);
            }
            if labelled(ui.add(drag), label).changed() {
                *value = if integer {
                    Value::from(x.round() as i64)
                } else {
                    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
                };
            }
        }
        Value::Bool(b) => {
            ui.checkbox(b, key.replace('_', " "));
        }
        Value::String(s) => match choices(path) {
            Some(options) => {
                let mut chosen = s.clone();
                let combo = ComboBox::from_id_salt(ui.scope_id().with(path_text(path)))
                    .selected_text(chosen.clone())
                    .show_ui(ui, |ui| {
                        for o in options {
                            ui.selectable_value(&mut chosen, o.clone(), o);
                        }
                    });
                labelled(combo.response, label);
                *s = chosen;
            }
            None => {
                labelled(ui.text_edit_singleline(s), label);
            }
        },
        Value::Null => match choices(path) {
            Some(options) => {
                let mut chosen: Option<String> = None;
                let combo = ComboBox::from_id_salt(ui.scope_id().with(path_text(path)))
                    .selected_text("none")
                    .show_ui(ui, |ui| {
                        for o in options {
                            if ui.selectable_label(false, &o).clicked() {
                                chosen = Some(o);
                            }
                        }
                    });
                labelled(combo.response, label);
                if let Some(o) = chosen {
                    *value = Value::String(o);
                }
            }
            None => {
                ui.weak("none");
            }
        },
    }
}

/// The widget's response, named by the field label `label` for screen readers (and tests).
fn labelled(response: Response, label: Option<Id>) -> Response {
    match label {
        Some(id) => response.labelled_by(id),
        None => response,
    }
}

/// True for arrays laid out one item per line (anything but a short list of plain values).
fn is_long_array(v: &Value) -> bool {
    match v {
        Value::Array(items) => items.len() > 4 || items.iter().any(|i| i.is_object() || i.is_array()),
        _ => false,
    }
}

fn path_text(path: &[Step]) -> String {
    path.iter()
        .map(|s| match s {
            Step::Key(k) => format!(".{k}"),
            Step::Index(i) => format!("[{i}]"),
        })
        .collect()
}

/// The enum variant names allowed at `path` of `root` for type `T`, found by putting an unknown
/// name there and reading serde's "expected one of" list; `None` when the place is not an enum.
fn variant_choices<T: DeserializeOwned>(root: &Value, path: &[Step]) -> Option<Vec<String>> {
    const PROBE: &str = "\u{1}probe";
    let mut probe = root.clone();
    *at_mut(&mut probe, path)? = Value::String(PROBE.into());
    let message = serde_json::from_value::<T>(probe).err()?.to_string();
    let expected = message.strip_prefix(&format!("unknown variant `{PROBE}`, expected"))?;
    let names: Vec<String> = expected.split('`').skip(1).step_by(2).map(str::to_string).collect();
    (!names.is_empty()).then_some(names)
}

fn at_mut<'a>(value: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |v, step| match step {
        Step::Key(k) => v.get_mut(k.as_str()),
        Step::Index(i) => v.get_mut(*i),
    })
}

/// The unit suffix for a field name, following the scene format's conventions.
pub fn unit_of(key: &str) -> &'static str {
    let k = key.to_ascii_lowercase();
    if k.ends_with("rate_deg") {
        " °/s"
    } else if k.ends_with("_deg") || k.contains("angle") {
        " °"
    } else if k.contains("speed") || k.contains("velocity") && !k.contains("multiplier") {
        " m/s"
    } else if k.contains("force") && !k.contains("distance") {
        " N"
    } else if k.contains("mass") {
        " kg"
    } else if k.contains("time") || k == "tick" || k == "dt" || k == "duration" {
        " s"
    } else if [
        "radius", "distance", "width", "length", "size", "offset", "gap", "spacing", "range",
    ]
    .iter()
    .any(|w| k.contains(w))
    {
        " m"
    } else {
        ""
    }
}

/// True for fields that cannot be negative (lengths, weights, masses, speeds, times).
fn nonnegative(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    let signed = ["deg", "angle", "offset", "velocity"].iter().any(|w| k.contains(w)) || k == "x" || k == "y";
    k.contains("weight") || !(signed || unit_of(key).is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::steering::{Behaviour, Deceleration};

    #[test]
    fn enum_choices_come_from_the_type() {
        let b = Behaviour::Arrive {
            deceleration: Deceleration::Normal,
        };
        let root = serde_json::to_value(&b).unwrap();
        let path = [Step::Key("Arrive".into()), Step::Key("deceleration".into())];
        let names = variant_choices::<Behaviour>(&root, &path).unwrap();
        assert!(
            names.contains(&"Slow".to_string()) && names.contains(&"Fast".to_string()),
            "{names:?}"
        );
        let path = [Step::Key("Arrive".into())];
        assert_eq!(
            variant_choices::<Behaviour>(&root, &path),
            None,
            "an object is not a name"
        );
    }

    #[test]
    fn enum_variants_are_made_with_defaults() {
        use crate::scene::steering::Combiner;
        let json = serde_json::to_value(Combiner::default()).unwrap();
        let names: Vec<String> = variants::<Combiner>(&json).into_iter().map(|(n, _)| n).collect();
        for expected in ["WeightedTruncatedSum", "Popelova"] {
            assert!(names.iter().any(|n| n == expected), "{expected} in {names:?}");
        }
    }

    #[test]
    fn units_follow_field_names() {
        assert_eq!(unit_of("max_turn_rate_deg"), " °/s");
        assert_eq!(unit_of("view_radius"), " m");
        assert_eq!(unit_of("preferred_speed"), " m/s");
        assert_eq!(unit_of("weight"), "");
    }
}
