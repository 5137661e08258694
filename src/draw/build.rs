//! Builds the draw list of one tick: obstacles (moving ones at the tick's time), paths,
//! targets, agents coloured as chosen, their headings and the chosen overlays (see [`super::overlay`]).

use glam::Vec2;

use super::list::{DrawList, Shape, Stroke};
use super::overlay::{
    Focus, Overlays, agent_fills, draw_avoidance, draw_neighbour_links, draw_selected, draw_trails, draw_vectors,
    force_colors,
};
use super::style::palette;
use crate::record::{Frame, RecordingHeader};
use crate::scene::{Obstacle, Scene};

/// The draw list of a scene as authored, for the editor: the scene bounds and path corridors,
/// static content and start points.
pub fn build_scene_draw_list(scene: &Scene) -> DrawList {
    let mut list = DrawList::default();
    draw_guides(scene, &mut list);
    draw_static(scene, 0.0, &mut list);
    draw_start_points(scene, &mut list);
    list
}

/// The draw list of one recorded `frame` of the recording `header` describes: the scene's
/// static content at the frame's time, every agent as the agent table says it is, and the
/// overlays applied to the agents `focus` shows (the selected agent ringed with its goal and
/// sensing range, and the trails of `focus`).
pub fn build_frame_draw_list(header: &RecordingHeader, frame: &Frame, overlays: &Overlays, focus: &Focus) -> DrawList {
    let [mut list, agents] = build_frame_layers(header, frame, overlays, focus);
    list.shapes.extend(agents.shapes);
    list
}

/// [`build_frame_draw_list`] in two layers, painted in order: the scene's static content at the
/// frame's time (the same from tick to tick unless obstacles move), then the agents and their
/// overlays.
pub fn build_frame_layers(
    header: &RecordingHeader,
    frame: &Frame,
    overlays: &Overlays,
    focus: &Focus,
) -> [DrawList; 2] {
    let mut layers = Default::default();
    build_frame_layers_into(header, frame, overlays, focus, &mut layers);
    layers
}

/// [`build_frame_layers`] into `layers`, cleared first: their shapes' memory is reused (a crowd's
/// agent layer is megabytes, which fresh memory would have the kernel zero again every build).
pub fn build_frame_layers_into(
    header: &RecordingHeader,
    frame: &Frame,
    overlays: &Overlays,
    focus: &Focus,
    layers: &mut [DrawList; 2],
) {
    let [scenery, agents] = layers;
    scenery.shapes.clear();
    agents.shapes.clear();
    draw_static(&header.scene, frame.time, scenery);
    draw_agents(header, frame, overlays, focus, agents);
}

/// The editor's guides: the scene bounds (the extent of route planning and of the neighbour
/// grid) and each path's corridor, the band of its width within which a waypoint counts as
/// reached.
fn draw_guides(scene: &Scene, list: &mut DrawList) {
    let pal = palette();
    let b = scene.bounds;
    list.push(Shape::Polyline {
        points: vec![b.min, Vec2::new(b.max.x, b.min.y), b.max, Vec2::new(b.min.x, b.max.y)],
        closed: true,
        stroke: Stroke {
            width: 1.5,
            color: pal.obstacle_edge.with_alpha(110),
        },
    });
    for path in &scene.paths {
        for side in [-0.5, 0.5] {
            list.push(Shape::Polyline {
                points: offset_polyline(&path.points, path.closed, side * path.width),
                closed: path.closed,
                stroke: Stroke {
                    width: 1.0,
                    color: pal.path.with_alpha(110),
                },
            });
        }
    }
}

/// `points` moved `offset` metres to their left (negative: right), corners mitred (a mitre at
/// most twice the offset, so sharp turns do not spike).
fn offset_polyline(points: &[Vec2], closed: bool, offset: f32) -> Vec<Vec2> {
    let n = points.len();
    let normal = |a: Vec2, b: Vec2| (b - a).normalize_or_zero().perp();
    (0..n)
        .map(|i| {
            let prev = (i > 0 || closed).then(|| normal(points[(i + n - 1) % n], points[i]));
            let next = (i + 1 < n || closed).then(|| normal(points[i], points[(i + 1) % n]));
            let dir = match (prev, next) {
                (Some(p), Some(q)) => {
                    let mid = (p + q).normalize_or_zero();
                    let cos = mid.dot(q).max(0.5);
                    mid / cos
                }
                (Some(p), None) | (None, Some(p)) => p,
                (None, None) => Vec2::ZERO,
            };
            points[i] + dir * offset
        })
        .collect()
}

fn draw_static(scene: &Scene, time: f32, list: &mut DrawList) {
    let pal = palette();
    let edge = Some(Stroke {
        width: 1.5,
        color: pal.obstacle_edge,
    });
    for path in &scene.paths {
        list.push(Shape::Polyline {
            points: path.points.clone(),
            closed: path.closed,
            stroke: Stroke {
                width: 2.0,
                color: pal.path.with_alpha(160),
            },
        });
        for p in &path.points {
            list.push(Shape::Circle {
                center: *p,
                radius: 0.08,
                fill: Some(pal.path),
                stroke: None,
            });
        }
    }
    for target in &scene.targets {
        list.push(Shape::Circle {
            center: target.position,
            radius: target.radius,
            fill: Some(pal.target.with_alpha(50)),
            stroke: Some(Stroke {
                width: 1.5,
                color: pal.target,
            }),
        });
        let r = target.radius;
        for (a, b) in [
            (Vec2::new(-r, 0.0), Vec2::new(r, 0.0)),
            (Vec2::new(0.0, -r), Vec2::new(0.0, r)),
        ] {
            list.push(Shape::Segment {
                from: target.position + a,
                to: target.position + b,
                stroke: Stroke {
                    width: 1.0,
                    color: pal.target,
                },
            });
        }
    }
    for obstacle in &scene.obstacles {
        match obstacle {
            Obstacle::Circle { center, radius } => list.push(Shape::Circle {
                center: *center,
                radius: *radius,
                fill: Some(pal.obstacle),
                stroke: edge,
            }),
            Obstacle::Polygon { vertices } => list.push(Shape::Polygon {
                points: vertices.clone(),
                fill: pal.obstacle,
                stroke: edge,
            }),
            Obstacle::Wall { a, b } => list.push(Shape::Segment {
                from: *a,
                to: *b,
                stroke: Stroke {
                    width: 3.0,
                    color: pal.obstacle_edge,
                },
            }),
            Obstacle::MovingCircle {
                center,
                radius,
                velocity,
            } => {
                let c = *center + *velocity * time;
                list.push(Shape::Circle {
                    center: c,
                    radius: *radius,
                    fill: Some(pal.moving_obstacle),
                    stroke: edge,
                });
                list.push(Shape::Arrow {
                    from: c,
                    to: c + *velocity,
                    stroke: Stroke {
                        width: 1.5,
                        color: pal.moving_obstacle,
                    },
                    head: 6.0,
                });
            }
        }
    }
}

fn agent_body(list: &mut DrawList, center: Vec2, radius: f32, heading: Vec2, fill: super::Color) {
    let pal = palette();
    list.push(Shape::Circle {
        center,
        radius,
        fill: Some(fill),
        stroke: Some(Stroke {
            width: 1.0,
            color: pal.agent_edge,
        }),
    });
    list.push(Shape::Segment {
        from: center,
        to: center + heading * radius,
        stroke: Stroke {
            width: 1.5,
            color: pal.agent_edge,
        },
    });
}

fn draw_start_points(scene: &Scene, list: &mut DrawList) {
    let pal = palette();
    for agent in &scene.agents {
        let radius = scene.profile(&agent.profile).map_or(0.25, |p| p.radius);
        agent_body(
            list,
            agent.position,
            radius,
            Vec2::from_angle(agent.heading_deg.to_radians()),
            pal.agent,
        );
    }
}

fn draw_agents(header: &RecordingHeader, frame: &Frame, overlays: &Overlays, focus: &Focus, list: &mut DrawList) {
    let pal = palette();
    if overlays.trails {
        draw_trails(list, focus);
    }
    if overlays.neighbours {
        draw_neighbour_links(list, header, frame, focus);
    }
    // Room for every agent's body and arrows at once: a crowd's list is megabytes, and growing
    // it step by step copies it into fresh memory each time.
    let vectors = [
        overlays.heading,
        overlays.preferred_velocity,
        overlays.velocity,
        overlays.steering,
    ]
    .into_iter()
    .filter(|&on| on)
    .count();
    let forces = if overlays.forces { frame.forces.len() } else { 0 };
    list.shapes.reserve(frame.agents.len() * (2 + vectors) + forces);
    let fills = agent_fills(header, frame, overlays.colour_by);
    for (a, fill) in frame.agents.iter().zip(fills) {
        let fill = if focus.shows(a.id) { fill } else { fill.with_alpha(70) };
        agent_body(list, a.position, header.radius_of(a), a.heading, fill);
    }
    let force_colors = force_colors(header);
    for a in frame.agents.iter().filter(|a| focus.shows(a.id)) {
        let label_forces = overlays.force_labels && focus.selected == Some(a.id);
        draw_vectors(list, header, frame, a, overlays, &force_colors, label_forces);
        if overlays.labels {
            list.push(Shape::Label {
                position: a.position,
                text: a.id.to_string(),
                color: pal.text,
                size: 11.0,
            });
        }
    }
    if let Some(a) = focus.selected.and_then(|id| frame.agent(id)) {
        if overlays.avoidance
            && let Some(debug) = frame.debug.iter().find(|d| d.agent == a.id)
        {
            draw_avoidance(list, debug);
        }
        draw_selected(list, header, a, overlays);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corridor_edge_keeps_its_distance_from_straight_and_turning_paths() {
        let l = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0)];
        let left = offset_polyline(&l, false, 1.0);
        assert_eq!(left[0], Vec2::new(0.0, 1.0));
        // The right-angle corner is mitred: 1 m from both legs.
        assert!((left[1] - Vec2::new(9.0, 1.0)).length() < 1e-5, "{:?}", left[1]);
        assert!((left[2] - Vec2::new(9.0, 10.0)).length() < 1e-5);
        // A hairpin's mitre is capped at twice the offset.
        let hairpin = offset_polyline(&[Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(0.0, 0.1)], false, 1.0);
        assert!((hairpin[1] - Vec2::new(10.0, 0.0)).length() <= 2.0 + 1e-5);
    }
}
