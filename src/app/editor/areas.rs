//! The navigation, spawning and measuring objects of a scene — regions, portals, gates, area
//! spawn groups, measurement areas and measurement lines — for the editor: their editable points, hit tests, moves, deletion and how they are
//! drawn (the simulator's draw list leaves them out, so the editor paints them itself).

use eframe::egui::{Align2, Color32, FontId, Painter, Rect, Stroke};
use glam::Vec2;

use crate::app::paint::pos2;
use crate::draw::View;
use crate::geom::distance_to_segment;
use crate::scene::{Scene, SpawnSource};

/// Which list of the scene an area object lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AreaKind {
    /// `scene.regions` (rectangles).
    Region,
    /// `scene.portals` (segments between regions).
    Portal,
    /// `scene.gates` (segments on the world's edge).
    Gate,
    /// `scene.spawns` (a rectangle for area groups; gate groups have no points of their own).
    Spawn,
    /// `scene.measurement_areas` (rectangles where density and speed are measured).
    MeasureArea,
    /// `scene.measurement_lines` (segments across which crossings are counted).
    MeasureLine,
}

impl AreaKind {
    /// Every kind, in hit-test order (later wins).
    pub const ALL: [AreaKind; 6] = [
        AreaKind::Region,
        AreaKind::Spawn,
        AreaKind::MeasureArea,
        AreaKind::Portal,
        AreaKind::Gate,
        AreaKind::MeasureLine,
    ];

    /// The list's name in field paths (`regions[2].min`).
    pub fn list(self) -> &'static str {
        match self {
            AreaKind::Region => "regions",
            AreaKind::Portal => "portals",
            AreaKind::Gate => "gates",
            AreaKind::Spawn => "spawns",
            AreaKind::MeasureArea => "measurement_areas",
            AreaKind::MeasureLine => "measurement_lines",
        }
    }

    /// How many objects of this kind `scene` has.
    pub fn count(self, scene: &Scene) -> usize {
        match self {
            AreaKind::Region => scene.regions.len(),
            AreaKind::Portal => scene.portals.len(),
            AreaKind::Gate => scene.gates.len(),
            AreaKind::Spawn => scene.spawns.len(),
            AreaKind::MeasureArea => scene.measurement_areas.len(),
            AreaKind::MeasureLine => scene.measurement_lines.len(),
        }
    }

    /// True for rectangles given by two corners (else segments).
    pub fn is_rect(self) -> bool {
        matches!(self, AreaKind::Region | AreaKind::Spawn | AreaKind::MeasureArea)
    }
}

/// The editable points of object `i`: rectangle corners (min, max) or segment ends.
pub fn points(scene: &Scene, kind: AreaKind, i: usize) -> Vec<Vec2> {
    match kind {
        AreaKind::Region => vec![scene.regions[i].min, scene.regions[i].max],
        AreaKind::Portal => vec![scene.portals[i].from, scene.portals[i].to],
        AreaKind::Gate => vec![scene.gates[i].from, scene.gates[i].to],
        AreaKind::Spawn => match &scene.spawns[i].source {
            SpawnSource::Area { min, max } => vec![*min, *max],
            SpawnSource::Gate(_) => Vec::new(),
        },
        AreaKind::MeasureArea => vec![scene.measurement_areas[i].min, scene.measurement_areas[i].max],
        AreaKind::MeasureLine => vec![scene.measurement_lines[i].a, scene.measurement_lines[i].b],
    }
}

/// Mutable references to the editable points of object `i`.
fn points_mut(scene: &mut Scene, kind: AreaKind, i: usize) -> Vec<&mut Vec2> {
    match kind {
        AreaKind::Region => {
            let r = &mut scene.regions[i];
            vec![&mut r.min, &mut r.max]
        }
        AreaKind::Portal => {
            let p = &mut scene.portals[i];
            vec![&mut p.from, &mut p.to]
        }
        AreaKind::Gate => {
            let g = &mut scene.gates[i];
            vec![&mut g.from, &mut g.to]
        }
        AreaKind::Spawn => match &mut scene.spawns[i].source {
            SpawnSource::Area { min, max } => vec![min, max],
            SpawnSource::Gate(_) => Vec::new(),
        },
        AreaKind::MeasureArea => {
            let m = &mut scene.measurement_areas[i];
            vec![&mut m.min, &mut m.max]
        }
        AreaKind::MeasureLine => {
            let m = &mut scene.measurement_lines[i];
            vec![&mut m.a, &mut m.b]
        }
    }
}

/// Moves point `k` of object `i` to `to`; rectangles keep min ≤ max.
pub fn set_point(scene: &mut Scene, kind: AreaKind, i: usize, k: usize, to: Vec2) {
    if let Some(p) = points_mut(scene, kind, i).into_iter().nth(k) {
        *p = to;
    }
    if kind.is_rect()
        && let [a, b] = points_mut(scene, kind, i).as_mut_slice()
    {
        let (lo, hi) = (a.min(**b), a.max(**b));
        (**a, **b) = (lo, hi);
    }
}

/// Moves object `i` by `delta`.
pub fn translate(scene: &mut Scene, kind: AreaKind, i: usize, delta: Vec2) {
    points_mut(scene, kind, i).into_iter().for_each(|p| *p += delta);
}

/// The topmost area object within `tolerance` of `p`: segments and rectangle edges, or the
/// inside of a spawn area (regions tile the world, so only their edges count).
pub fn hit(scene: &Scene, p: Vec2, tolerance: f32) -> Option<(AreaKind, usize)> {
    AreaKind::ALL.into_iter().rev().find_map(|kind| {
        (0..kind.count(scene)).rev().find_map(|i| {
            let pts = points(scene, kind, i);
            let near = match (kind, pts.as_slice()) {
                (AreaKind::Spawn, [lo, hi]) => p.cmpge(*lo - tolerance).all() && p.cmple(*hi + tolerance).all(),
                (AreaKind::Region | AreaKind::MeasureArea, [lo, hi]) => rect_edges(*lo, *hi)
                    .iter()
                    .any(|(a, b)| distance_to_segment(p, *a, *b) <= tolerance),
                (_, [a, b]) => distance_to_segment(p, *a, *b) <= tolerance,
                _ => false,
            };
            near.then_some((kind, i))
        })
    })
}

fn rect_edges(lo: Vec2, hi: Vec2) -> [(Vec2, Vec2); 4] {
    let (a, b, c, d) = (lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y));
    [(a, b), (b, c), (c, d), (d, a)]
}

/// Removes the objects of `kind` with the given indices.
pub fn delete(scene: &mut Scene, kind: AreaKind, mut indices: Vec<usize>) {
    indices.sort_unstable_by(|a, b| b.cmp(a));
    indices.dedup();
    for i in indices {
        match kind {
            AreaKind::Region => drop(scene.regions.remove(i)),
            AreaKind::Portal => drop(scene.portals.remove(i)),
            AreaKind::Gate => drop(scene.gates.remove(i)),
            AreaKind::Spawn => drop(scene.spawns.remove(i)),
            AreaKind::MeasureArea => drop(scene.measurement_areas.remove(i)),
            AreaKind::MeasureLine => drop(scene.measurement_lines.remove(i)),
        }
    }
}

/// Paints every region, portal, gate and spawn area of `scene` with its name.
pub fn paint_all(painter: &Painter, view: &View, scene: &Scene) {
    let to_screen = |p| pos2(view.to_screen(p));
    let font = FontId::proportional(11.0);
    for kind in AreaKind::ALL {
        let color = match kind {
            AreaKind::Region => Color32::from_rgb(120, 120, 160),
            AreaKind::Portal => Color32::from_rgb(60, 170, 90),
            AreaKind::Gate => Color32::from_rgb(40, 120, 220),
            AreaKind::Spawn => Color32::from_rgb(190, 90, 190),
            AreaKind::MeasureArea | AreaKind::MeasureLine => Color32::from_rgb(220, 140, 20),
        };
        for i in 0..kind.count(scene) {
            let pts = points(scene, kind, i);
            let [a, b] = pts.as_slice() else { continue };
            let (sa, sb) = (to_screen(*a), to_screen(*b));
            let name = match kind {
                AreaKind::Region => scene.regions[i].id.clone(),
                AreaKind::Portal => scene.portals[i].id.clone(),
                AreaKind::Gate => scene.gates[i].id.clone(),
                AreaKind::Spawn => format!("spawn {} × {}", i, scene.spawns[i].count),
                AreaKind::MeasureArea => scene.measurement_areas[i].id.clone(),
                AreaKind::MeasureLine => scene.measurement_lines[i].id.clone(),
            };
            if kind.is_rect() {
                let rect = Rect::from_two_pos(sa, sb);
                let fill = if matches!(kind, AreaKind::Spawn | AreaKind::MeasureArea) {
                    color.gamma_multiply(0.12)
                } else {
                    Color32::TRANSPARENT
                };
                painter.rect_filled(rect, 0.0, fill);
                painter.rect_stroke(rect, 0.0, Stroke::new(1.0, color), eframe::egui::StrokeKind::Middle);
                painter.text(
                    rect.left_top() + eframe::egui::vec2(3.0, 2.0),
                    Align2::LEFT_TOP,
                    name,
                    font.clone(),
                    color,
                );
            } else {
                painter.line_segment([sa, sb], Stroke::new(3.0, color));
                painter.text(sa.lerp(sb, 0.5), Align2::CENTER_BOTTOM, name, font.clone(), color);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Gate, GateDirection, Region};

    #[test]
    fn rectangles_stay_ordered_and_segments_are_hit() {
        let mut s = Scene::empty();
        s.regions.push(Region {
            id: "hall".into(),
            min: Vec2::ZERO,
            max: Vec2::new(4.0, 2.0),
        });
        s.gates.push(Gate {
            id: "door".into(),
            from: Vec2::new(0.0, 1.0),
            to: Vec2::new(0.0, 2.0),
            direction: GateDirection::Out,
        });
        set_point(&mut s, AreaKind::Region, 0, 1, Vec2::new(-1.0, 3.0));
        assert_eq!(
            (s.regions[0].min, s.regions[0].max),
            (Vec2::new(-1.0, 0.0), Vec2::new(0.0, 3.0))
        );
        assert_eq!(hit(&s, Vec2::new(0.05, 1.5), 0.1), Some((AreaKind::Gate, 0)));
        assert_eq!(hit(&s, Vec2::new(-0.5, 0.02), 0.1), Some((AreaKind::Region, 0)));
        assert_eq!(hit(&s, Vec2::new(-0.5, 1.0), 0.1), None, "inside a region is not a hit");
    }
}
