//! Colours shared by every renderer: scene elements and one fixed colour per force kind.

use super::list::Color;

/// The fixed colours of scene elements.
pub struct Palette {
    /// Canvas background.
    pub background: Color,
    /// Obstacle fill.
    pub obstacle: Color,
    /// Obstacle outline and walls.
    pub obstacle_edge: Color,
    /// Moving non-reactive obstacles.
    pub moving_obstacle: Color,
    /// Target markers.
    pub target: Color,
    /// Paths.
    pub path: Color,
    /// Agent bodies.
    pub agent: Color,
    /// Agents that have arrived.
    pub agent_arrived: Color,
    /// Agents in contact with something.
    pub agent_colliding: Color,
    /// Agent outlines and heading ticks.
    pub agent_edge: Color,
    /// The combined steering force.
    pub steering: Color,
    /// The velocity vector.
    pub velocity: Color,
    /// The preferred velocity vector.
    pub preferred_velocity: Color,
    /// Recorded trails.
    pub trail: Color,
    /// Neighbour links and sensing ranges.
    pub neighbour: Color,
    /// The selected agent's ring and goal.
    pub selection: Color,
    /// Labels.
    pub text: Color,
}

/// The palette used by the canvas and the PNG export.
pub fn palette() -> Palette {
    Palette {
        background: Color::rgb(248, 248, 244),
        obstacle: Color::rgb(150, 150, 160),
        obstacle_edge: Color::rgb(70, 70, 80),
        moving_obstacle: Color::rgb(220, 120, 40),
        target: Color::rgb(40, 160, 70),
        path: Color::rgb(120, 90, 200),
        agent: Color::rgb(60, 110, 200),
        agent_arrived: Color::rgb(120, 170, 120),
        agent_colliding: Color::rgb(220, 40, 40),
        agent_edge: Color::rgb(20, 30, 60),
        steering: Color::rgb(20, 20, 20),
        velocity: Color::rgb(0, 150, 200),
        preferred_velocity: Color::rgb(0, 190, 120),
        trail: Color::rgb(90, 90, 140).with_alpha(150),
        neighbour: Color::rgb(120, 120, 120),
        selection: Color::rgb(250, 180, 0),
        text: Color::rgb(30, 30, 30),
    }
}

/// The colour of a force kind, fixed per label so a behaviour looks the same everywhere.
pub fn force_color(label: &str) -> Color {
    match label {
        "seek" => Color::rgb(230, 120, 0),
        "arrive" => Color::rgb(230, 90, 30),
        "separation" => Color::rgb(200, 30, 160),
        _ => {
            // Any other label: a stable hue from its name.
            let hash = label
                .bytes()
                .fold(2166136261u32, |h, b| (h ^ b as u32).wrapping_mul(16777619));
            let hue = (hash % 360) as f32;
            hsv(hue, 0.75, 0.8)
        }
    }
}

fn hsv(hue: f32, s: f32, v: f32) -> Color {
    let c = v * s;
    let x = c * (1.0 - ((hue / 60.0) % 2.0 - 1.0).abs());
    let (r, g, b) = match (hue / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    let to = |f: f32| ((f + m) * 255.0).round() as u8;
    Color::rgb(to(r), to(g), to(b))
}
