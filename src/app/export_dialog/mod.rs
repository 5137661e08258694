//! The export dialog: every option of `crowdlab export` for the shown recording — PNG sequence
//! (size, camera fit / rectangle / follow the selected agent, overlays, background or
//! transparent, prefix, numbering), skeleton XML (movement thresholds, states per profile, fps
//! resampling) and CSV — over a tick range (the timeline's selection by default) and stride, with
//! a preview of the first frame. Export runs through the same library calls as the CLI on a
//! thread of its own ([`job`]), with a progress bar, Cancel and a final notice.

pub mod job;

use std::path::PathBuf;

use eframe::egui::{self, Checkbox, ColorImage, DragValue, Grid, Modal, TextEdit, TextureHandle, Ui};

use crate::draw::{Color, Overlays, palette};
use crate::export::{
    Camera, MovementThresholds, Numbering, PngOptions, SkeletonOptions, StateMapping, TickSelection,
    preview_first_frame,
};
use crate::record::FrameSource;
use crate::scene::Bounds;
pub use job::{ExportRequest, RunningExport};

/// Where a PNG export looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CameraChoice {
    Fit,
    Rect,
    Follow,
}

/// The dialog's fields.
pub struct ExportDialog {
    png: bool,
    png_dir: String,
    width: u32,
    height: u32,
    camera: CameraChoice,
    rect: [f32; 4],
    follow_width: f32,
    overlays: Overlays,
    transparent: bool,
    background: [u8; 3],
    prefix: String,
    by_sequence: bool,
    skeleton: bool,
    skeleton_file: String,
    walking: f32,
    running: f32,
    default_state: String,
    profile_states: Vec<(String, String)>,
    resample: bool,
    fps: f32,
    csv: bool,
    csv_file: String,
    from: u64,
    to: u64,
    every: u64,
    selected: Option<u32>,
    preview: Option<TextureHandle>,
    preview_key: Option<String>,
    error: Option<String>,
}

/// What the user did in the dialog this frame.
pub enum DialogAction {
    /// Start this export.
    Start(Box<ExportRequest>),
    /// Close without exporting.
    Close,
}

impl ExportDialog {
    /// A dialog for `source`: outputs next to `folder` named after `stem`, ticks `range` (the
    /// timeline's selection), following `selected` when the camera follows an agent.
    pub fn new(
        source: &dyn FrameSource,
        folder: PathBuf,
        stem: &str,
        range: (u64, u64),
        selected: Option<u32>,
    ) -> Self {
        let header = source.header();
        let bounds = header.scene.bounds;
        let [r, g, b, _] = palette().background.0;
        let out = |name: String| folder.join(name).display().to_string();
        ExportDialog {
            png: true,
            png_dir: out(format!("{stem}_frames")),
            width: 1280,
            height: 720,
            camera: CameraChoice::Fit,
            rect: [bounds.min.x, bounds.min.y, bounds.max.x, bounds.max.y],
            follow_width: 10.0,
            overlays: Overlays::default(),
            transparent: false,
            background: [r, g, b],
            prefix: "frame_".into(),
            by_sequence: false,
            skeleton: false,
            skeleton_file: out(format!("{stem}.skeleton.xml")),
            walking: MovementThresholds::default().walking,
            running: MovementThresholds::default().running,
            default_state: StateMapping::default().default,
            profile_states: header
                .agents
                .profiles
                .iter()
                .map(|p| (p.name.clone(), String::new()))
                .collect(),
            resample: false,
            fps: 25.0,
            csv: false,
            csv_file: out(format!("{stem}.csv")),
            from: range.0,
            to: range.1,
            every: 1,
            selected,
            preview: None,
            preview_key: None,
            error: None,
        }
    }

    /// The ticks chosen.
    fn ticks(&self) -> TickSelection {
        TickSelection {
            from: Some(self.from),
            to: Some(self.to),
            every: self.every.max(1),
        }
    }

    /// The PNG options of the fields, or what is wrong with them.
    fn png_options(&self) -> Result<PngOptions, String> {
        let camera = match self.camera {
            CameraChoice::Fit => Camera::FitScene,
            CameraChoice::Rect => {
                let [x0, y0, x1, y1] = self.rect;
                if !(x1 > x0 && y1 > y0) {
                    return Err(format!(
                        "camera rectangle ({x0}, {y0})–({x1}, {y1}) must have a positive size"
                    ));
                }
                Camera::Rect(Bounds {
                    min: glam::Vec2::new(x0, y0),
                    max: glam::Vec2::new(x1, y1),
                })
            }
            CameraChoice::Follow => Camera::Follow {
                agent: self.selected.ok_or("select an agent on the canvas to follow it")?,
                width: self.follow_width,
            },
        };
        let [r, g, b] = self.background;
        Ok(PngOptions {
            width: self.width,
            height: self.height,
            ticks: self.ticks(),
            overlays: self.overlays.clone(),
            camera,
            background: (!self.transparent).then_some(Color::rgb(r, g, b)),
            prefix: self.prefix.clone(),
            numbering: if self.by_sequence {
                Numbering::Sequence
            } else {
                Numbering::Tick
            },
        })
    }

    /// The skeleton XML options of the fields, or what is wrong with them.
    fn skeleton_options(&self) -> Result<SkeletonOptions, String> {
        if !(self.walking >= 0.0 && self.running > self.walking) {
            return Err(format!(
                "walking speed {} and running speed {} must satisfy 0 <= walking < running",
                self.walking, self.running
            ));
        }
        let mut states = StateMapping {
            default: self.default_state.clone(),
            ..StateMapping::default()
        };
        for (profile, state) in self.profile_states.iter().filter(|(_, s)| !s.trim().is_empty()) {
            states.by_profile.insert(profile.clone(), state.trim().to_string());
        }
        Ok(SkeletonOptions {
            ticks: self.ticks(),
            thresholds: MovementThresholds {
                walking: self.walking,
                running: self.running,
            },
            states,
            fps: self.resample.then_some(self.fps),
        })
    }

    /// The request of the fields, or what is wrong with them.
    pub fn request(&self) -> Result<ExportRequest, String> {
        if self.from > self.to {
            return Err(format!(
                "the range starts at tick {} after it ends at {}",
                self.from, self.to
            ));
        }
        let path = |text: &str, what: &str| {
            let text = text.trim();
            if text.is_empty() {
                Err(format!("choose where the {what} goes"))
            } else {
                Ok(PathBuf::from(text))
            }
        };
        let request = ExportRequest {
            png: self
                .png
                .then(|| Ok::<_, String>((path(&self.png_dir, "PNG sequence")?, self.png_options()?)))
                .transpose()?,
            skeleton: self
                .skeleton
                .then(|| Ok::<_, String>((path(&self.skeleton_file, "skeleton XML")?, self.skeleton_options()?)))
                .transpose()?,
            csv: self
                .csv
                .then(|| Ok::<_, String>((path(&self.csv_file, "CSV")?, self.ticks())))
                .transpose()?,
        };
        if request.is_empty() {
            return Err("choose at least one export".into());
        }
        Ok(request)
    }

    /// Draws the dialog; returns what the user did, or `None` while it stays open.
    pub fn show(&mut self, ui: &mut Ui, source: &dyn FrameSource) -> Option<DialogAction> {
        let mut action = None;
        let modal = Modal::new(egui::Id::unique("export dialog")).show(ui.ctx(), |ui| {
            ui.set_width(620.0);
            ui.heading("Export");
            self.outputs(ui);
            ui.separator();
            self.range_rows(ui, source);
            egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
                if self.png {
                    ui.separator();
                    self.png_section(ui, source);
                }
                if self.skeleton {
                    ui.separator();
                    self.skeleton_section(ui);
                }
            });
            if let Some(error) = &self.error {
                ui.colored_label(ui.visuals().error_fg_color, error);
            }
            ui.horizontal(|ui| {
                if ui.button("Start export").clicked() {
                    match self.request() {
                        Ok(request) => action = Some(DialogAction::Start(Box::new(request))),
                        Err(e) => self.error = Some(e),
                    }
                }
                if ui.button("Cancel").clicked() {
                    action = Some(DialogAction::Close);
                }
            });
        });
        if action.is_none() && modal.should_close() {
            action = Some(DialogAction::Close);
        }
        action
    }

    /// Which exports, and where each goes.
    fn outputs(&mut self, ui: &mut Ui) {
        ui.add(Checkbox::new(&mut self.png, "PNG sequence"));
        if self.png {
            labelled_path(ui, "PNG folder", &mut self.png_dir);
        }
        ui.add(Checkbox::new(
            &mut self.skeleton,
            "Skeleton XML (Animation Renderer for Crowd)",
        ));
        if self.skeleton {
            labelled_path(ui, "Skeleton file", &mut self.skeleton_file);
        }
        ui.add(Checkbox::new(&mut self.csv, "CSV trajectories"));
        if self.csv {
            labelled_path(ui, "CSV file", &mut self.csv_file);
        }
    }

    fn range_rows(&mut self, ui: &mut Ui, source: &dyn FrameSource) {
        let (first, last) = source.tick_range();
        Grid::new("export range").num_columns(2).show(ui, |ui| {
            labelled(ui, "From tick", DragValue::new(&mut self.from).range(first..=last));
            labelled(ui, "To tick", DragValue::new(&mut self.to).range(first..=last));
            labelled(ui, "Every K ticks", DragValue::new(&mut self.every).range(1..=10_000));
        });
    }

    fn png_section(&mut self, ui: &mut Ui, source: &dyn FrameSource) {
        ui.strong("PNG frames");
        Grid::new("export png").num_columns(2).show(ui, |ui| {
            labelled(ui, "Width (px)", DragValue::new(&mut self.width).range(1..=8192));
            labelled(ui, "Height (px)", DragValue::new(&mut self.height).range(1..=8192));
            ui.label("Camera");
            ui.horizontal(|ui| {
                ui.radio_value(&mut self.camera, CameraChoice::Fit, "Fit scene");
                ui.radio_value(&mut self.camera, CameraChoice::Rect, "Rectangle");
                ui.radio_value(&mut self.camera, CameraChoice::Follow, "Follow selected");
            });
            ui.end_row();
            if self.camera == CameraChoice::Rect {
                ui.label("Rectangle (m)");
                ui.horizontal(|ui| {
                    for v in &mut self.rect {
                        ui.add(DragValue::new(v).speed(0.5));
                    }
                });
                ui.end_row();
            }
            if self.camera == CameraChoice::Follow {
                labelled(
                    ui,
                    "Follow width (m)",
                    DragValue::new(&mut self.follow_width).range(0.5..=10_000.0),
                );
            }
            labelled(
                ui,
                "Force scale (m/N)",
                DragValue::new(&mut self.overlays.force_scale)
                    .range(0.01..=100.0)
                    .speed(0.01),
            );
        });
        ui.horizontal(|ui| {
            ui.add(Checkbox::new(&mut self.overlays.forces, "Forces"));
            ui.add(Checkbox::new(&mut self.overlays.steering, "Steering"));
            ui.add(Checkbox::new(&mut self.overlays.velocity, "Velocity"));
            ui.add(Checkbox::new(&mut self.overlays.labels, "Agent ids"));
        });
        ui.horizontal(|ui| {
            ui.add(Checkbox::new(&mut self.transparent, "Transparent background"));
            if !self.transparent {
                ui.color_edit_button_srgb(&mut self.background);
            }
            let label = ui.label("Prefix");
            ui.add(TextEdit::singleline(&mut self.prefix).desired_width(80.0))
                .labelled_by(label.id);
            ui.add(Checkbox::new(&mut self.by_sequence, "Number 0, 1, 2…"));
        });
        self.preview_image(ui, source);
    }

    /// The first frame as the export would write it, re-rendered when an option changes.
    fn preview_image(&mut self, ui: &mut Ui, source: &dyn FrameSource) {
        let options = match self.png_options() {
            Ok(o) => o,
            Err(e) => {
                ui.weak(format!("No preview: {e}"));
                return;
            }
        };
        let aspect = self.height.max(1) as f32 / self.width.max(1) as f32;
        let (w, h) = (320u32, ((320.0 * aspect).round() as u32).clamp(1, 480));
        let key = format!("{options:?}{w}x{h}");
        if self.preview_key.as_deref() != Some(key.as_str()) {
            self.preview = preview_first_frame(source, &options, w, h).ok().map(|pixmap| {
                let image = ColorImage::from_rgba_premultiplied([w as usize, h as usize], pixmap.data());
                ui.ctx()
                    .load_texture("export preview", image, egui::TextureOptions::LINEAR)
            });
            self.preview_key = Some(key);
        }
        match &self.preview {
            Some(texture) => {
                ui.image((texture.id(), egui::vec2(w as f32, h as f32)));
            }
            None => {
                ui.weak("No preview for this range");
            }
        }
    }

    fn skeleton_section(&mut self, ui: &mut Ui) {
        ui.strong("Skeleton XML");
        Grid::new("export skeleton").num_columns(2).show(ui, |ui| {
            labelled(
                ui,
                "Walking from (m/s)",
                DragValue::new(&mut self.walking).range(0.0..=20.0).speed(0.05),
            );
            labelled(
                ui,
                "Running from (m/s)",
                DragValue::new(&mut self.running).range(0.0..=20.0).speed(0.05),
            );
            labelled(ui, "Default state", TextEdit::singleline(&mut self.default_state));
            for (profile, state) in &mut self.profile_states {
                labelled(
                    ui,
                    &format!("State of profile {profile}"),
                    TextEdit::singleline(state).hint_text("default"),
                );
            }
            let resample = ui.add(Checkbox::new(&mut self.resample, "Resample to fps"));
            ui.add_enabled(self.resample, DragValue::new(&mut self.fps).range(1.0..=240.0))
                .labelled_by(resample.id);
            ui.end_row();
        });
    }
}

/// A label and a widget on one grid row, the widget labelled for screen readers and tests.
fn labelled(ui: &mut Ui, text: &str, widget: impl egui::Widget) {
    let label = ui.label(text);
    ui.add(widget).labelled_by(label.id);
    ui.end_row();
}

/// A labelled path field.
fn labelled_path(ui: &mut Ui, text: &str, path: &mut String) {
    ui.horizontal(|ui| {
        let label = ui.label(text);
        ui.add(TextEdit::singleline(path).desired_width(440.0))
            .labelled_by(label.id);
    });
}

/// The progress window of a running export: what runs, a bar, and Cancel.
pub fn show_progress(ui: &mut Ui, running: &RunningExport) {
    Modal::new(egui::Id::unique("export progress")).show(ui.ctx(), |ui| {
        ui.set_width(360.0);
        let (part, fraction) = running.progress.status();
        ui.label(format!("Exporting {part}…"));
        ui.add(egui::ProgressBar::new(fraction).show_percentage());
        if ui.button("Cancel export").clicked() {
            running.cancel();
        }
    });
    ui.ctx().request_repaint();
}
