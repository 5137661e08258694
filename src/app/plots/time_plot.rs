//! A plot over run time in seconds, sharing its time axis with the other plots, with the time
//! cursor drawn as a vertical line; clicking or dragging on it moves the cursor there.

use eframe::egui::{Color32, Id, Role, TextStyle, Ui, WidgetInfo};
use egui_plot::{Legend, Plot, PlotMemory, PlotUi, VLine};

use super::thinning::Thinning;

/// The legend of every plot: small text over a see-through background, in the order the items
/// were added.
pub fn small_legend() -> Legend {
    Legend::default()
        .text_style(TextStyle::Small)
        .background_alpha(0.6)
        .follow_insertion_order(true)
}

/// Draws the plot `title` (also its accessible label) of `height` pixels with the cursor at
/// `cursor` seconds; `add` adds the lines. Returns the time (s) the user clicked or dragged to.
pub fn show<'a>(
    ui: &mut Ui,
    title: &str,
    height: f32,
    cursor: f64,
    add: impl FnOnce(&mut PlotUi<'a>) + 'a,
) -> Option<f64> {
    ui.label(title);
    let response = Plot::new(title)
        .height(height)
        .legend(small_legend())
        .link_axis(Id::unique("run time"), [true, false])
        .link_cursor(Id::unique("run time"), [true, false])
        .allow_drag(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .x_axis_label("time (s)")
        .include_y(0.0)
        .show(ui, move |plot| {
            add(plot);
            plot.vline(VLine::new("", cursor).color(Color32::from_rgb(230, 60, 60)));
        });
    // A plot fitting its data (not zoomed) must get every point, or it could not grow with a live
    // run; a zoomed one needs only what it shows.
    let fitting = PlotMemory::load(ui.ctx(), response.response.id).is_none_or(|m| m.auto_bounds.x);
    let bounds = response.transform.bounds();
    let shown = (!fitting).then(|| (bounds.min()[0], bounds.max()[0]));
    Thinning::remember(ui, title, shown);
    let label = title.to_string();
    response
        .response
        .widget_info(|| WidgetInfo::labeled(Role::Canvas, true, &label));
    let pressed = response.response.is_pointer_button_down_on() || response.response.clicked();
    let at = response.response.interact_pointer_pos().filter(|_| pressed)?;
    Some(response.transform.value_from_position(at).x)
}
