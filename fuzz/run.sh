#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 60) each, seeded from the bundled scenes, the
# importer test files and a fresh recording. Needs `cargo install cargo-fuzz` and a nightly
# toolchain; `-s none` builds without sanitizers (much faster to build; Rust code is memory-safe,
# and panics, aborts, timeouts and the RSS limit are still caught).
# Usage: fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
mkdir -p fuzz/corpus/scene_ron fuzz/corpus/crowdrec fuzz/corpus/steersuite fuzz/corpus/indalgo
cp scenes/*.ron assets/default_scene.ron fuzz/corpus/scene_ron/
cp tests/data/steersuite/*.xml fuzz/corpus/steersuite/
cp tests/data/indalgo/*.iascene fuzz/corpus/indalgo/
cargo run --quiet --no-default-features -- run scenes/two_agents_crossing.ron --ticks 70 -o fuzz/corpus/crowdrec/two_agents.crowdrec >/dev/null
for target in $(cargo +nightly fuzz list --fuzz-dir fuzz); do
  echo "== $target for ${seconds}s"
  cargo +nightly fuzz run -s none --fuzz-dir fuzz "$target" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=20
done
