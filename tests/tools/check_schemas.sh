#!/usr/bin/env bash
# The documents poolscope reads and writes match their published schemas:
# every shipped scenario and test scenario, and results written by the runner:
# one with events, one that skipped an optional pool, one that stalled.
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
# A Poisson phase: the theory block with predictions, an approximation and a design that departs.
"$runner" run mm-c --sim --pool java-fixed --pool fasthttp --pool java-grows --quiet --out "$work/theory.json"
$validate "$source_dir/docs/schemas/result.schema.json" "$work/result.json" "$work/skipped.json" "$work/stalled.json" "$work/theory.json"
echo "schemas: ok"
