#!/usr/bin/env bash
# The GUI on a laptop's screen (issue 39): at 1024x640, a replay of
# phpfpm-ramp, three pools of one design and ants, in both palettes: each
# pool's colour is drawn in the counter plots and in the comparison table's
# names, every two pools' colours are apart (the checker's --distinct), the
# table shows every name whole (broken after a hyphen, never cut) and the
# toolbar ends inside the window. Then the toolbars of live runs, real and
# simulated (the most buttons), at 1024x640 and 1280x720.
#   laptop.sh POOLSCOPE_GUI SCREENSHOT_CHECK SOURCE_DIR OUT_DIR POOLSCOPE
# Exit 77 (CTest: skipped) when Xvfb is not installed.
set -euo pipefail
gui=$1 check=$2 src=$3 out=$4 runner=$5

source "$src/tests/gui_smoke/display.sh"
start_display 1600x1000
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.json "$out"/*.log

# X0,Y0,X1,Y1 from the line of the GUI's log that matches WHAT before " at X0,Y0 X1,Y1 px".
#   region LOG WHAT (a sed regular expression: '.*: plots', 'the table names the pools .*')
region() {
  local r
  r=$(sed -n "s#^poolscope-gui: $2 at \([0-9]*\),\([0-9]*\) \([0-9]*\),\([0-9]*\) px\$#\1,\2,\3,\4#p" "$1")
  if [[ -z $r ]]; then
    echo "FAIL: the GUI did not say where $2 is ($1)" >&2
    exit 1
  fi
  echo "$r"
}

# The toolbar's right end inside the picture's width.
toolbar_inside() {
  local line
  line=$(grep '^poolscope-gui: the toolbar ends at' "$1" || true)
  if ! awk -v l="$line" 'BEGIN { n = split(l, w, " "); exit !(n >= 9 && w[6] + 0 > 0 && w[6] + 0 <= w[9] + 0) }'; then
    echo "FAIL: the toolbar runs past the window: '$line' ($1)"
    exit 1
  fi
  echo "ok: ${line#poolscope-gui: }"
}

"$runner" run phpfpm-ramp --sim --events --out "$out/ramp.json" >"$out/ramp.txt"
designs=phpfpm,phpfpm,phpfpm,ants
for palette in standard colour-blind; do
  echo "--- phpfpm-ramp replayed at 1024x640, $palette palette"
  args=(--size 1024x640 --replay "$out/ramp.json" --at 60s --tab compare --screenshot "$out/ramp-$palette.png")
  [[ $palette == colour-blind ]] && args+=(--palette colour-blind)
  "$gui" "${args[@]}" | tee "$out/ramp-$palette.log"
  check_args=(--designs "$designs" --distinct)
  [[ $palette == colour-blind ]] && check_args+=(--palette colour-blind)
  # Lines in a 320x220-px plot area, the three phpfpm apart by 60 s (ondemand
  # reaping, dynamic shrunk): about 900 pixels a pool.
  "$check" "$out/ramp-$palette.png" "${check_args[@]}" --min-pixels 300 \
    --region "$(region "$out/ramp-$palette.log" '.*: plots')"
  # The names in the pools' colours: text, a few fully covered pixels each.
  "$check" "$out/ramp-$palette.png" "${check_args[@]}" --min-pixels 4 \
    --region "$(region "$out/ramp-$palette.log" 'the table names the pools .*')"
  names=$(sed -n 's/^poolscope-gui: the table names the pools \(.*\), at [0-9,]* [0-9,]* px$/\1/p' "$out/ramp-$palette.log")
  if [[ ${names//|/} != "phpfpm-dynamic, phpfpm-ondemand, phpfpm-static, ants" || $names == *"runs past"* ]]; then
    echo "FAIL: the table does not show every pool's name whole: '$names'"
    exit 1
  fi
  echo "ok: the table names the pools whole: $names"
  toolbar_inside "$out/ramp-$palette.log"
done

for size in 1024x640 1280x720; do
  echo "--- live runs' toolbars at $size: real threads, then simulated"
  "$gui" --size "$size" --scenario "$src/tests/gui_smoke/two_pools.json" --run-for 0.2s \
    --screenshot "$out/real-$size.png" | tee "$out/real-$size.log"
  toolbar_inside "$out/real-$size.log"
  "$gui" --size "$size" --scenario phpfpm-ramp --sim --sim-seed 7 --time-scale 20 --run-for 6s \
    --screenshot "$out/sim-$size.png" | tee "$out/sim-$size.log"
  toolbar_inside "$out/sim-$size.log"
done
