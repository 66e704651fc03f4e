#!/usr/bin/env bash
# The GUI's headless smoke test: under Xvfb, poolscope-gui runs a two-pool
# scenario for 2 s of scenario time, writes a screenshot and exits; the
# checker then finds each pool's colour in the counter plots (the rectangle
# the GUI prints: lanes, swatches and the table header carry the colours
# too, and must not make a broken plot pass). Replays the run's result too,
# and scrubs it by dragging the ruler. Then the same scenario simulated,
# paced to the screen: twice with one seed, the same events; and a failing
# schedule from `poolscope explore`, opened at its failure; and the names'
# column made wide enough for a long pool name.
#   run.sh POOLSCOPE_GUI SCREENSHOT_CHECK SOURCE_DIR OUT_DIR POOLSCOPE
# Exit 77 (CTest: skipped) when Xvfb is not installed.
set -euo pipefail
gui=$1 check=$2 src=$3 out=$4 runner=$5

source "$src/tests/gui_smoke/display.sh"
start_display 1600x1000
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.json "$out"/*.log
headless=("$gui" --size 1600x1000)

# The plots' rectangle from the GUI's "plots at X0,Y0 X1,Y1 px" line, as the checker's --region.
region() {
  local r
  r=$(sed -n 's/^poolscope-gui: .*: plots at \([0-9]*\),\([0-9]*\) \([0-9]*\),\([0-9]*\) px$/\1,\2,\3,\4/p' "$1")
  if [[ -z $r ]]; then
    echo "FAIL: the GUI did not say where the plots are ($1)" >&2
    exit 1
  fi
  echo "$r"
}

echo "--- a live run, 2 s of scenario time"
"${headless[@]}" --scenario "$src/tests/gui_smoke/two_pools.json" --run-for 2s \
  --screenshot "$out/live.png" --save-result "$out/result.json" | tee "$out/live.log"
"$check" "$out/live.png" --designs fasthttp,spawn --region "$(region "$out/live.log")"

echo "--- its result, replayed to 1 s, with the colour-blind palette"
"${headless[@]}" --replay "$out/result.json" --at 1s --palette colour-blind --screenshot "$out/replay.png" |
  tee "$out/replay.log"
"$check" "$out/replay.png" --designs fasthttp,spawn --palette colour-blind --region "$(region "$out/replay.log")"

# Leftwards: a drag that also panned the view (the old bug) would keep the
# cursor under the mouse at the time it was pressed, 1.4 s.
echo "--- scrubbing: a drag along the ruler from 70% to 20% of a 0-2 s view puts the cursor at 0.4 s"
IFS=, read -r x0 y0 x1 _ <<<"$(region "$out/replay.log")"
ruler_y=$((y0 - 10)) from=$((x0 + (x1 - x0) * 70 / 100)) to=$((x0 + (x1 - x0) * 20 / 100))
"${headless[@]}" --replay "$out/result.json" --at 0.1s --view 0s:2s --drag "$from,$ruler_y:$to,$ruler_y" \
  --screenshot "$out/scrub.png" | tee "$out/scrub.log"
at=$(sed -n 's/^poolscope-gui: the replay cursor is at \([0-9.]*\) s of .*/\1/p' "$out/scrub.log")
if ! awk -v t="$at" 'BEGIN { exit !(t != "" && t > 0.38 && t < 0.42) }'; then
  echo "FAIL: after the drag the replay cursor is at '${at}' s, not 0.4 s: dragging the ruler does not scrub"
  exit 1
fi
echo "ok: the cursor followed the drag to $at s"

echo "--- a simulated live run, paced at 10x, 2 s of scenario time, then on to its end: twice, with one seed"
for k in 1 2; do
  "${headless[@]}" --scenario "$src/tests/gui_smoke/two_pools.json" --sim --sim-seed 7 --time-scale 10 --run-for 2s \
    --screenshot "$out/sim$k.png" --save-result "$out/sim$k.json" | tee "$out/sim$k.log"
done
"$check" "$out/sim1.png" --designs fasthttp,spawn --region "$(region "$out/sim1.log")"
if ! grep -q "^poolscope-gui: on screen: SIMULATED (seed 7, 2 CPUs, runtime)$" "$out/sim1.log"; then
  echo "FAIL: the simulated run's badge is not on screen"
  exit 1
fi
if ! grep -q "^poolscope-gui: on screen: REAL threads$" "$out/live.log"; then
  echo "FAIL: the real run's badge is not on screen"
  exit 1
fi
# The events, one a line in the result: the same seed, the same run, however it was paced.
if ! grep -q '"simulation"' "$out/sim1.json" || ! cmp -s <(grep '"kind"' "$out/sim1.json") <(grep '"kind"' "$out/sim2.json"); then
  echo "FAIL: two simulated runs of one seed in the GUI differ (or are not simulated)"
  exit 1
fi
echo "ok: two simulated runs of seed 7 gave the same $(grep -c '"kind"' "$out/sim1.json") events"

echo "--- the pool-name column widens for a long name (a fixed 110 px cut java-callerruns)"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); s["pools"][0]["name"]="fasthttp-callerruns"; json.dump(s, open(sys.argv[2], "w"))' \
  "$src/tests/gui_smoke/two_pools.json" "$out/long_name.json"
for f in "$src/tests/gui_smoke/two_pools.json" "$out/long_name.json"; do
  "${headless[@]}" --scenario "$f" --sim --sim-seed 7 --time-scale 10 --run-for 0.5s --no-side-panel \
    --screenshot "$out/names.png" | tee "$out/names.log"
  x0s+=("$(region "$out/names.log" | cut -d, -f1)")
done
if ((x0s[1] <= x0s[0])); then
  echo "FAIL: the plots start at x ${x0s[1]} with a long pool name, not right of ${x0s[0]} with short ones"
  exit 1
fi
echo "ok: the plots start at x ${x0s[1]} with a long pool name, ${x0s[0]} with short ones"

echo "--- a failing schedule from poolscope explore opens at its failure"
"$runner" explore "$src/tests/data/stall.json" --schedules 1 --out "$out/explore.json" >"$out/explore.txt" || true
"${headless[@]}" "$out/explore.json" --screenshot "$out/explore.png" | tee "$out/explore.log"
want=$(python3 -c 'import json,sys; print("%.6f" % json.load(open(sys.argv[1]))["explore"]["at_s"])' "$out/explore.json")
at=$(sed -n 's/^poolscope-gui: the replay cursor is at \([0-9.]*\) s of .*/\1/p' "$out/explore.log")
if [[ -z $want || $at != "$want" ]] || ! grep -q "^poolscope-gui: schedule 1 failed at" "$out/explore.log"; then
  echo "FAIL: the failing schedule opened with the cursor at '$at' s, not at its failure, $want s"
  exit 1
fi
echo "ok: the failing schedule opened at its failure, $at s"
