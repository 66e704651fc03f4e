#!/usr/bin/env bash
# Every shipped lesson passes `poolscope lesson check` (each step run in the
# simulation, every answer computed, every try holding with its suggestion
# and failing without), so a change to a design that changes an answer fails
# here, not in front of a class. The lessons, their answer keys, a student's
# answers and their grade (Gradescope and PrairieLearn) match their schemas,
# and the grade runs the lesson again instead of trusting the document.
#   check_lessons.sh POOLSCOPE SOURCE_DIR WORK_DIR
set -euo pipefail
runner=$1 source_dir=$2 work=$3
validate="/usr/bin/python3 -W ignore::DeprecationWarning $source_dir/tests/tools/validate_json.py"
schemas=$source_dir/docs/schemas
mkdir -p "$work"
fail() { echo "lessons: $*" >&2; exit 1; }

$validate "$schemas/lesson.schema.json" "$source_dir"/scenarios/lessons/*.json
"$runner" lesson check --json "$work/key.json" >"$work/key.txt" 2>&1 || fail "lesson check failed: $(cat "$work/key.txt")"
$validate "$schemas/lesson-key.schema.json" "$work/key.json"
shipped=$(ls "$source_dir"/scenarios/lessons/*.json | wc -l)
checked=$(grep -c '"format": "poolscope-lesson-key/1"' "$work/key.json")
[[ $checked -eq $shipped ]] || fail "$shipped lessons shipped, $checked checked"

# A student: step 2 right (50 workers, within 5), step 3 wrong, step 5's try set.
"$runner" lesson answer after-the-burst --student alice --step 2=47 --step 3=fasthttp --step 5=1s \
  --json "$work/answers.json"
$validate "$schemas/lesson-answers.schema.json" "$work/answers.json"
# Tampered: step 3 claims the run said fasthttp and the answer was within.
python3 - "$work/answers.json" "$work/tampered.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for a in d["answers"]:
    if a["step"] == 3:
        a["run_value"], a["within"] = "fasthttp", True
json.dump(d, open(sys.argv[2], "w"))
PY
for format in gradescope prairielearn; do
  "$runner" lesson grade "$work/tampered.json" --format $format --json "$work/grade-$format.json"
  $validate "$schemas/lab-results.schema.json" "$work/grade-$format.json"
done
python3 - "$work/grade-gradescope.json" "$work/grade-prairielearn.json" <<'PY'
import json, sys
g, p = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
# after-the-burst: 4 questions and 1 try; right: step 2 and the try.
assert (g["score"], g["max_score"]) == (2, 5), g
assert abs(p["score"] - 0.4) < 1e-9, p
byname = {t["name"].split(":")[0]: t for t in g["tests"]}
assert byname["step 3"]["score"] == 0 and "the run says ants" in byname["step 3"]["output"], byname["step 3"]
assert byname["step 4"]["output"].startswith("NOT ANSWERED"), byname["step 4"]
PY
echo "lessons: ok ($shipped lessons checked; answers graded in both formats)"
