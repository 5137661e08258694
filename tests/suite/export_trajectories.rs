//! Skeleton XML and CSV exports of a known hand-made recording: golden files, a schema-like
//! check of the seed's format, state mapping, resampling and the CSV layout.

use crate::common;

use std::collections::HashSet;

use common::{golden, known_recording, update_golden};
use crowdlab::export::{SkeletonOptions, StateMapping, TickSelection, write_csv, write_skeleton_xml};
use quick_xml::events::Event;

/// One parsed `<pedestrian>`.
#[derive(Debug, PartialEq)]
struct Ped {
    id: u32,
    new: bool,
    position: (f32, f32),
    direction: (f32, f32),
    state: String,
    movement: String,
}

fn attrs(e: &quick_xml::events::BytesStart) -> Vec<(String, String)> {
    e.attributes()
        .map(|a| {
            let a = a.unwrap();
            (
                String::from_utf8(a.key.as_ref().to_vec()).unwrap(),
                a.unescape_value().unwrap().into_owned(),
            )
        })
        .collect()
}

fn xy(e: &quick_xml::events::BytesStart, name: &str) -> (f32, f32) {
    assert_eq!(String::from_utf8_lossy(e.name().as_ref()), name);
    let a = attrs(e);
    let names: Vec<&str> = a.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["x", "y"], "<{name}> attributes");
    (a[0].1.parse().unwrap(), a[1].1.parse().unwrap())
}

/// Reads the next event that is not whitespace or a comment.
fn next<'a>(r: &mut quick_xml::Reader<&'a [u8]>) -> Event<'a> {
    loop {
        match r.read_event().unwrap() {
            Event::Text(t) if t.decode().unwrap().trim().is_empty() => continue,
            Event::Comment(_) => continue,
            e => return e,
        }
    }
}

fn text_element(r: &mut quick_xml::Reader<&[u8]>, name: &str) -> String {
    match next(r) {
        Event::Start(e) => assert_eq!(String::from_utf8_lossy(e.name().as_ref()), name),
        other => panic!("<{name}> expected, found {other:?}"),
    }
    let text = match next(r) {
        Event::Text(t) => t.decode().unwrap().into_owned(),
        other => panic!("text of <{name}> expected, found {other:?}"),
    };
    assert!(matches!(next(r), Event::End(_)));
    text
}

/// Checks the seed's skeleton format strictly (element order, attribute names, numbers parse,
/// `new` only on first appearance) and returns the timesteps.
fn parse_skeleton(xml: &str) -> Vec<(f64, Vec<Ped>)> {
    let mut r = quick_xml::Reader::from_str(xml);
    match next(&mut r) {
        Event::Start(e) => assert_eq!(e.name().as_ref(), b"crowd"),
        other => panic!("<crowd> expected, found {other:?}"),
    }
    let mut steps: Vec<(f64, Vec<Ped>)> = Vec::new();
    let mut seen = HashSet::new();
    loop {
        let t = match next(&mut r) {
            Event::Start(e) if e.name().as_ref() == b"timestep" => {
                let a = attrs(&e);
                assert_eq!(a.len(), 1);
                assert_eq!(a[0].0, "t");
                a[0].1.parse::<f64>().unwrap()
            }
            Event::End(e) if e.name().as_ref() == b"crowd" => break,
            other => panic!("<timestep> or </crowd> expected, found {other:?}"),
        };
        if let Some((last, _)) = steps.last() {
            assert!(t > *last, "times increase");
        }
        let mut peds = Vec::new();
        loop {
            let (id, new) = match next(&mut r) {
                Event::Start(e) if e.name().as_ref() == b"pedestrian" => {
                    let a = attrs(&e);
                    let names: Vec<&str> = a.iter().map(|(k, _)| k.as_str()).collect();
                    assert_eq!(names, ["id", "new"]);
                    (a[0].1.parse::<u32>().unwrap(), a[1].1.parse::<bool>().unwrap())
                }
                Event::End(e) if e.name().as_ref() == b"timestep" => break,
                other => panic!("<pedestrian> expected, found {other:?}"),
            };
            assert_eq!(
                new,
                seen.insert(id),
                "new=\"true\" exactly on the first appearance of {id}"
            );
            let position = match next(&mut r) {
                Event::Empty(e) => xy(&e, "position"),
                other => panic!("<position/> expected, found {other:?}"),
            };
            let direction = match next(&mut r) {
                Event::Empty(e) => xy(&e, "direction"),
                other => panic!("<direction/> expected, found {other:?}"),
            };
            let state = text_element(&mut r, "state");
            let movement = text_element(&mut r, "movement");
            assert!(["standing", "walking", "running"].contains(&movement.as_str()));
            assert!(matches!(next(&mut r), Event::End(e) if e.name().as_ref() == b"pedestrian"));
            assert!(peds.iter().all(|p: &Ped| p.id != id), "one entry per pedestrian");
            peds.push(Ped {
                id,
                new,
                position,
                direction,
                state,
                movement,
            });
        }
        steps.push((t, peds));
    }
    assert!(matches!(next(&mut r), Event::Eof));
    steps
}

fn skeleton(options: &SkeletonOptions) -> String {
    let mut out = Vec::new();
    write_skeleton_xml(&known_recording(), &mut out, options, &mut |_, _| {}).unwrap();
    String::from_utf8(out).unwrap()
}

fn check_golden(name: &str, text: &str) {
    let path = golden(name);
    if update_golden() {
        std::fs::write(&path, text).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        text, expected,
        "{name} differs from its golden file (CROWDLAB_UPDATE_GOLDEN=1 rewrites it)"
    );
}

#[test]
fn skeleton_xml_matches_its_golden_file() {
    check_golden("known_recording.skeleton.xml", &skeleton(&SkeletonOptions::default()));
}

#[test]
fn the_seed_example_passes_the_schema_check() {
    let seed = std::fs::read_to_string(common::data("skeleton_seed_example.xml")).unwrap();
    let steps = parse_skeleton(&seed);
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].1[0].position, (1.15, 0.0));
}

#[test]
fn skeleton_xml_follows_the_seed_format() {
    let steps = parse_skeleton(&skeleton(&SkeletonOptions::default()));
    assert_eq!(steps.len(), 6);
    let ids = |i: usize| steps[i].1.iter().map(|p| p.id).collect::<Vec<_>>();
    assert_eq!(ids(0), [0, 2]);
    assert_eq!(ids(2), [0, 1, 2], "agent 1 appears at tick 2");
    assert_eq!(ids(4), [0, 1], "agent 2 is absent after leaving");
    let runner = &steps[2].1[1];
    assert!(runner.new && runner.movement == "running" && runner.direction == (-1.0, 0.0));
    assert_eq!(steps[1].1[1].movement, "standing");
    assert_eq!(steps[3].0, 1.5);
    assert!(steps.iter().flat_map(|s| &s.1).all(|p| p.state == "agent"));
}

#[test]
fn states_come_from_the_profile_mapping() {
    let mut states = StateMapping::default();
    states.by_profile.insert("runner".into(), "fluid".into());
    let options = SkeletonOptions {
        states,
        ..SkeletonOptions::default()
    };
    let steps = parse_skeleton(&skeleton(&options));
    for p in steps.iter().flat_map(|s| &s.1) {
        assert_eq!(p.state, if p.id == 1 { "fluid" } else { "agent" });
    }
}

#[test]
fn resampling_interpolates_between_ticks() {
    let options = SkeletonOptions {
        fps: Some(4.0),
        ..SkeletonOptions::default()
    };
    let steps = parse_skeleton(&skeleton(&options));
    // 2.5 s of recording at 4 timesteps per second.
    assert_eq!(steps.len(), 11);
    assert_eq!(steps[1].0, 0.25);
    let walker = |i: usize| steps[i].1.iter().find(|p| p.id == 0).unwrap().position;
    assert_eq!(walker(1), (-3.75, 0.0), "halfway between tick 0 and tick 1");
    assert_eq!(walker(10), (-1.5, 0.0));
    // Agent 1 appears at tick 2 (1.0 s): interpolated from then on, new on its first timestep.
    let first = steps.iter().position(|s| s.1.iter().any(|p| p.id == 1)).unwrap();
    assert_eq!(steps[first].0, 1.0);
    let runner = |i: usize| steps[i].1.iter().find(|p| p.id == 1).unwrap().position;
    assert_eq!(runner(first + 1), (3.25, 1.0));
}

#[test]
fn tick_selection_limits_and_strides() {
    let options = SkeletonOptions {
        ticks: TickSelection {
            from: Some(1),
            to: Some(5),
            every: 2,
        },
        ..SkeletonOptions::default()
    };
    let steps = parse_skeleton(&skeleton(&options));
    let times: Vec<f64> = steps.iter().map(|s| s.0).collect();
    assert_eq!(times, [0.5, 1.5, 2.5]);
    assert!(
        steps[0].1.iter().all(|p| p.new),
        "the first exported timestep introduces everyone present"
    );
}

fn csv() -> String {
    let mut out = Vec::new();
    write_csv(&known_recording(), &mut out, TickSelection::default(), &mut |_, _| {}).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn csv_matches_its_golden_file() {
    check_golden("known_recording.csv", &csv());
}

#[test]
fn csv_has_one_row_per_agent_per_tick_and_a_column_pair_per_force() {
    let text = csv();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "tick,time,id,profile,radius,x,y,vx,vy,heading,state,fx_seek,fy_seek,fx_separation,fy_separation"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2 + 2 + 3 + 3 + 2 + 2);
    assert!(rows.iter().all(|r| r.len() == 15));
    for r in &rows {
        for v in r[..3].iter().chain(&r[4..10]) {
            v.parse::<f64>().unwrap();
        }
    }
    let row = |tick: &str, id: &str| rows.iter().find(|r| r[0] == tick && r[2] == id).unwrap().clone();
    assert_eq!(row("0", "0")[11..], ["1.5", "0", "", ""], "no separation force yet");
    assert_eq!(row("2", "0")[11..], ["1.5", "0", "0", "-0.75"]);
    assert_eq!(
        row("2", "0")[3..5],
        ["walker", "0.3"],
        "profile and radius from the agent table"
    );
    assert_eq!(row("3", "1")[3..5], ["runner", "0.25"]);
    assert_eq!(row("3", "1")[1], "1.5");
    assert_eq!(row("3", "1")[9].parse::<f32>().unwrap(), std::f32::consts::PI);
    assert_eq!(
        row("1", "2")[11..],
        ["", "", "", ""],
        "a standing agent without behaviours"
    );
    assert_eq!(row("1", "2")[10], "walking");
}
