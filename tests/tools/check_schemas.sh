#!/usr/bin/env bash
# The documents poolscope reads and writes match their published schemas:
# every shipped scenario, and a result written by the runner (with events).
set -euo pipefail
runner=$1 source_dir=$2 work=$3
validate="/usr/bin/python3 $source_dir/tests/tools/validate_json.py"
mkdir -p "$work"
shopt -s nullglob
$validate "$source_dir/docs/schemas/scenario.schema.json" "$source_dir"/scenarios/library/*.json "$source_dir"/tests/data/*.json
"$runner" run "$source_dir/tests/data/smoke.json" --events --quiet --out "$work/result.json"
$validate "$source_dir/docs/schemas/result.schema.json" "$work/result.json"
echo "schemas: ok"
