#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 60) each, seeded from the bundled scenes and a
# fresh recording. Needs `cargo install cargo-fuzz` and a nightly toolchain.
# Usage: fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
mkdir -p fuzz/corpus/scene_ron fuzz/corpus/crowdrec
cp scenes/*.ron assets/default_scene.ron fuzz/corpus/scene_ron/
cargo run --quiet -- run scenes/two_agents_crossing.ron --ticks 70 -o fuzz/corpus/crowdrec/two_agents.crowdrec >/dev/null
for target in $(cargo +nightly fuzz list --fuzz-dir fuzz); do
  echo "== $target for ${seconds}s"
  cargo +nightly fuzz run --fuzz-dir fuzz "$target" "fuzz/corpus/$target" -- -max_total_time="$seconds" -rss_limit_mb=4096
done
