//! Crowd measures in space: density and mean speed inside measurement areas (fundamental
//! diagram points) and the flow of agents across measurement lines.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::record::Frame;
use crate::scene::{MeasurementArea, MeasurementLine};

/// One tick's measurement in an area.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AreaSample {
    /// Simulation time (s).
    pub time: f32,
    /// Agents whose centre is inside the area.
    pub count: u32,
    /// count / area (agents per m²).
    pub density: f32,
    /// Mean speed (m/s) of the agents inside; 0 when empty.
    pub mean_speed: f32,
}

/// The time series of one measurement area.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AreaSeries {
    /// The area's id from the scene.
    pub id: String,
    /// Its size in m².
    pub area_m2: f32,
    /// One sample per recorded tick.
    pub samples: Vec<AreaSample>,
    /// Highest density seen (agents per m²).
    pub peak_density: f32,
}

impl AreaSeries {
    /// Mean density and mean speed over the samples with `from ≤ time ≤ to` in which the area
    /// was occupied (speed weighted per sample, as in RiMEA test 4), or None if it never was.
    pub fn mean_over(&self, from: f32, to: f32) -> Option<(f32, f32)> {
        let occupied: Vec<&AreaSample> = self
            .samples
            .iter()
            .filter(|s| s.time >= from && s.time <= to && s.count > 0)
            .collect();
        (!occupied.is_empty()).then(|| {
            let n = occupied.len() as f32;
            (
                occupied.iter().map(|s| s.density).sum::<f32>() / n,
                occupied.iter().map(|s| s.mean_speed).sum::<f32>() / n,
            )
        })
    }
}

/// One agent crossing a measurement line.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Crossing {
    /// Time of the tick in which the centre crossed (s).
    pub time: f32,
    /// The agent's id.
    pub agent: u32,
    /// +1 from the right of a→b to its left, −1 the other way.
    pub direction: i8,
}

/// The flow across one measurement line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineFlow {
    /// The line's id from the scene.
    pub id: String,
    /// Line length in metres.
    pub length: f32,
    /// Every crossing in time order.
    pub crossings: Vec<Crossing>,
    /// Crossings in the positive direction minus those in the negative one.
    pub net_count: i32,
    /// Crossings per second between the first and the last crossing (0 with fewer than two).
    pub flow: f32,
    /// `flow` per metre of line (agents / (m·s)).
    pub specific_flow: f32,
}

/// Accumulates area series and line crossings.
#[derive(Clone, Debug, Default)]
pub struct SpaceMeasures {
    areas: Vec<(MeasurementArea, AreaSeries)>,
    lines: Vec<(MeasurementLine, Vec<Crossing>)>,
}

/// Which side of a→b the point p is on: +1 left, −1 right, 0 on the line.
fn side(a: Vec2, b: Vec2, p: Vec2) -> f32 {
    (b - a).perp_dot(p - a).signum()
}

/// True when segment p→q crosses segment a→b (touching the line at q does not count, so a
/// point moving along the line is counted once when it leaves it).
fn crosses(a: Vec2, b: Vec2, p: Vec2, q: Vec2) -> bool {
    let (sp, sq) = ((b - a).perp_dot(p - a), (b - a).perp_dot(q - a));
    let (sa, sb) = ((q - p).perp_dot(a - p), (q - p).perp_dot(b - p));
    sp * sq < 0.0 && sa * sb <= 0.0
}

impl SpaceMeasures {
    /// Measures for the given scene areas and lines.
    pub fn new(areas: &[MeasurementArea], lines: &[MeasurementLine]) -> SpaceMeasures {
        SpaceMeasures {
            areas: areas
                .iter()
                .map(|a| {
                    let series = AreaSeries {
                        id: a.id.clone(),
                        area_m2: a.area(),
                        samples: Vec::new(),
                        peak_density: 0.0,
                    };
                    (a.clone(), series)
                })
                .collect(),
            lines: lines.iter().map(|l| (l.clone(), Vec::new())).collect(),
        }
    }

    /// Takes `frame` into account; `previous_position(i)` gives the position of the frame's
    /// agent `i` in its previous sample, if any.
    pub fn observe(&mut self, frame: &Frame, previous_position: impl Fn(usize) -> Option<Vec2>) {
        for (area, series) in &mut self.areas {
            let (mut count, mut speed) = (0u32, 0.0f32);
            for a in frame.agents.iter().filter(|a| area.contains(a.position)) {
                count += 1;
                speed += a.velocity.length();
            }
            let density = count as f32 / series.area_m2;
            series.peak_density = series.peak_density.max(density);
            series.samples.push(AreaSample {
                time: frame.time,
                count,
                density,
                mean_speed: if count > 0 { speed / count as f32 } else { 0.0 },
            });
        }
        for (line, crossings) in &mut self.lines {
            for (i, a) in frame.agents.iter().enumerate() {
                if let Some(p) = previous_position(i)
                    && crosses(line.a, line.b, p, a.position)
                {
                    crossings.push(Crossing {
                        time: frame.time,
                        agent: a.id,
                        direction: side(line.a, line.b, a.position) as i8,
                    });
                }
            }
        }
    }

    /// The area series and line flows so far.
    pub fn finish(&self) -> (Vec<AreaSeries>, Vec<LineFlow>) {
        let areas = self.areas.iter().map(|(_, s)| s.clone()).collect();
        let lines = self
            .lines
            .iter()
            .map(|(line, crossings)| {
                let length = line.a.distance(line.b);
                let span = match (crossings.first(), crossings.last()) {
                    (Some(first), Some(last)) => last.time - first.time,
                    _ => 0.0,
                };
                let flow = if crossings.len() >= 2 && span > 0.0 {
                    (crossings.len() - 1) as f32 / span
                } else {
                    0.0
                };
                LineFlow {
                    id: line.id.clone(),
                    length,
                    crossings: crossings.clone(),
                    net_count: crossings.iter().map(|c| i32::from(c.direction)).sum(),
                    flow,
                    specific_flow: flow / length,
                }
            })
            .collect();
        (areas, lines)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{frame, moving};
    use super::*;

    #[test]
    fn flow_counts_each_crossing_with_its_direction() {
        let line = MeasurementLine {
            id: "door".into(),
            a: Vec2::new(0.0, -1.0),
            b: Vec2::new(0.0, 1.0),
        };
        let mut space = SpaceMeasures::new(&[], &[line]);
        // Agent 0 walks −x → +x through the door and back; agent 1 passes beside the door (|y| > 1).
        let xs = [[-0.5, -0.5], [0.5, 0.5], [-0.5, 1.5]];
        let mut previous: Vec<Vec2> = Vec::new();
        for (tick, row) in xs.iter().enumerate() {
            let agents = vec![
                moving(0, Vec2::new(row[0], 0.0), Vec2::ZERO, 0),
                moving(1, Vec2::new(row[1], 3.0), Vec2::ZERO, 0),
            ];
            let f = frame(tick as u64 * 2, agents, vec![]);
            space.observe(&f, |i| previous.get(i).copied());
            previous = f.agents.iter().map(|a| a.position).collect();
        }
        let (_, lines) = space.finish();
        let flow = &lines[0];
        assert_eq!(flow.crossings.len(), 2);
        assert_eq!(
            flow.crossings[0].direction, -1,
            "to +x is to the right of an upward line"
        );
        assert_eq!(flow.crossings[1].direction, 1);
        assert_eq!(flow.net_count, 0);
        assert_eq!((flow.crossings[0].time, flow.crossings[1].time), (1.0, 2.0));
        assert_eq!(flow.flow, 1.0, "one further crossing in one second");
        assert_eq!(flow.specific_flow, 0.5);
    }

    #[test]
    fn mean_over_a_window_skips_empty_samples() {
        let series = AreaSeries {
            id: "a".into(),
            area_m2: 4.0,
            samples: [(0.0, 4, 1.0), (1.0, 0, 0.0), (2.0, 8, 0.5), (3.0, 12, 0.1)]
                .iter()
                .map(|&(time, count, mean_speed)| AreaSample {
                    time,
                    count,
                    density: count as f32 / 4.0,
                    mean_speed,
                })
                .collect(),
            peak_density: 3.0,
        };
        assert_eq!(series.mean_over(0.0, 2.0), Some((1.5, 0.75)));
        assert_eq!(series.mean_over(1.0, 1.0), None);
    }
}
