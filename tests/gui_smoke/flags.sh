#!/usr/bin/env bash
# poolscope-gui refuses bad flags and files with a message naming the flag
# (or the file) and what was expected, and exit code 2 (issue 26, items 7 and
# 10): never an abort inside GLFW, an X error or a bare "stod".
#   flags.sh POOLSCOPE_GUI SOURCE_DIR OUT_DIR
# The flag checks need no display; the file checks open a window, under
# Xvfb, and are skipped (the script still passes) where Xvfb is missing.
set -uo pipefail
gui=$1 src=$2 out=$3
mkdir -p "$out"
scenario="$src/tests/gui_smoke/two_pools.json"
failed=0

source "$src/tests/gui_smoke/expect_refused.sh"

shot=(--screenshot "$out/never.png" "$scenario")
expect_refused "--size: expected WIDTHxHEIGHT" "$gui" --size -5x-5 "${shot[@]}"
expect_refused "--size: expected WIDTHxHEIGHT" "$gui" --size axb "${shot[@]}"
expect_refused "--size: expected WIDTHxHEIGHT" "$gui" --size 100000x100000 "${shot[@]}"
expect_refused "--size: expected WIDTHxHEIGHT" "$gui" --size 1600x "${shot[@]}"
expect_refused "--size: expected WIDTHxHEIGHT" "$gui" --size 1600.5x900 "${shot[@]}"
expect_refused "--view: expected FROM:TO with FROM before TO" "$gui" --view 5s:1s "${shot[@]}"
expect_refused "--view: expected FROM:TO with FROM before TO" "$gui" --view 1s:1s "${shot[@]}"
expect_refused "--ui-scale: expected a scale from 0.5 to 4" "$gui" --ui-scale 0 "${shot[@]}"
expect_refused "--ui-scale: expected a scale from 0.5 to 4" "$gui" --ui-scale 50 "${shot[@]}"
expect_refused "--hover: expected X,Y in px" "$gui" --hover a,b "${shot[@]}"
expect_refused "--drag: expected X0,Y0:X1,Y1 in px" "$gui" --drag 1,2 "${shot[@]}"
expect_refused "--timeout: expected a number of seconds above 0" "$gui" --timeout 0 "${shot[@]}"
expect_refused "--lane-height: expected a height" "$gui" --lane-height -3 "${shot[@]}"
expect_refused "--sim --real: expected one of them: --sim runs the simulation" "$gui" --sim --real "${shot[@]}"
expect_refused "--sim-seed \"-3\": expected an integer in [0, 18446744073709551615]" "$gui" --sim-seed -3 "${shot[@]}"
expect_refused "--time-scale \"nan\": expected a number in [0.001, 1000]" "$gui" --time-scale nan "${shot[@]}"
expect_refused "--time-scale \"\": expected a number in [0.001, 1000]" "$gui" --time-scale "" "${shot[@]}"

if command -v Xvfb >/dev/null; then
  source "$src/tests/gui_smoke/display.sh"
  start_display 1024x768
  x=("$gui" --size 800x600)
  # --replay means a result: a scenario given to it is refused, not run live.
  expect_refused "is not a result (its top-level \"format\" is not \"poolscope-result/1\"): --replay replays a result" "${x[@]}" --replay "$scenario" --screenshot "$out/never.png"
  expect_refused "--cpus 0: expected a whole number of CPUs" "${x[@]}" --cpus 0 "${shot[@]}"
  expect_refused "--costs threads: unknown cost preset" "${x[@]}" --costs threads "${shot[@]}"
  # A valid result whose "format" comes after 4 KB is still a result (and replays).
  "${x[@]}" --scenario "$scenario" --run-for 1s --save-result "$out/flags.result.json" >/dev/null
  # A result replays as it ran: how to run it cannot be changed.
  expect_refused "is a result (replays as it ran)" "${x[@]}" --sim "$out/flags.result.json" --screenshot "$out/never.png"
  {
    printf '{"padding": "%s",' "$(head -c 5000 /dev/zero | tr '\0' x)"
    tail -c +2 "$out/flags.result.json"
  } >"$out/late-format.result.json"
  if "${x[@]}" "$out/late-format.result.json" --at 0.5s --screenshot "$out/late-format.png" | grep -q "replay cursor"; then
    echo "ok: a result whose format key comes after 4 KB replays"
  else
    echo "FAIL: a result whose format key comes after 4 KB was not replayed"
    failed=1
  fi
else
  echo "(the file checks are skipped: Xvfb is not installed)"
fi
exit $failed
