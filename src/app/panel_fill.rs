//! The window's panels are not filled one by one: the window is cleared with the panels' colour
//! each frame, and the panels are drawn over it without a fill of their own. The pixels are the
//! same; a software renderer (Mesa's llvmpipe, as under Xvfb or without a GPU) is spared
//! shading the panels' pixels, about half of the window's, twice each frame.

use eframe::egui::{Color32, Frame, Panel, Ui, Visuals};

/// `panel` with its usual margins but no fill: the window's clear colour ([`clear_color`]) shows
/// through it.
pub fn unfilled(panel: Panel, ui: &Ui) -> Panel {
    panel.frame(Frame::side_top_panel(ui.style()).fill(Color32::TRANSPARENT))
}

/// The colour the window is cleared with each frame: the panels' fill of `visuals`, opaque.
pub fn clear_color(visuals: &Visuals) -> [f32; 4] {
    visuals.panel_fill.to_opaque().to_normalized_gamma_f32()
}
