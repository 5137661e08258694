//! Headless runs of bundled scenes, determinism, and the `.crowdrec` format's behaviour on
//! good, truncated and corrupted files.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crowdlab::record::{Frame, FrameSource, RecordingError, RecordingReader, RecordingWriter, quantise};
use crowdlab::scene::{Scene, default_scene, load_scene};
use crowdlab::sim::run::{RunLimit, RunSink, run_scene};

fn scene(name: &str) -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)).unwrap()
}

fn frames_of(scene: Scene, limit: RunLimit) -> (Vec<Frame>, crowdlab::record::Metrics) {
    let mut frames = Vec::new();
    let metrics = run_scene(Arc::new(scene), limit, &mut frames, |_, _| {}).unwrap();
    (frames, metrics)
}

/// Writes the run of `scene` to `path`.
struct FileSink<'a>(&'a Path, Option<RecordingWriter>);

impl RunSink for FileSink<'_> {
    type Error = RecordingError;
    fn begin(&mut self, header: &crowdlab::record::RecordingHeader) -> Result<(), RecordingError> {
        self.1 = Some(RecordingWriter::create(self.0, header)?);
        Ok(())
    }
    fn frame(&mut self, frame: &Frame) -> Result<(), RecordingError> {
        self.1.as_mut().unwrap().push(frame)
    }
}

fn record(scene: Scene, path: &Path, threads: usize) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let mut sink = FileSink(path, None);
    pool.install(|| run_scene(Arc::new(scene), RunLimit::default(), &mut sink, |_, _| {}))
        .unwrap();
    sink.1.unwrap().finish().unwrap();
}

#[test]
fn two_agents_crossing_both_arrive_without_collision() {
    let (frames, metrics) = frames_of(scene("two_agents_crossing.ron"), RunLimit::default());
    assert_eq!(metrics.summary.agents, 2);
    assert_eq!(metrics.summary.agents_reached, 2, "{metrics:#?}");
    assert_eq!(metrics.summary.collisions, 0, "{metrics:#?}");
    assert!(frames.iter().all(|f| f.contacts.is_empty()));
    // They really met: at some tick their centres came within 1.5 m of each other.
    let closest = frames
        .iter()
        .filter(|f| f.agents.len() == 2)
        .map(|f| f.agents[0].position.distance(f.agents[1].position))
        .fold(f32::INFINITY, f32::min);
    assert!(closest < 1.5 && closest > 0.6, "closest approach {closest}");
    // 12 m at 1.3 m/s plus acceleration and braking: between 9 and 16 s.
    for a in &metrics.agents {
        let t = a.completion_time.unwrap();
        assert!((9.0..16.0).contains(&t), "agent {} took {t} s", a.id);
        assert!(
            a.path_length > 11.5 && a.path_length < 14.0,
            "agent {} walked {}",
            a.id,
            a.path_length
        );
    }
    // Each behaviour's force is recorded, labelled, for every agent of every stepped tick.
    let f = &frames[10];
    assert!(f.agents.iter().all(|a| f.forces_of(a).len() == 2));
}

#[test]
fn same_scene_and_seed_give_byte_identical_recordings_at_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<PathBuf> = [1, 2, 1, 4]
        .iter()
        .enumerate()
        .map(|(i, _)| dir.path().join(format!("r{i}.crowdrec")))
        .collect();
    for (path, threads) in paths.iter().zip([1, 2, 1, 4]) {
        record(default_scene(), path, threads);
    }
    let first = std::fs::read(&paths[0]).unwrap();
    assert!(first.len() > 10_000);
    for p in &paths[1..] {
        assert!(
            std::fs::read(p).unwrap() == first,
            "{} differs from the first run",
            p.display()
        );
    }
}

#[test]
fn recording_gives_random_access_to_every_tick() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.crowdrec");
    record(default_scene(), &path, 2);
    let (frames, _) = frames_of(default_scene(), RunLimit::default());
    let reader = RecordingReader::open(&path).unwrap();
    assert!(reader.recovery_note().is_none());
    assert_eq!(reader.header().scene, default_scene(), "the recording embeds its scene");
    assert_eq!(reader.tick_range(), (0, frames.len() as u64 - 1));
    for tick in [frames.len() as u64 - 1, 0, 300, 64, 63, 65, 1] {
        let expected = quantise(&frames[tick as usize]);
        assert_eq!(reader.frame(tick).unwrap(), expected, "tick {tick}");
        assert_eq!(
            expected.agents.iter().map(|a| a.position).collect::<Vec<_>>(),
            frames[tick as usize]
                .agents
                .iter()
                .map(|a| a.position)
                .collect::<Vec<_>>(),
            "positions are exact"
        );
    }
    let err = reader.frame(99_999).unwrap_err().to_string();
    assert!(err.contains("tick 99999 is not in the recording"), "{err}");
}

#[test]
fn damaged_recordings_give_clear_errors_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.crowdrec");
    record(default_scene(), &path, 1);
    let bytes = std::fs::read(&path).unwrap();
    let write = |name: &str, data: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, data).unwrap();
        p
    };

    let err = RecordingReader::open(&write("empty.crowdrec", &[]))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("too short to be a crowdrec recording"), "{err}");
    let err = RecordingReader::open(&write("magic.crowdrec", b"PNG\0\0\0\0\0\0\0\0\0\0\0\0\0"))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("wrong magic bytes"), "{err}");
    let err = RecordingReader::open(&write("head.crowdrec", &bytes[..200]))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("header block is damaged or cut short"), "{err}");
    let err = RecordingReader::open(&dir.path().join("missing.crowdrec"))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("missing.crowdrec"), "{err}");
    // A recording of format 2 (no agent table) is refused with what to do about it.
    let mut old = bytes.clone();
    old[8..12].copy_from_slice(&2u32.to_le_bytes());
    let err = RecordingReader::open(&write("v2.crowdrec", &old))
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("format version 2 was written by an older crowdlab") && err.contains("record the run again"),
        "{err}"
    );

    // Cut in the middle: every complete chunk is recovered, and the reader says so.
    let cut = write("cut.crowdrec", &bytes[..bytes.len() / 2]);
    let reader = RecordingReader::open(&cut).unwrap();
    assert!(reader.recovery_note().unwrap().contains("not closed properly"));
    let (first, last) = reader.tick_range();
    assert_eq!(first, 0);
    assert!(last > 0 && last < 600, "recovered up to tick {last}");
    assert!(reader.frame(last).is_ok());

    // A flipped byte inside a chunk is caught by its CRC when that chunk is read.
    let mut flipped = bytes.clone();
    let at = bytes.len() / 3;
    flipped[at] ^= 0xff;
    let reader = RecordingReader::open(&write("flip.crowdrec", &flipped)).unwrap();
    let errors: Vec<String> = (0..=reader.tick_range().1)
        .filter_map(|t| reader.frame(t).err())
        .map(|e| e.to_string())
        .collect();
    assert!(!errors.is_empty());
    assert!(
        errors[0].contains("is damaged (CRC or length mismatch)"),
        "{}",
        errors[0]
    );

    // Every prefix of the file opens or fails cleanly.
    for len in (0..bytes.len()).step_by(997) {
        let p = write("prefix.crowdrec", &bytes[..len]);
        if let Ok(r) = RecordingReader::open(&p) {
            let (a, b) = r.tick_range();
            for t in a..=b {
                let _ = r.frame(t);
            }
        }
    }
}

#[test]
fn an_unstarted_agent_is_absent_until_its_start_time_and_gone_after_its_end() {
    let mut s = scene("two_agents_crossing.ron");
    s.agents[1].start_time = 2.0;
    s.agents[0].end_time = Some(3.0);
    let (frames, _) = frames_of(s, RunLimit { ticks: Some(40) });
    let present = |tick: usize, id: u32| frames[tick].agent(id).is_some();
    assert!(present(0, 0) && !present(0, 1));
    assert!(!present(19, 1) && present(20, 1));
    assert!(present(29, 0) && !present(30, 0));
    assert_eq!(frames.len(), 41);
}

#[test]
fn path_walkers_visit_waypoints_and_remove_policy_drops_arrived_agents() {
    let mut s = scene("two_agents_crossing.ron");
    s.settings.on_arrival = crowdlab::scene::ArrivalPolicy::Remove;
    let (frames, metrics) = frames_of(s, RunLimit::default());
    assert_eq!(metrics.summary.agents_reached, 2);
    assert!(
        frames.last().unwrap().agents.is_empty(),
        "arrived agents left the scene"
    );

    // The default scene's patrol walks its closed path: it passes near every corner in turn.
    let (frames, _) = frames_of(default_scene(), RunLimit { ticks: Some(700) });
    let corners = &default_scene().paths[0].points;
    let mut visits = Vec::new();
    for f in &frames {
        let p = f.agent(8).unwrap().position;
        if let Some(i) = corners.iter().position(|c| c.distance(p) < 0.6)
            && visits.last() != Some(&i)
        {
            visits.push(i);
        }
    }
    assert!(visits.starts_with(&[0, 1, 2, 3]), "corners visited in order {visits:?}");
}

#[test]
fn spawned_agents_are_what_the_world_says_in_the_recording_csv_and_draw_lists() {
    use std::collections::HashMap;

    use crowdlab::draw::{Focus, Overlays, Shape, build_frame_draw_list, build_frame_layers};
    use crowdlab::export::{PngOptions, TickSelection, export_csv, png_draw_list};
    use crowdlab::sim::World;

    let scene = scene("city_walk.ron");
    let first_spawned = scene.agents.iter().map(|a| a.id + 1).max().unwrap_or(0);
    let ticks = 20;
    let mut world = World::new(Arc::new(scene.clone()));
    for _ in 0..ticks {
        world.step();
    }
    let expected: HashMap<u32, (String, f32)> = world
        .bodies()
        .iter()
        .filter(|b| b.status.present())
        .map(|b| (b.id, (scene.profiles[b.profile as usize].name.clone(), b.radius)))
        .collect();
    let spawned = expected.keys().filter(|&&id| id >= first_spawned).count();
    assert_eq!(spawned, 40, "both spawn groups are present");

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("city.crowdrec");
    let mut sink = FileSink(&path, None);
    run_scene(Arc::new(scene), RunLimit { ticks: Some(ticks) }, &mut sink, |_, _| {}).unwrap();
    sink.1.unwrap().finish().unwrap();
    let reader = RecordingReader::open(&path).unwrap();
    let header = reader.header();
    assert_eq!(header.agents.agents.iter().filter(|a| a.spawned).count(), 40);
    let frame = reader.frame_at(ticks).unwrap();
    assert_eq!(frame.agents.len(), expected.len());
    for a in &frame.agents {
        let (profile, radius) = &expected[&a.id];
        assert_eq!(header.agents.profile_name(a.profile), profile, "agent {}", a.id);
        assert_eq!(header.radius_of(a), *radius, "agent {}", a.id);
    }

    let csv_path = dir.path().join("city.csv");
    let only_last = TickSelection {
        from: Some(ticks),
        to: Some(ticks),
        every: 1,
    };
    export_csv(&reader, &csv_path, only_last, &mut |_, _| {}).unwrap();
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    let mut lines = csv.lines();
    let columns: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| columns.iter().position(|c| *c == name).unwrap();
    let (id_col, profile_col, radius_col) = (col("id"), col("profile"), col("radius"));
    let mut rows = 0;
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let id: u32 = cells[id_col].parse().unwrap();
        let (profile, radius) = &expected[&id];
        assert_eq!(cells[profile_col], profile);
        assert_eq!(cells[radius_col].parse::<f32>().unwrap(), *radius);
        rows += 1;
    }
    assert_eq!(rows, expected.len());

    let body_radius = |list: &crowdlab::draw::DrawList, at: glam::Vec2| {
        list.shapes
            .iter()
            .find_map(|s| match s {
                Shape::Circle {
                    center,
                    radius,
                    fill: Some(_),
                    ..
                } if *center == at => Some(*radius),
                _ => None,
            })
            .unwrap()
    };
    let selected = frame.agents.iter().map(|a| a.id).max().unwrap();
    let canvas_focus = Focus {
        selected: Some(selected),
        ..Focus::default()
    };
    let [scenery, canvas] = build_frame_layers(header, &frame, &Overlays::default(), &canvas_focus);
    let png = png_draw_list(header, &frame, &PngOptions::default());
    for a in &frame.agents {
        let radius = expected[&a.id].1;
        assert_eq!(body_radius(&canvas, a.position), radius, "canvas, agent {}", a.id);
        assert_eq!(body_radius(&png, a.position), radius, "PNG, agent {}", a.id);
    }
    // The canvas's layers are the whole list, the scene first; without moving obstacles the
    // scene's layer stays the same from tick to tick while the agents' moves.
    let whole = build_frame_draw_list(header, &frame, &Overlays::default(), &canvas_focus);
    assert_eq!(whole.shapes, [&scenery.shapes[..], &canvas.shapes[..]].concat());
    let before = reader.frame_at(ticks - 1).unwrap();
    let [scenery_before, canvas_before] = build_frame_layers(header, &before, &Overlays::default(), &canvas_focus);
    assert!(!scenery.shapes.is_empty() && scenery_before == scenery);
    assert_ne!(canvas_before, canvas);
}

#[test]
fn an_agent_on_profile_65537_is_recorded_on_that_profile() {
    let mut scene = default_scene();
    let template = scene.profiles[0].clone();
    scene.profiles = (0..65_537)
        .map(|i| crowdlab::scene::Profile {
            name: format!("p{i}"),
            radius: if i == 65_536 { 0.4 } else { 0.25 },
            ..template.clone()
        })
        .collect();
    for a in &mut scene.agents {
        a.profile = "p0".into();
    }
    scene.agents[0].profile = "p65536".into();
    assert!(crowdlab::scene::validate(&scene).is_empty());
    let (frames, _) = frames_of(scene.clone(), RunLimit { ticks: Some(1) });
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.crowdrec");
    let mut sink = FileSink(&path, None);
    run_scene(Arc::new(scene), RunLimit { ticks: Some(1) }, &mut sink, |_, _| {}).unwrap();
    sink.1.unwrap().finish().unwrap();
    let reader = RecordingReader::open(&path).unwrap();
    let header = reader.header();
    let id = frames[1].agents[0].id;
    let sample = reader.frame_at(1).unwrap().agent(id).copied().unwrap();
    assert_eq!(sample.profile, 65_536);
    assert_eq!(header.agents.profile_name(sample.profile), "p65536");
    assert_eq!(header.radius_of(&sample), 0.4);
    assert_eq!(header.agents.agent(id).unwrap().profile, 65_536);
}
