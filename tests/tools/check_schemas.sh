#!/usr/bin/env bash
# The documents poolscope reads and writes match their published schemas:
# every shipped scenario and test scenario, and results written by the runner:
# one with events, one that skipped an optional pool, one that stalled, one
# simulated, and the failing schedule `poolscope explore --out` writes; and
# sweeps: a simulated one with two params, one whose points stalled, and the
# shipped lesson sweeps (scenarios/library/sweeps/).
set -euo pipefail
runner=$1 source_dir=$2 work=$3
validate="/usr/bin/python3 $source_dir/tests/tools/validate_json.py"
mkdir -p "$work"
shopt -s nullglob
$validate "$source_dir/docs/schemas/scenario.schema.json" "$source_dir"/scenarios/library/*.json "$source_dir"/tests/data/*.json
"$runner" run "$source_dir/tests/data/smoke.json" --events --quiet --out "$work/result.json"
"$runner" run "$source_dir/tests/data/choose.json" --quiet --out "$work/skipped.json" 2>/dev/null
rc=0
"$runner" run "$source_dir/tests/data/stall.json" --quiet --out "$work/stalled.json" 2>/dev/null || rc=$?
if [ "$rc" -ne 1 ]; then
  echo "schemas: the stalling scenario exited $rc, expected 1" >&2
  exit 1
fi
# A Poisson phase: the theory block, and findings (java-grows churns); with predictions, an approximation and a design that departs.
"$runner" run mm-c --sim --pool java-fixed --pool fasthttp --pool java-grows --quiet --out "$work/theory.json"
# Simulated: run.simulation; and the failing schedule explore writes, with its "explore" block.
"$runner" run "$source_dir/tests/data/smoke.json" --sim --events --quiet --out "$work/simulated.json"
rc=0
"$runner" explore "$source_dir/tests/data/stall.json" --schedules 2 --out "$work/explore.json" >/dev/null || rc=$?
if [ "$rc" -ne 1 ] || ! grep -q '"explore"' "$work/explore.json"; then
  echo "schemas: explore on the stalling scenario exited $rc (expected 1) or wrote no explore block" >&2
  exit 1
fi
$validate "$source_dir/docs/schemas/result.schema.json" "$work/result.json" "$work/skipped.json" "$work/stalled.json" \
  "$work/simulated.json" "$work/explore.json" "$work/theory.json"
rc=0
"$runner" sweep periodic-bursts --param ants.ExpiryDuration=1s,6s --param java.keepAliveTime=1s,3s --quiet \
  --json "$work/sweep.json"
"$runner" sweep "$source_dir/tests/data/stall.json" --param java-1.keepAliveTime=1s --quiet \
  --json "$work/sweep-stalled.json" 2>/dev/null || rc=$?
if [ "$rc" -ne 1 ]; then
  echo "schemas: the stalling sweep exited $rc, expected 1" >&2
  exit 1
fi
$validate "$source_dir/docs/schemas/sweep.schema.json" "$work/sweep.json" "$work/sweep-stalled.json" \
  "$source_dir"/scenarios/library/sweeps/*.json
echo "schemas: ok"
