#!/usr/bin/env bash
# Being the scheduler on the desktop, under Xvfb (issue 49): a small
# scenario stepped by decision waits at its first decision; a pick given as
# --sched moves it to the next, the same as the runner's policy would not;
# a pick that does not fit says at which decision and exits 2. Screenshots
# of a decision are kept in OUT_DIR for a look.
#   scheduler.sh POOLSCOPE_GUI SOURCE_DIR OUT_DIR
# Exit 77 (CTest: skipped) when Xvfb is not installed.
set -euo pipefail
gui=$1 src=$2 out=$3

source "$src/tests/gui_smoke/display.sh"
start_display 1280x800
mkdir -p "$out"
rm -rf "${out:?}"/*
export XDG_DATA_HOME="$out/data"  # the challenges' progress, kept here, not in the user's
headless=("$gui" --size 1280x800)
small="$src/tests/gui_smoke/sched_small.json"

# The line the GUI prints at the decision it waits at, its choices "N NAME (thread T) at WHERE".
decision() { sed -n 's/^poolscope-gui: scheduler: decision \([0-9]*\) after \([0-9]*\) picks: \(.*\)$/\1 \2 \3/p' "$1"; }
fail() { echo "FAIL: $*"; exit 1; }

echo "--- stepped from the start: the first decision waits"
"${headless[@]}" --scenario "$small" --sched "" --screenshot "$out/decision-1.png" | tee "$out/first.log"
read -r n picks choices <<<"$(decision "$out/first.log")"
[[ $picks == 0 && -n $choices ]] || fail "no decision waited at the start ($out/first.log)"
# The last choice's thread: picking it is a student's choice, not necessarily the policy's.
last=$(grep -o '(thread [0-9]*)' <<<"$choices" | tail -1 | tr -dc 0-9)
echo "ok: decision $n waits, its choices: $choices"

echo "--- --sched $last: that thread picked, the next decision waits"
"${headless[@]}" --scenario "$small" --sched "$last" --screenshot "$out/decision-2.png" | tee "$out/second.log"
read -r n2 picks2 _ <<<"$(decision "$out/second.log")"
[[ $picks2 -ge 1 && $n2 -gt $n ]] || fail "the pick did not move the run to a later decision ($out/second.log)"
grep -q "^poolscope-gui: scheduler: schedule $last\(\.\|$\)" "$out/second.log" || fail "the schedule does not start with $last"
echo "ok: decision $n2 waits after the pick"

echo "--- a pick of a thread that is not runnable: the decision named, exit 2"
set +e
"${headless[@]}" --scenario "$small" --sched 999 --screenshot "$out/bad.png" >"$out/bad.log" 2>&1
status=$?
set -e
[[ $status == 2 ]] || fail "a pick that does not fit exited $status, not 2 ($out/bad.log)"
grep -q "pick 1 (thread 999) does not fit the run: at decision" "$out/bad.log" || fail "the message does not name the decision"
echo "ok: $(grep -o 'pick 1 (thread 999) does not fit the run: at decision [0-9]*' "$out/bad.log" | head -1)"

echo "--- a bad --sched is refused, naming the pick"
set +e
"${headless[@]}" --scenario "$small" --sched "3.y" --screenshot "$out/bad2.png" >"$out/bad2.log" 2>&1
status=$?
set -e
[[ $status == 2 ]] && grep -q -- "--sched: pick 2 ('y'): expected a thread id" "$out/bad2.log" || fail "--sched 3.y: exit $status, $(cat "$out/bad2.log")"
echo "ok: $(head -1 "$out/bad2.log")"

echo "--- a challenge opened by name, its stored solution's picks replayed: no pick refused, the progress kept on a win"
picks=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["solution"]["picks"])' \
  "$src/scenarios/challenges/lab01-lost-wakeup.json")
"${headless[@]}" --challenge lab01-lost-wakeup --sched "$picks" --screenshot "$out/challenge.png" | tee "$out/challenge.log"
grep -q "^poolscope-gui: challenge lab01-lost-wakeup: " "$out/challenge.log" || fail "the challenge is not on screen"
grep -q "does not fit the run" "$out/challenge.log" && fail "a pick of the stored solution was refused"
if grep -q "^poolscope-gui: challenge lab01-lost-wakeup: won: " "$out/challenge.log"; then
  grep -q '"lab01-lost-wakeup"' "$XDG_DATA_HOME/poolscope/challenges.json" || fail "the win was not kept"
  echo "ok: won, and kept in $XDG_DATA_HOME/poolscope/challenges.json"
else
  echo "ok: the solution's $(grep -o '^poolscope-gui: scheduler: decision [0-9]*' "$out/challenge.log") waits (the policy takes the rest)"
fi

echo "--- an unknown challenge is refused, exit 2"
set +e
"${headless[@]}" --challenge no-such-challenge --screenshot "$out/none.png" >"$out/none.log" 2>&1
status=$?
set -e
[[ $status == 2 ]] && grep -q "no-such-challenge" "$out/none.log" || fail "an unknown challenge: exit $status, $(cat "$out/none.log")"
echo "ok: $(head -1 "$out/none.log")"
