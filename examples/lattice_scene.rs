//! Writes the benches' lattice crowd (`benches/support/crowd.rs`: `n` walkers 1 m apart, each
//! heading for the point mirrored through the origin) as a scene file, to time it in a real
//! window: `cargo run --release --example lattice_scene -- 10000 lattice.ron`, then
//! `crowdlab lattice.ron --play-seconds 8`.

#[path = "../benches/support/crowd.rs"]
mod crowd;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [n, path] = args.as_slice() else {
        eprintln!("usage: lattice_scene N OUT.ron");
        return std::process::ExitCode::from(2);
    };
    let Ok(n) = n.parse::<usize>() else {
        eprintln!("lattice_scene: {n:?} is not a number of walkers");
        return std::process::ExitCode::from(2);
    };
    match crowdlab::scene::save_scene(&crowd::lattice_crowd(n), std::path::Path::new(path)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            std::process::ExitCode::from(1)
        }
    }
}
