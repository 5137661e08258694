//! Builds the draw list of one tick: obstacles (moving ones at the tick's time), paths,
//! targets, agents coloured by status, their headings and the chosen overlays.

use glam::Vec2;

use super::list::{DrawList, Shape, Stroke};
use super::style::{force_color, palette};
use crate::record::{Frame, RecordingHeader};
use crate::scene::{Obstacle, Scene};

/// Which annotations are drawn over the agents.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlays {
    /// Each behaviour's weighted force, coloured by kind.
    pub forces: bool,
    /// The combined steering force.
    pub steering: bool,
    /// The velocity vector.
    pub velocity: bool,
    /// Agent id labels.
    pub labels: bool,
    /// Metres of arrow per newton of force.
    pub force_scale: f32,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            forces: true,
            steering: true,
            velocity: false,
            labels: false,
            force_scale: 0.5,
        }
    }
}

/// The draw list of `frame` (or just the scene, at time 0, without one).
pub fn build_draw_list(
    scene: &Scene,
    header: Option<&RecordingHeader>,
    frame: Option<&Frame>,
    overlays: &Overlays,
) -> DrawList {
    let mut list = DrawList::default();
    draw_static(scene, frame.map_or(0.0, |f| f.time), &mut list);
    match frame {
        Some(frame) => draw_agents(scene, header, frame, overlays, &mut list),
        None => draw_start_points(scene, &mut list),
    }
    list
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
            list.push(Shape::Polyline {
                points: vec![target.position + a, target.position + b],
                closed: false,
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
            Obstacle::Wall { a, b } => list.push(Shape::Polyline {
                points: vec![*a, *b],
                closed: false,
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
    list.push(Shape::Polyline {
        points: vec![center, center + heading * radius],
        closed: false,
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

fn draw_agents(
    scene: &Scene,
    header: Option<&RecordingHeader>,
    frame: &Frame,
    overlays: &Overlays,
    list: &mut DrawList,
) {
    let pal = palette();
    let radius_by_id: std::collections::HashMap<u32, f32> = scene
        .agents
        .iter()
        .map(|a| (a.id, scene.profile(&a.profile).map_or(0.25, |p| p.radius)))
        .collect();
    let radii: Vec<f32> = frame
        .agents
        .iter()
        .map(|a| radius_by_id.get(&a.id).copied().unwrap_or(0.25))
        .collect();
    for (a, &radius) in frame.agents.iter().zip(&radii) {
        let fill = if a.colliding() {
            pal.agent_colliding
        } else if a.arrived() {
            pal.agent_arrived
        } else {
            pal.agent
        };
        agent_body(list, a.position, radius, a.heading, fill);
    }
    for a in &frame.agents {
        if overlays.velocity && a.velocity != Vec2::ZERO {
            list.push(Shape::Arrow {
                from: a.position,
                to: a.position + a.velocity,
                stroke: Stroke {
                    width: 1.5,
                    color: pal.velocity,
                },
                head: 5.0,
            });
        }
        if overlays.forces {
            for f in frame.forces_of(a) {
                if f.force != Vec2::ZERO {
                    let label = header.map_or("?", |h| h.label(f.label));
                    let to = a.position + f.force * overlays.force_scale;
                    list.push(Shape::Arrow {
                        from: a.position,
                        to,
                        stroke: Stroke {
                            width: 1.5,
                            color: force_color(label),
                        },
                        head: 5.0,
                    });
                }
            }
        }
        if overlays.steering && a.steering != Vec2::ZERO {
            let to = a.position + a.steering * overlays.force_scale;
            list.push(Shape::Arrow {
                from: a.position,
                to,
                stroke: Stroke {
                    width: 2.0,
                    color: pal.steering,
                },
                head: 6.0,
            });
        }
        if overlays.labels {
            list.push(Shape::Label {
                position: a.position,
                text: a.id.to_string(),
                color: pal.text,
                size: 11.0,
            });
        }
    }
}
