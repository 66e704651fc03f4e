#!/usr/bin/env bash
# CI's proof that a starter is a real exercise: its grader builds (or this test
# could not run), runs to the end without crashing, and fails exactly the
# lab's checks tagged [starter-fails], no more and no fewer.
#   expect_starter_fails.sh GRADER NN
set -uo pipefail
grader="$1" lab="$2"
out=$("$grader" "[lab$lab]" 2>&1)
status=$?
echo "$out" | grep -E '^(PASS|FAIL|checks:)'
if ! echo "$out" | grep -qE '^checks: [0-9]+ passed, [0-9]+ failed$'; then
  echo "expect_starter_fails: the grader did not run to the end (status $status)" >&2
  echo "$out" | tail -40 >&2
  exit 1
fi
[ "$status" -ne 0 ] || { echo "expect_starter_fails: the starter passed every lab $lab check" >&2; exit 1; }
expected=$("$grader" --list-test-names-only "[lab$lab][starter-fails]" | grep -E '^[0-9]' | sort)
failed=$(echo "$out" | sed -n 's/^FAIL  //p' | sort)
if [ "$expected" != "$failed" ]; then
  echo "expect_starter_fails: the starter should fail exactly:" >&2
  echo "$expected" >&2
  echo "but failed:" >&2
  echo "$failed" >&2
  exit 1
fi
echo "lab $lab starter fails its $(echo "$expected" | wc -l) intended checks, and only those"
