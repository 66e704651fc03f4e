#!/usr/bin/env bash
# poolscope-gui opens every file of the bad-input corpus (tests/data/bad/,
# its messages in expected.tsv) as if dropped onto the window, one after
# another in one process: each is refused in a dialog with the runner's
# message (the file, the JSON path, what was expected), and the window stays
# up, showing what it showed before, to its screenshot (issue 26).
#   corpus.sh POOLSCOPE_GUI SOURCE_DIR OUT_DIR
set -uo pipefail
gui=$1 src=$2 out=$3
bad="$src/tests/data/bad"
mkdir -p "$out"
source "$src/tests/gui_smoke/display.sh"
start_display 1280x720

# Each file, and what its dialog must say: "FILE: PATH: " and the expectation.
files=() wants=()
# (Tabs read as a non-blank separator: IFS=$'\t' would merge an empty JSON path with its neighbours.)
while IFS=$'\x1f' read -r kind file path expect; do
  [[ $kind == \#* || -z $kind ]] && continue
  # Lessons are opened from the Lesson menu, not as a dropped scenario or result (issue 48).
  [[ $kind == lesson ]] && continue
  files+=("$bad/$file")
  wants+=("$file: ${path:+$path: }"$'\t'"$expect")
done < <(tr '\t' '\037' <"$bad/expected.tsv")
# What is not a file: a directory and a FIFO (which must not block the GUI).
mkdir -p "$out/a-directory"
rm -f "$out/a.fifo" && mkfifo "$out/a.fifo"
files+=("$out/a-directory" "$out/a.fifo")
wants+=("a-directory: is a directory"$'\t' "a.fifo: is not a regular file"$'\t')

drops=()
for f in "${files[@]}"; do drops+=(--drop "$f"); done
shot="$out/corpus.png"
rm -f "$shot"
said=$("$gui" --size 1280x720 --screenshot "$shot" "${drops[@]}" "$src/tests/gui_smoke/two_pools.json" 2>"$out/stderr")
rc=$?
failed=0
if [[ $rc -ne 0 || ! -s $shot ]]; then
  echo "FAIL: the GUI did not stay up to its screenshot: exit $rc: $(head -c 2000 "$out/stderr")"
  failed=1
fi
mapfile -t dialogs < <(grep -a '^poolscope-gui: dialog: ' <<<"$said" | sed 's/^poolscope-gui: dialog: //')
if [[ ${#dialogs[@]} -ne ${#files[@]} ]]; then
  echo "FAIL: ${#files[@]} files dropped, ${#dialogs[@]} dialogs"
  failed=1
fi
for i in "${!files[@]}"; do
  where=${wants[$i]%%$'\t'*} expect=${wants[$i]#*$'\t'}
  got=${dialogs[$i]:-"(no dialog)"}
  if [[ $got != *"$where"* || $got != *"$expect"* ]]; then
    echo "FAIL: ${files[$i]}: the dialog said: $got (wanted: $where ... $expect)"
    failed=1
  fi
done
[[ $failed -eq 0 ]] && echo "ok: ${#files[@]} bad files, each refused in a dialog with its message; the window stayed up"
exit $failed
