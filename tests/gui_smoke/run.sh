#!/usr/bin/env bash
# The GUI's headless smoke test: under Xvfb, poolscope-gui runs a two-pool
# scenario for 2 s of scenario time, writes a screenshot and exits; the
# checker then finds each pool's colour in it. Replays the run's result too.
#   run.sh POOLSCOPE_GUI SCREENSHOT_CHECK SOURCE_DIR OUT_DIR
# Exit 77 (CTest: skipped) when xvfb-run is not installed.
set -euo pipefail
gui=$1 check=$2 src=$3 out=$4

if ! command -v xvfb-run >/dev/null; then
  echo "SKIPPED: xvfb-run is not installed (scripts/install-deps installs xvfb)"
  exit 77
fi
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.json
headless=(xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" --size 1600x1000)

echo "--- a live run, 2 s of scenario time"
"${headless[@]}" --scenario "$src/tests/gui_smoke/two_pools.json" --run-for 2s \
  --screenshot "$out/live.png" --save-result "$out/result.json"
"$check" "$out/live.png" --pools 2

echo "--- its result, replayed to 1 s, with the colour-blind palette"
"${headless[@]}" --replay "$out/result.json" --at 1s --palette colour-blind --screenshot "$out/replay.png"
"$check" "$out/replay.png" --pools 2 --palette colour-blind
