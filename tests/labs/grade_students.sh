#!/usr/bin/env bash
# Grades the sample students of tests/labs/students/ as a teacher would, and
# checks the gradebook and the JSON results: the correct one scores full
# marks, the hanging one is TIMED OUT naming the thread that never exited,
# the racy one fails its simulated check (01.8, every time), and the broken ones are named with
# their problem and exit code while the others are still graded.
#   grade_students.sh WORK_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${1:?work dir}"
mkdir -p "$work"
export POOLSCOPE_LAB_CACHE="${POOLSCOPE_LAB_CACHE:-$work/cache}"
cd "$root/tests/labs/students"
"$root/scripts/lab" 01 --students correct hanging racy missing-file does-not-compile --repeat 20 \
  --csv "$work/gradebook.csv" --json "$work/results.json" | tee "$work/transcript.txt"
fail() { echo "grade_students: $*" >&2; exit 1; }
python3 - "$work" <<'PY' || exit 1
import csv, json, sys
work = sys.argv[1]
rows = {r["student"]: r for r in csv.DictReader(open(f"{work}/gradebook.csv"))}
assert set(rows) == {"correct", "hanging", "racy", "missing-file", "does-not-compile"}, rows
assert rows["correct"]["score"] == rows["correct"]["max_score"] != "0", rows["correct"]
assert rows["correct"]["exit_code"] == "0"
assert "TIMED OUT" in rows["hanging"]["failed"] and rows["hanging"]["exit_code"] == "1", rows["hanging"]
assert "01.8 FAIL" in rows["racy"]["failed"], rows["racy"]  # the simulated check: every time
assert rows["missing-file"]["exit_code"] == "4" and "registration.cpp" in rows["missing-file"]["problem"]
assert rows["does-not-compile"]["exit_code"] == "3", rows["does-not-compile"]
gs = json.load(open(f"{work}/results-correct.json"))
assert gs["score"] == gs["max_score"] and all({"name", "score", "max_score", "output"} <= set(t) for t in gs["tests"])
hang = json.load(open(f"{work}/results-hanging.json"))
assert any("never exited" in t["output"] and "lab01-" in t["output"] for t in hang["tests"]), "the stuck thread is named"
print("grade_students: the gradebook and the results are as expected")
PY
