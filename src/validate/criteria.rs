//! Pass criteria of validation scenes and their evaluation against a run's metrics.
//!
//! A scene's criteria live in a sidecar file next to it (`NAME.criteria`, RON), so bundled RiMEA
//! scenes and a user's own scenes are checked the same way. Each criterion yields a
//! [`CheckResult`]: the band it requires, the value measured and whether it passed.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::weidmann::weidmann_speed;
use crate::record::{AgentMetrics, Metrics};
use crate::scene::Scene;

/// The criteria sidecar of a validation scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseCriteria {
    /// The test's short name shown in reports ("RiMEA 1").
    pub test: String,
    /// Fast enough to run in `cargo test` (seconds, not minutes).
    #[serde(default)]
    pub fast: bool,
    /// Everything the run must satisfy.
    pub criteria: Vec<Criterion>,
}

/// One pass criterion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Criterion {
    /// Every agent reaches its goal.
    AllArrive,
    /// Every agent's travel time (appearing → arrival, s) lies in `[min, max]`.
    TravelTime { min: f32, max: f32 },
    /// Every agent starts moving no earlier than its scene `start_time` and at most `max` s after it.
    StartDelay { max: f32 },
    /// No agent overlaps a wall or other obstacle by more than the contact tolerance (1 mm).
    NoWallPenetration,
    /// Every arrived agent's mean speed (path length / travel time) is within `tolerance`
    /// (a fraction) of its profile's preferred speed.
    SpeedMatchesProfile { tolerance: f32 },
    /// Evacuation time (last arrival) of the agents of profile `numerator` divided by that of
    /// profile `denominator` lies in `[min, max]`.
    EvacuationRatio {
        numerator: String,
        denominator: String,
        min: f32,
        max: f32,
    },
    /// The peak density (persons/m²) in measurement area `area` is at least `min` / below `max`.
    PeakDensity {
        area: String,
        min: Option<f32>,
        max: Option<f32>,
    },
    /// In every measurement area, the mean speed over `[from, to]` s (occupied ticks) is within
    /// `tolerance` m/s of Weidmann's speed at the mean density measured there.
    FundamentalDiagram { from: f32, to: f32, tolerance: f32 },
}

/// The outcome of one criterion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// What was checked.
    pub what: String,
    /// The band required, human-readable.
    pub band: String,
    /// The value measured, human-readable.
    pub measured: String,
    /// Whether the measured value lies in the band.
    pub passed: bool,
}

/// One point of a measured fundamental diagram: (area id, mean density, mean speed).
pub type DiagramPoint = (String, f32, f32);

/// The (density, speed) point of every measurement area that was occupied within `[from, to]` s.
pub fn fundamental_diagram(metrics: &Metrics, from: f32, to: f32) -> Vec<DiagramPoint> {
    metrics
        .crowd
        .areas
        .iter()
        .filter_map(|a| a.mean_over(from, to).map(|(rho, v)| (a.id.clone(), rho, v)))
        .collect()
}

/// Evacuation time (latest arrival, s) of the agents of each profile; None for a profile some
/// of whose agents never arrived.
pub fn evacuation_by_profile(scene: &Scene, metrics: &Metrics) -> HashMap<String, Option<f32>> {
    let by_id: HashMap<u32, &AgentMetrics> = metrics.agents.iter().map(|a| (a.id, a)).collect();
    let mut out: HashMap<String, Option<f32>> = HashMap::new();
    for agent in &scene.agents {
        let arrival = by_id.get(&agent.id).and_then(|m| m.arrival_time);
        let entry = out.entry(agent.profile.clone()).or_insert(Some(0.0));
        *entry = match (*entry, arrival) {
            (Some(t), Some(a)) => Some(t.max(a)),
            _ => None,
        };
    }
    out
}

fn band(min: Option<f32>, max: Option<f32>, unit: &str) -> String {
    match (min, max) {
        (Some(lo), Some(hi)) => format!("{lo}–{hi}{unit}"),
        (Some(lo), None) => format!("≥ {lo}{unit}"),
        (None, Some(hi)) => format!("< {hi}{unit}"),
        (None, None) => "any".into(),
    }
}

fn in_band(value: f32, min: Option<f32>, max: Option<f32>) -> bool {
    min.is_none_or(|lo| value >= lo) && max.is_none_or(|hi| value < hi)
}

impl Criterion {
    /// Checks this criterion on the run of `scene` that produced `metrics`.
    pub fn evaluate(&self, scene: &Scene, metrics: &Metrics) -> CheckResult {
        let agents = &metrics.agents;
        match self {
            Criterion::AllArrive => {
                let arrived = agents.iter().filter(|a| a.reached_goal).count();
                CheckResult {
                    what: "agents reaching their goal".into(),
                    band: format!("{} of {}", scene.agents.len(), scene.agents.len()),
                    measured: format!("{arrived} of {}", scene.agents.len()),
                    passed: arrived == scene.agents.len(),
                }
            }
            Criterion::TravelTime { min, max } => {
                let times: Vec<f32> = agents.iter().filter_map(|a| a.completion_time).collect();
                let lo = times.iter().copied().fold(f32::INFINITY, f32::min);
                let hi = times.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                CheckResult {
                    what: "travel time".into(),
                    band: band(Some(*min), Some(*max), " s"),
                    measured: match times.len() {
                        0 => "nobody arrived".into(),
                        1 => format!("{lo:.1} s"),
                        _ => format!("{lo:.1}–{hi:.1} s"),
                    },
                    passed: !times.is_empty() && lo >= *min && hi <= *max,
                }
            }
            Criterion::StartDelay { max } => {
                let by_id: HashMap<u32, &AgentMetrics> = agents.iter().map(|a| (a.id, a)).collect();
                let delays: Vec<Option<f32>> = scene
                    .agents
                    .iter()
                    .map(|a| {
                        by_id
                            .get(&a.id)
                            .and_then(|m| m.first_move_time)
                            .map(|t| t - a.start_time)
                    })
                    .collect();
                let moved: Vec<f32> = delays.iter().flatten().copied().collect();
                let lo = moved.iter().copied().fold(f32::INFINITY, f32::min);
                let hi = moved.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                CheckResult {
                    what: "delay between assigned start time and first movement".into(),
                    band: format!("0–{max} s"),
                    measured: if moved.len() < delays.len() {
                        format!("{} of {} never moved", delays.len() - moved.len(), delays.len())
                    } else {
                        format!("{lo:.2}–{hi:.2} s")
                    },
                    passed: moved.len() == delays.len() && lo >= 0.0 && hi <= *max,
                }
            }
            Criterion::NoWallPenetration => {
                let deepest = agents.iter().map(|a| a.max_obstacle_penetration).fold(0.0, f32::max);
                let offenders = agents.iter().filter(|a| a.max_obstacle_penetration > 0.0).count();
                CheckResult {
                    what: "deepest penetration into a wall".into(),
                    band: "0 m (no contact deeper than 1 mm)".into(),
                    measured: format!("{deepest:.3} m ({offenders} agents)"),
                    passed: offenders == 0,
                }
            }
            Criterion::SpeedMatchesProfile { tolerance } => {
                let worst = agents
                    .iter()
                    .filter_map(|m| {
                        let t = m.completion_time.filter(|t| *t > 0.0)?;
                        let agent = scene.agents.iter().find(|a| a.id == m.id)?;
                        let wanted = scene.profile(&agent.profile)?.preferred_speed;
                        Some(((m.path_length / t) / wanted - 1.0).abs())
                    })
                    .fold(None, |acc: Option<f32>, d| Some(acc.map_or(d, |a| a.max(d))));
                CheckResult {
                    what: "largest deviation of an agent's mean speed from its assigned speed".into(),
                    band: format!("≤ {:.0} %", tolerance * 100.0),
                    measured: worst.map_or("nobody arrived".into(), |w| format!("{:.1} %", w * 100.0)),
                    passed: worst.is_some_and(|w| w <= *tolerance),
                }
            }
            Criterion::EvacuationRatio {
                numerator,
                denominator,
                min,
                max,
            } => {
                let times = evacuation_by_profile(scene, metrics);
                let get = |p: &str| times.get(p).copied().flatten();
                let (n, d) = (get(numerator), get(denominator));
                let ratio = n.zip(d).filter(|(_, d)| *d > 0.0).map(|(n, d)| n / d);
                CheckResult {
                    what: format!("evacuation time ratio {numerator} / {denominator}"),
                    band: band(Some(*min), Some(*max), ""),
                    measured: match (ratio, n, d) {
                        (Some(r), Some(n), Some(d)) => format!("{r:.2} ({n:.1} s / {d:.1} s)"),
                        _ => "not everyone got out".into(),
                    },
                    passed: ratio.is_some_and(|r| r >= *min && r <= *max),
                }
            }
            Criterion::PeakDensity { area, min, max } => {
                let peak = metrics
                    .crowd
                    .areas
                    .iter()
                    .find(|a| &a.id == area)
                    .map(|a| a.peak_density);
                CheckResult {
                    what: format!("peak density in area {area:?}"),
                    band: band(*min, *max, " P/m²"),
                    measured: peak.map_or("no such area".into(), |p| format!("{p:.2} P/m²")),
                    passed: peak.is_some_and(|p| in_band(p, *min, *max)),
                }
            }
            Criterion::FundamentalDiagram { from, to, tolerance } => {
                let points = fundamental_diagram(metrics, *from, *to);
                let worst = points
                    .iter()
                    .map(|(id, rho, v)| (id, *rho, (v - weidmann_speed(*rho)).abs()))
                    .max_by(|a, b| a.2.total_cmp(&b.2));
                let all_measured = points.len() == metrics.crowd.areas.len() && !points.is_empty();
                CheckResult {
                    what: "largest |mean speed − Weidmann speed| over the measurement areas".into(),
                    band: format!("≤ {tolerance} m/s"),
                    measured: worst.map_or("no area was occupied".into(), |(id, rho, d)| {
                        format!("{d:.2} m/s in {id} (ρ = {rho:.2} P/m²)")
                    }),
                    passed: all_measured && worst.is_some_and(|w| w.2 <= *tolerance),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec2;

    use super::*;
    use crate::record::{AreaSample, AreaSeries, CompositeScores, CrowdMetrics, SummaryMetrics};
    use crate::scene::{Agent, Goal, Profile};

    fn agent_metrics(id: u32, arrival: Option<f32>) -> AgentMetrics {
        AgentMetrics {
            id,
            reached_goal: arrival.is_some(),
            completion_time: arrival,
            path_length: arrival.unwrap_or(0.0) * 1.3,
            collisions: 0,
            max_penetration: 0.0,
            final_position: Vec2::ZERO,
            start_time: 0.0,
            first_move_time: Some(0.1),
            arrival_time: arrival,
            max_obstacle_penetration: 0.0,
            steerbench: Default::default(),
        }
    }

    /// Agents 0–1 of profile "four", 2–3 of profile "two"; areas with the given (density, speed) samples.
    fn run(arrivals: [Option<f32>; 4], areas: &[(&str, &[(f32, f32)])]) -> (Scene, Metrics) {
        let mut scene = Scene::empty();
        scene.profiles = ["four", "two"]
            .iter()
            .map(|n| Profile {
                name: (*n).into(),
                ..Profile::default()
            })
            .collect();
        scene.agents = (0..4)
            .map(|id| Agent {
                id,
                profile: if id < 2 { "four".into() } else { "two".into() },
                position: Vec2::new(id as f32, 0.0),
                heading_deg: 0.0,
                goal: Goal::None,
                start_time: 0.0,
                end_time: None,
                agent_type: None,
            })
            .collect();
        let metrics = Metrics {
            summary: SummaryMetrics {
                agents: 4,
                agents_reached: arrivals.iter().flatten().count(),
                collisions: 0,
                max_penetration: 0.0,
                ticks: 0,
                ms_per_tick: 0.0,
                wall_s: 0.0,
                scores: CompositeScores::default(),
            },
            agents: (0..4).map(|i| agent_metrics(i, arrivals[i as usize])).collect(),
            crowd: CrowdMetrics {
                areas: areas
                    .iter()
                    .map(|(id, samples)| AreaSeries {
                        id: (*id).into(),
                        area_m2: 4.0,
                        samples: samples
                            .iter()
                            .enumerate()
                            .map(|(k, (density, mean_speed))| AreaSample {
                                time: 10.0 + k as f32,
                                count: (density * 4.0) as u32,
                                density: *density,
                                mean_speed: *mean_speed,
                            })
                            .collect(),
                        peak_density: samples.iter().map(|s| s.0).fold(0.0, f32::max),
                    })
                    .collect(),
                ..CrowdMetrics::default()
            },
        };
        (scene, metrics)
    }

    #[test]
    fn evacuation_ratio_uses_the_last_arrival_of_each_profile() {
        let ratio = Criterion::EvacuationRatio {
            numerator: "two".into(),
            denominator: "four".into(),
            min: 1.6,
            max: 2.4,
        };
        let (scene, metrics) = run([Some(40.0), Some(50.0), Some(60.0), Some(100.0)], &[]);
        let r = ratio.evaluate(&scene, &metrics);
        assert!(r.passed, "{r:?}");
        assert_eq!(r.measured, "2.00 (100.0 s / 50.0 s)");
        let (scene, metrics) = run([Some(40.0), Some(50.0), Some(60.0), None], &[]);
        assert!(
            !ratio.evaluate(&scene, &metrics).passed,
            "someone of 'two' never got out"
        );
        assert!(!Criterion::AllArrive.evaluate(&scene, &metrics).passed);
    }

    #[test]
    fn peak_density_and_fundamental_diagram_bands() {
        let rho1 = weidmann_speed(1.0);
        let (scene, metrics) = run(
            [None; 4],
            &[("before", &[(1.0, rho1), (3.0, 0.3)]), ("after", &[(1.0, 1.3)])],
        );
        let congested = Criterion::PeakDensity {
            area: "before".into(),
            min: Some(2.0),
            max: None,
        };
        assert!(congested.evaluate(&scene, &metrics).passed);
        let free = Criterion::PeakDensity {
            area: "after".into(),
            min: None,
            max: Some(1.0),
        };
        assert!(
            !free.evaluate(&scene, &metrics).passed,
            "the band's upper end is exclusive"
        );
        let diagram = Criterion::FundamentalDiagram {
            from: 10.0,
            to: 10.5,
            tolerance: 0.1,
        };
        // Only the first sample of each area lies in the window: "before" matches Weidmann exactly,
        // "after" is 1.3 − 1.058 ≈ 0.24 m/s too fast.
        let r = diagram.evaluate(&scene, &metrics);
        assert!(!r.passed);
        assert!(r.measured.starts_with("0.24 m/s in after"), "{}", r.measured);
        let points = fundamental_diagram(&metrics, 10.0, 10.5);
        assert_eq!(points.len(), 2);
        assert_eq!((points[0].1, points[0].2), (1.0, rho1));
    }
}
