//! The key of the agent colouring, under the "colour by" menu: a colour bar with its scale for
//! speed (share of the profile's top speed) and density (neighbours within a metre, with the
//! local density that means), a swatch per status, mind state or profile for the others.

use eframe::egui::{self, Align2, Color32, FontId, Mesh, Pos2, Rect, Sense, Ui, vec2};

use super::paint::color32;
use crate::draw::{ColourBy, DENSITY_FULL_SCALE, DENSITY_RADIUS, force_color, palette, ramp};
use crate::record::RecordingHeader;

/// Height of the colour bar (pixels).
const BAR_HEIGHT: f32 = 12.0;
/// Colour stops along the bar.
const BAR_STOPS: usize = 24;

/// Draws the key of `mode` for the run recorded under `header`.
pub fn show(ui: &mut Ui, header: &RecordingHeader, mode: ColourBy) {
    match mode {
        ColourBy::Speed => {
            scale(ui, "speed / the agent's top speed", &["0", "50 %", "100 %"]);
        }
        ColourBy::Density => {
            let area = std::f32::consts::PI * DENSITY_RADIUS * DENSITY_RADIUS;
            let full = DENSITY_FULL_SCALE as f32;
            let title = format!("neighbours within {DENSITY_RADIUS} m");
            let half = format!("{}", DENSITY_FULL_SCALE / 2);
            let top = format!("{DENSITY_FULL_SCALE}+");
            scale(ui, &title, &["0", &half, &top]);
            ui.weak(format!(
                "{full} neighbours ≈ {:.1} P/m² around the agent",
                (full + 1.0) / area
            ));
        }
        ColourBy::Status => {
            let pal = palette();
            swatches(
                ui,
                [
                    ("walking", pal.agent),
                    ("arrived", pal.agent_arrived),
                    ("in contact", pal.agent_colliding),
                ]
                .map(|(n, c)| (n.to_string(), color32(c))),
            );
        }
        ColourBy::State => swatches(ui, header.states.iter().map(|s| (s.clone(), color32(force_color(s))))),
        ColourBy::Group => swatches(
            ui,
            header
                .scene
                .profiles
                .iter()
                .map(|p| (p.name.clone(), color32(force_color(&p.name)))),
        ),
    }
}

/// A colour bar of [`ramp`] from 0 to 1 titled `title`, with `labels` spread evenly under it.
fn scale(ui: &mut Ui, title: &str, labels: &[&str]) {
    ui.label(title);
    let width = ui.available_width().min(180.0);
    let (rect, response) = ui.allocate_exact_size(vec2(width, BAR_HEIGHT + 12.0), Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, format!("colour scale: {title}")));
    let bar = Rect::from_min_size(rect.min, vec2(width, BAR_HEIGHT));
    let mut mesh = Mesh::default();
    for i in 0..=BAR_STOPS {
        let t = i as f32 / BAR_STOPS as f32;
        let x = bar.left() + t * bar.width();
        let colour = color32(ramp(t));
        mesh.colored_vertex(Pos2::new(x, bar.top()), colour);
        mesh.colored_vertex(Pos2::new(x, bar.bottom()), colour);
        if i > 0 {
            let k = 2 * i as u32;
            mesh.add_triangle(k - 2, k - 1, k);
            mesh.add_triangle(k - 1, k, k + 1);
        }
    }
    let painter = ui.painter();
    painter.add(mesh);
    let text = ui.visuals().text_color();
    for (n, label) in labels.iter().enumerate() {
        let t = n as f32 / (labels.len() - 1).max(1) as f32;
        let align = match n {
            0 => Align2::LEFT_TOP,
            n if n + 1 == labels.len() => Align2::RIGHT_TOP,
            _ => Align2::CENTER_TOP,
        };
        let at = Pos2::new(bar.left() + t * bar.width(), bar.bottom() + 1.0);
        painter.text(at, align, *label, FontId::proportional(10.0), text);
    }
}

/// One swatch and name per entry.
pub fn swatches(ui: &mut Ui, entries: impl IntoIterator<Item = (String, Color32)>) {
    for (name, colour) in entries {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(vec2(12.0, 12.0), Sense::hover());
            ui.painter().rect_filled(rect, 2.0, colour);
            ui.label(name);
        });
    }
}
