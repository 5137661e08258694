//! The GUI's Open imports SteerSuite and IndAlgoTest files, showing what the import skipped.

use crate::common;

use common::data;
use crowdlab::app::{CrowdlabApp, Severity};
use crowdlab::scene::default_scene;
use egui_kittest::Harness;

#[test]
fn open_imports_foreign_scenes_and_lists_the_skipped_elements() {
    let mut harness = Harness::builder().with_size([1280.0, 800.0]).build_ui_state(
        |ui, app: &mut CrowdlabApp| app.show(ui),
        CrowdlabApp::new(default_scene()),
    );
    harness.state_mut().open_path(&data("steersuite/every_element.xml"));
    harness.run();
    let app = harness.state();
    assert_eq!(app.document().scene.agents.len(), 9);
    assert_eq!(app.document().title(), "crowdlab — every_element.xml");
    assert!(
        app.document().scene_path().is_none(),
        "Save asks for a .ron name instead of overwriting the XML"
    );
    let notice = app.notice().expect("the skipped elements are listed");
    assert_eq!(notice.severity, Severity::Info);
    assert!(
        notice
            .text
            .contains("every_element.xml:167: agentEmitter imported as a spawn group"),
        "{}",
        notice.text
    );

    harness.state_mut().open_path(&data("indalgo/seed_example.iascene"));
    harness.run();
    let app = harness.state();
    assert_eq!(app.document().scene.obstacles.len(), 1);
    assert!(app.notice().unwrap().text.contains("obstacle 1"));
}
