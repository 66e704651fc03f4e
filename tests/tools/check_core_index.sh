#!/usr/bin/env bash
# pools/core/README.md names every file of pools/core/ (go/, sim/ and std23/
# included) with its one job: a file added without a line there, or a line
# left for a file that is gone, fails here.
# Usage: check_core_index.sh SOURCE_DIR
set -uo pipefail
cd "${1:?usage: check_core_index.sh SOURCE_DIR}/pools/core"
fail=0
# The names the index gives, in backquotes: `pool.{h,cpp}` is pool.h and pool.cpp.
named=$(grep -o '`[A-Za-z0-9_./{},]*`' README.md | tr -d '`' | while read -r n; do
  if [[ $n =~ ^(.*)\{(.*)\}$ ]]; then
    IFS=, read -ra exts <<<"${BASH_REMATCH[2]}"
    for e in "${exts[@]}"; do echo "${BASH_REMATCH[1]}$e"; done
  else
    echo "$n"
  fi
done | sort -u)
for f in $(find . -type f ! -name README.md | sed 's|^\./||' | sort); do
  # A table's file is named by its base name under its folder's heading.
  if ! grep -qxF "$(basename "$f")" <<<"$named"; then
    echo "pools/core/$f: not named in pools/core/README.md (give it a line with its one job)"
    fail=1
  fi
done
for n in $named; do
  [[ $n =~ ^[a-z0-9_]+(\.[a-z]+)?\.(h|cpp|js)$ ]] || continue  # a file name, not `sync.Pool`
  if [ -z "$(find . -type f -name "$n" -print -quit)" ]; then
    echo "pools/core/README.md names $n, which is not in pools/core/"
    fail=1
  fi
done
[ $fail = 0 ] && echo "pools/core/README.md names every file of pools/core/"
exit $fail
