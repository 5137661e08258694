#!/usr/bin/env bash
# Soak run: `crowdlab run SCENE --ticks TICKS --record-every K -o OUT`, printing the resident memory
# (VmRSS) and its peak so far (VmHWM) every 1,000 ticks, then every recorded value checked for NaN
# through a CSV export. The tick is read from the progress bar, so the run is given a terminal.
# Usage: scripts/soak.sh CROWDLAB SCENE TICKS K OUT.crowdrec
set -euo pipefail
crowdlab=$1 scene=$2 ticks=$3 every=$4 out=$5
log=$(mktemp)
start=$(date +%s)
script -qfc "exec $crowdlab run $scene --ticks $ticks --record-every $every -o $out" "$log" >/dev/null &
runner=$!
sleep 1
pid=$(pgrep -P "$runner")
echo "tick rss_mib peak_rss_mib elapsed_s"
next=1000
while kill -0 "$pid" 2>/dev/null; do
  tick=$(tr '\r' '\n' <"$log" | grep -oE "[0-9]+/$ticks" | tail -n 1 | cut -d/ -f1 || true)
  if [[ -n "$tick" && "$tick" -ge "$next" ]]; then
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    echo "$tick $((rss / 1024)) $((peak / 1024)) $(($(date +%s) - start))"
    next=$(((tick / 1000 + 1) * 1000))
  fi
  sleep 0.2
done
wait "$runner"
tr '\r' '\n' <"$log" | grep -E "ticks,|error" | tail -n 2
"$crowdlab" export "$out" --csv "$out.csv" >/dev/null
echo "rows: $(($(wc -l <"$out.csv") - 1)), NaN or inf values: $(grep -ciE 'nan|inf' "$out.csv" || true)"
rm -f "$log" "$out.csv"
