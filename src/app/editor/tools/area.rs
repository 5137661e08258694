//! The region, spawn-group, portal, gate and measurement tools: drag a rectangle (region, area
//! spawn group, measurement area) or a segment (portal, gate, measurement line). New objects get a free name; the inspector sets the rest
//! (a portal's two regions, a gate's direction, a group's count, profile and goal).

use glam::Vec2;

use super::{Edit, Gesture, Pending, track_drag};
use crate::app::editor::areas::AreaKind;
use crate::app::editor::selection::{Item, Selection, unique_name};
use crate::scene::{
    Gate, GateDirection, MeasurementArea, MeasurementLine, Portal, Region, Scene, SpawnGroup, SpawnSource,
};

/// Agents in a new spawn group.
const DEFAULT_COUNT: u32 = 10;

/// Handles one frame of the tool adding objects of `kind`; a drag of zero size adds nothing.
pub fn handle(kind: AreaKind, pending: &mut Pending, g: &Gesture, scene: &Scene, selection: &mut Selection) -> Edit {
    let (a, b) = track_drag(pending, g)?;
    let empty = if kind.is_rect() {
        a.x == b.x || a.y == b.y
    } else {
        a == b
    };
    if empty {
        return None;
    }
    let (lo, hi) = (a.min(b), a.max(b));
    let mut edited = scene.clone();
    selection.set(Item::Area(kind, kind.count(scene)));
    match kind {
        AreaKind::Region => edited.regions.push(Region {
            id: unique_name("region-1", |n| scene.regions.iter().any(|r| r.id == n)),
            min: lo,
            max: hi,
        }),
        AreaKind::Spawn => edited.spawns.push(SpawnGroup {
            source: SpawnSource::Area { min: lo, max: hi },
            count: DEFAULT_COUNT,
            profile: scene
                .profiles
                .first()
                .map_or_else(|| "walker".into(), |p| p.name.clone()),
            agent_type: None,
            goal: Default::default(),
            start_time: 0.0,
            interval: None,
        }),
        AreaKind::Portal => edited.portals.push(Portal {
            id: unique_name("portal-1", |n| scene.portals.iter().any(|p| p.id == n)),
            regions: regions_beside(scene, a, b),
            from: a,
            to: b,
        }),
        AreaKind::Gate => edited.gates.push(Gate {
            id: unique_name("gate-1", |n| scene.gates.iter().any(|g| g.id == n)),
            from: a,
            to: b,
            direction: GateDirection::default(),
        }),
        AreaKind::MeasureArea => edited.measurement_areas.push(MeasurementArea {
            id: unique_name("area-1", |n| scene.measurement_areas.iter().any(|m| m.id == n)),
            min: lo,
            max: hi,
        }),
        AreaKind::MeasureLine => edited.measurement_lines.push(MeasurementLine {
            id: unique_name("line-1", |n| scene.measurement_lines.iter().any(|m| m.id == n)),
            a,
            b,
        }),
    }
    Some(edited)
}

/// The ids of the (up to) two regions on either side of the segment's midpoint.
fn regions_beside(scene: &Scene, a: Vec2, b: Vec2) -> (String, String) {
    let mid = (a + b) * 0.5;
    let side = (b - a).perp().normalize_or_zero() * 0.05;
    let region_at = |p: Vec2| {
        scene
            .regions
            .iter()
            .find(|r| p.cmpge(r.min).all() && p.cmple(r.max).all())
            .map_or_else(String::new, |r| r.id.clone())
    };
    (region_at(mid + side), region_at(mid - side))
}
