#!/usr/bin/env bash
# The GUI opens a sweep (docs/visualizer.md, "A sweep"): under Xvfb,
# poolscope-gui shows the shipped lesson sweep headless and says what it drew,
# one multiple per grid point and one point per grid point on the metric
# plot; the checker finds ants' colour in the multiples' rectangle. A broken
# sweep file is refused naming the file, the JSON path and what was
# expected, exit 2, as are options that only mean something for a run.
#   sweep.sh POOLSCOPE_GUI SCREENSHOT_CHECK SOURCE_DIR OUT_DIR
# Exit 77 (CTest: skipped) when Xvfb is not installed.
set -euo pipefail
gui=$1 check=$2 src=$3 out=$4

source "$src/tests/gui_smoke/display.sh"
start_display 1600x1000
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.json "$out"/*.log
headless=("$gui" --size 1600x1000)
sweep=$src/scenarios/library/sweeps/periodic-bursts-expiry.json
failed=0

echo "--- the shipped lesson sweep: nine points of ants.ExpiryDuration"
"${headless[@]}" "$sweep" --screenshot "$out/sweep.png" | tee "$out/sweep.log"
want="9 multiples of workers (ants), 9 points of spawned against ants.ExpiryDuration"
if ! grep -qF "$want" "$out/sweep.log"; then
  echo "FAIL: the sweep view did not draw: $want"
  failed=1
fi
region=$(sed -n 's/^poolscope-gui: sweep .*; multiples at \([0-9]*\),\([0-9]*\) \([0-9]*\),\([0-9]*\) px$/\1,\2,\3,\4/p' \
  "$out/sweep.log")
if [[ -z $region ]]; then
  echo "FAIL: the GUI did not say where the multiples are"
  exit 1
fi
"$check" "$out/sweep.png" --designs ants --region "$region" || failed=1

source "$src/tests/gui_smoke/expect_refused.sh"

echo "--- a sweep whose third point has one busy bucket too many"
python3 - "$sweep" "$out/bad.sweep.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["points"][2]["pools"][0]["series"]["busy"].append(0)
json.dump(doc, open(sys.argv[2], "w"))
EOF
set +e
expect_refused "$out/bad.sweep.json: /points/2/pools/0/series/busy: expected one value per bucket of \"t\"" \
  "${headless[@]}" "$out/bad.sweep.json" --screenshot "$out/never.png"
expect_refused "$out/bad.sweep.json: /points/2/pools/0/series/busy" "${headless[@]}" "$out/bad.sweep.json"
expect_refused "is a sweep (its points have run)" "${headless[@]}" "$sweep" --at 1s --screenshot "$out/never.png"
expect_refused "--counter: busiest not in {workers" "${headless[@]}" "$sweep" --counter busiest --screenshot "$out/never.png"
expect_refused "--counter chooses what a sweep's small multiples show, but no sweep was given" \
  "${headless[@]}" "$src/tests/gui_smoke/two_pools.json" --counter spawned --screenshot "$out/never.png"

echo "--- --counter spawned: the multiples count the workers started in each bucket"
"${headless[@]}" "$sweep" --counter spawned --screenshot "$out/spawned.png" | tee "$out/spawned.log"
if ! grep -qF "9 multiples of spawned (ants)" "$out/spawned.log"; then
  echo "FAIL: --counter spawned did not choose the multiples' counter"
  failed=1
fi
exit $failed
