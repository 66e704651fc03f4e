#!/usr/bin/env bash
# The GUI's headless smoke test: under Xvfb, poolscope-gui runs a two-pool
# scenario for 2 s of scenario time, writes a screenshot and exits; the
# checker then finds each pool's colour in the counter plots (the rectangle
# the GUI prints: lanes, swatches and the table header carry the colours
# too, and must not make a broken plot pass). Replays the run's result too,
# and scrubs it by dragging the ruler.
#   run.sh POOLSCOPE_GUI SCREENSHOT_CHECK SOURCE_DIR OUT_DIR
# Exit 77 (CTest: skipped) when xvfb-run is not installed.
set -euo pipefail
gui=$1 check=$2 src=$3 out=$4

if ! command -v xvfb-run >/dev/null; then
  echo "SKIPPED: xvfb-run is not installed (scripts/install-deps installs xvfb)"
  exit 77
fi
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.json "$out"/*.log
headless=(xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" --size 1600x1000)

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
