//! The panic hook writes a crash report into the state folder and names it.
//! (Its own test binary, because the panic hook is global to the process.)

#[test]
fn a_panic_writes_a_crash_report_to_the_state_folder() {
    let dir = tempfile::tempdir().unwrap();
    // SAFETY: this test binary has a single test, so no other thread reads the environment.
    unsafe { std::env::set_var("CROWDLAB_STATE_DIR", dir.path()) };
    assert_eq!(crowdlab::crash::state_dir(), dir.path());
    crowdlab::crash::install_panic_hook();
    let result = std::thread::Builder::new()
        .name("doomed".into())
        .spawn(|| panic!("deliberate test panic 4242"))
        .unwrap()
        .join();
    assert!(result.is_err());
    let reports: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(reports.len(), 1, "{reports:?}");
    let text = std::fs::read_to_string(&reports[0]).unwrap();
    assert!(text.contains("deliberate test panic 4242"), "{text}");
    assert!(text.contains("thread: doomed"), "{text}");
    assert!(text.contains("backtrace:"));
}
