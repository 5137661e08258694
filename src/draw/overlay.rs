//! The analysis annotations drawn over the agents of one tick: which ones are switched on
//! ([`Overlays`]), how agents are coloured ([`ColourBy`]), and which agents they apply to
//! ([`Focus`]: the selected agent, a filter, recorded trails).

use std::collections::{HashMap, HashSet};

use glam::Vec2;

use super::list::{Color, DrawList, Shape, Stroke};
use super::style::{force_color, palette};
use crate::record::{AgentSample, AvoidanceDebug, Constraint, Frame, RecordingHeader};
use crate::scene::Goal;

/// Radius (m) within which neighbours count towards an agent's local density.
pub const DENSITY_RADIUS: f32 = 1.0;
/// Neighbours within [`DENSITY_RADIUS`] at which the density colouring reaches the top of its
/// scale (red).
pub const DENSITY_FULL_SCALE: u32 = 6;
/// Most agents that get neighbour links and force labels (these are for close inspection).
const MAX_DETAILED: usize = 64;

/// How agent bodies are filled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColourBy {
    /// Walking, arrived or colliding.
    #[default]
    Status,
    /// Speed relative to the profile's maximum, blue (still) to red (at the cap).
    Speed,
    /// Agents within [`DENSITY_RADIUS`], blue (alone) to red ([`DENSITY_FULL_SCALE`] or more).
    Density,
    /// One colour per recorded mind state.
    State,
    /// One colour per profile (the agent's group).
    Group,
}

impl ColourBy {
    /// Every mode, for the colouring menu.
    pub const ALL: [ColourBy; 5] = [
        ColourBy::Status,
        ColourBy::Speed,
        ColourBy::Density,
        ColourBy::State,
        ColourBy::Group,
    ];

    /// The name shown in the colouring menu.
    pub fn name(self) -> &'static str {
        match self {
            ColourBy::Status => "status",
            ColourBy::Speed => "speed",
            ColourBy::Density => "density",
            ColourBy::State => "state",
            ColourBy::Group => "group",
        }
    }
}

/// Which annotations are drawn over the agents.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlays {
    /// Each behaviour's weighted force, coloured by kind.
    pub forces: bool,
    /// The behaviour name at the tip of each force of the selected agent.
    pub force_labels: bool,
    /// The combined steering force.
    pub steering: bool,
    /// The velocity vector.
    pub velocity: bool,
    /// The preferred velocity (what steering asked for, before avoidance).
    pub preferred_velocity: bool,
    /// A one-metre heading arrow.
    pub heading: bool,
    /// Each agent's positions over the last [`Overlays::trail_seconds`].
    pub trails: bool,
    /// Length of the trails in seconds.
    pub trail_seconds: f32,
    /// Lines to the agents within the neighbour radius of the focused agents' behaviours.
    pub neighbours: bool,
    /// The selected agent's goal (target or path) and the line to it.
    pub goal: bool,
    /// The selected agent's sensing range (its behaviours' neighbour radius).
    pub sensing: bool,
    /// The selected agent's recorded avoidance constraints (VO cones, ORCA lines) in velocity
    /// space, drawn with the velocity origin at the agent.
    pub avoidance: bool,
    /// Agent id labels.
    pub labels: bool,
    /// Metres of arrow per newton of force.
    pub force_scale: f32,
    /// How agent bodies are filled.
    pub colour_by: ColourBy,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            forces: true,
            force_labels: true,
            steering: true,
            velocity: false,
            preferred_velocity: false,
            heading: false,
            trails: false,
            trail_seconds: 3.0,
            neighbours: false,
            goal: true,
            sensing: false,
            avoidance: true,
            labels: false,
            force_scale: 0.5,
            colour_by: ColourBy::Status,
        }
    }
}

/// Which agents the overlays apply to, and their recorded trails.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Focus {
    /// The agent picked on the canvas (drawn with a ring; goal, sensing and labels are its own).
    pub selected: Option<u32>,
    /// Agents whose overlays are shown; `None` shows every agent's. Others are drawn faded.
    pub shown: Option<HashSet<u32>>,
    /// Recorded positions (oldest first, ending at the shown tick) by agent id.
    pub trails: HashMap<u32, Vec<Vec2>>,
}

impl Focus {
    /// True when `id`'s overlays are drawn.
    pub fn shows(&self, id: u32) -> bool {
        self.shown.as_ref().is_none_or(|s| s.contains(&id))
    }
}

/// The fill of every agent of `frame` under `mode`, in frame order.
pub fn agent_fills(header: &RecordingHeader, frame: &Frame, mode: ColourBy) -> Vec<Color> {
    let pal = palette();
    let densities = (mode == ColourBy::Density).then(|| neighbour_counts(frame));
    frame
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| match mode {
            ColourBy::Status if a.colliding() => pal.agent_colliding,
            ColourBy::Status if a.arrived() => pal.agent_arrived,
            ColourBy::Status => pal.agent,
            ColourBy::Speed => ramp(a.velocity.length() / header.max_speed_of(a).max(1e-3)),
            ColourBy::Density => ramp(densities.as_ref().map_or(0, |d| d[i]) as f32 / DENSITY_FULL_SCALE as f32),
            ColourBy::State => force_color(header.state(a.state)),
            ColourBy::Group => force_color(header.agents.profile_name(a.profile)),
        })
        .collect()
}

/// Blue (0) through green to red (1 and above): the colour scale of the speed and density
/// colourings.
pub fn ramp(t: f32) -> Color {
    let t = t.clamp(0.0, 1.0);
    let lerp = |a: f32, b: f32, u: f32| (a + (b - a) * u).round() as u8;
    if t < 0.5 {
        let u = t * 2.0;
        Color::rgb(lerp(50.0, 60.0, u), lerp(90.0, 180.0, u), lerp(220.0, 80.0, u))
    } else {
        let u = (t - 0.5) * 2.0;
        Color::rgb(lerp(60.0, 220.0, u), lerp(180.0, 50.0, u), lerp(80.0, 40.0, u))
    }
}

/// For every agent of `frame`, the number of other agents within [`DENSITY_RADIUS`].
pub fn neighbour_counts(frame: &Frame) -> Vec<u32> {
    let key = |p: Vec2| {
        (
            (p.x / DENSITY_RADIUS).floor() as i32,
            (p.y / DENSITY_RADIUS).floor() as i32,
        )
    };
    let mut grid: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
    for (i, a) in frame.agents.iter().enumerate() {
        grid.entry(key(a.position)).or_default().push(i);
    }
    frame
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let (cx, cy) = key(a.position);
            let mut n = 0;
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for &j in grid.get(&(cx + dx, cy + dy)).map_or(&[][..], Vec::as_slice) {
                        let near = frame.agents[j].position.distance(a.position) <= DENSITY_RADIUS;
                        n += u32::from(j != i && near);
                    }
                }
            }
            n
        })
        .collect()
}

fn arrow(list: &mut DrawList, from: Vec2, to: Vec2, width: f32, color: Color) {
    list.push(Shape::Arrow {
        from,
        to,
        stroke: Stroke { width, color },
        head: 5.0,
    });
}

/// Pushes the vector overlays (forces, steering, velocities, heading) of agent `a`; a force
/// labelled `i` in `header` is drawn in `force_colors[i]` (see [`force_colors`]).
pub fn draw_vectors(
    list: &mut DrawList,
    header: &RecordingHeader,
    frame: &Frame,
    a: &AgentSample,
    overlays: &Overlays,
    force_colors: &[Color],
    label_forces: bool,
) {
    let pal = palette();
    if overlays.heading {
        arrow(list, a.position, a.position + a.heading, 1.5, pal.agent_edge);
    }
    if overlays.preferred_velocity && a.preferred_velocity != Vec2::ZERO {
        arrow(
            list,
            a.position,
            a.position + a.preferred_velocity,
            1.5,
            pal.preferred_velocity,
        );
    }
    if overlays.velocity && a.velocity != Vec2::ZERO {
        arrow(list, a.position, a.position + a.velocity, 1.5, pal.velocity);
    }
    if overlays.forces {
        for f in frame.forces_of(a) {
            if f.force == Vec2::ZERO {
                continue;
            }
            let label = header.label(f.label);
            let color = force_colors
                .get(usize::from(f.label))
                .copied()
                .unwrap_or_else(|| force_color(label));
            let to = a.position + f.force * overlays.force_scale;
            arrow(list, a.position, to, 1.5, color);
            if label_forces {
                list.push(Shape::Label {
                    position: to + (to - a.position).normalize_or_zero() * 0.25,
                    text: label.to_string(),
                    color,
                    size: 11.0,
                });
            }
        }
    }
    if overlays.steering && a.steering != Vec2::ZERO {
        arrow(
            list,
            a.position,
            a.position + a.steering * overlays.force_scale,
            2.0,
            pal.steering,
        );
    }
}

/// The colour of each force label of `header`, by label index: worked out once a frame rather
/// than once an arrow.
pub fn force_colors(header: &RecordingHeader) -> Vec<Color> {
    header.labels.iter().map(|label| force_color(label)).collect()
}

/// Pushes the trail of every shown agent.
pub fn draw_trails(list: &mut DrawList, focus: &Focus) {
    let color = palette().trail;
    let mut ids: Vec<&u32> = focus.trails.keys().collect();
    ids.sort();
    for id in ids.into_iter().filter(|id| focus.shows(**id)) {
        let points = &focus.trails[id];
        if points.len() >= 2 {
            list.push(Shape::Polyline {
                points: points.clone(),
                closed: false,
                stroke: Stroke { width: 1.5, color },
            });
        }
    }
}

/// Pushes neighbour links of the focused agents (at most a few dozen): a line to every agent
/// within the largest neighbour radius of the agent's behaviours.
pub fn draw_neighbour_links(list: &mut DrawList, header: &RecordingHeader, frame: &Frame, focus: &Focus) {
    let color = palette().neighbour;
    let focused = frame
        .agents
        .iter()
        .filter(|a| focus.shown.is_some() && focus.shows(a.id) || focus.selected == Some(a.id))
        .take(MAX_DETAILED);
    for a in focused {
        let radius = sensing_radius(header, a);
        for b in &frame.agents {
            if b.id != a.id && b.position.distance(a.position) <= radius {
                list.push(Shape::Polyline {
                    points: vec![a.position, b.position],
                    closed: false,
                    stroke: Stroke { width: 1.0, color },
                });
            }
        }
    }
}

/// The neighbour (sensing) radius of `a`'s profile at its tick (0 when it senses nobody).
pub fn sensing_radius(header: &RecordingHeader, a: &AgentSample) -> f32 {
    header.profile_of(a).map_or(0.0, |p| p.sensing_radius)
}

/// Pushes the selected agent's ring, sensing range and goal.
pub fn draw_selected(list: &mut DrawList, header: &RecordingHeader, a: &AgentSample, overlays: &Overlays) {
    let scene = &header.scene;
    let pal = palette();
    let selection = Stroke {
        width: 2.5,
        color: pal.selection,
    };
    if overlays.sensing {
        let radius = sensing_radius(header, a);
        if radius > 0.0 {
            list.push(Shape::Circle {
                center: a.position,
                radius,
                fill: Some(pal.neighbour.with_alpha(25)),
                stroke: Some(Stroke {
                    width: 1.0,
                    color: pal.neighbour,
                }),
            });
        }
    }
    if overlays.goal {
        let goal = header.agents.agent(a.id).map(|entry| &entry.goal);
        match goal {
            Some(Goal::Target(name)) => {
                if let Some(t) = scene.target(name) {
                    list.push(Shape::Polyline {
                        points: vec![a.position, t.position],
                        closed: false,
                        stroke: Stroke {
                            width: 1.5,
                            color: pal.selection.with_alpha(160),
                        },
                    });
                    list.push(Shape::Circle {
                        center: t.position,
                        radius: t.radius,
                        fill: None,
                        stroke: Some(selection),
                    });
                }
            }
            Some(Goal::Path(name)) => {
                if let Some(path) = scene.paths.iter().find(|p| &p.id == name) {
                    list.push(Shape::Polyline {
                        points: path.points.clone(),
                        closed: path.closed,
                        stroke: selection,
                    });
                }
            }
            _ => {}
        }
    }
    list.push(Shape::Circle {
        center: a.position,
        radius: header.radius_of(a) + 0.12,
        fill: None,
        stroke: Some(selection),
    });
}

/// Pushes an avoidance explanation in velocity space, origin at the agent: the speed-limit
/// circle, each constraint (forbidden regions shaded, ORCA lines with their permitted side
/// ticked, hard lines thicker), and the preferred and chosen velocities.
pub fn draw_avoidance(list: &mut DrawList, debug: &AvoidanceDebug) {
    let pal = palette();
    let o = debug.position;
    let vo = Color::rgb(200, 60, 60);
    let reach = debug.max_speed.max(debug.preferred.length()).max(0.5) * 2.0;
    list.push(Shape::Circle {
        center: o,
        radius: debug.max_speed,
        fill: None,
        stroke: Some(Stroke {
            width: 1.0,
            color: pal.neighbour,
        }),
    });
    for c in &debug.constraints {
        match c {
            Constraint::HalfPlane { point, direction, hard } => {
                let d = direction.normalize_or_zero();
                let p = o + *point;
                let (a, b) = (p - d * reach, p + d * reach);
                let width = if *hard { 2.5 } else { 1.5 };
                list.push(Shape::Polyline {
                    points: vec![a, b],
                    closed: false,
                    stroke: Stroke { width, color: vo },
                });
                // Ticks on the permitted (left) side.
                for k in -2..=2 {
                    let at = p + d * (k as f32 * reach / 3.0);
                    list.push(Shape::Polyline {
                        points: vec![at, at + d.perp() * 0.12],
                        closed: false,
                        stroke: Stroke { width: 1.0, color: vo },
                    });
                }
            }
            Constraint::Region { vertices } => list.push(Shape::Polygon {
                points: vertices.iter().map(|v| o + *v).collect(),
                fill: vo.with_alpha(40),
                stroke: Some(Stroke {
                    width: 1.0,
                    color: vo.with_alpha(160),
                }),
            }),
            Constraint::Edge { a, b, outer } => list.push(Shape::Polyline {
                points: vec![o + *a, o + *b],
                closed: false,
                stroke: Stroke {
                    width: if *outer { 2.0 } else { 1.0 },
                    color: vo,
                },
            }),
        }
    }
    arrow(list, o, o + debug.preferred, 2.0, pal.preferred_velocity);
    arrow(list, o, o + debug.chosen, 2.0, pal.velocity);
}
