#!/usr/bin/env bash
# An installation works with the source tree out of the picture: `cmake
# --install` into a scratch DESTDIR (no root needed), then the installed
# programs run from an unrelated working directory with POOLSCOPE_SCENARIOS
# unset, read their scenarios from inside the installation (never from the
# source tree compiled into them), and still do once the whole installation
# has been moved. The desktop entry must pass desktop-file-validate where
# that is installed (desktop-file-utils).
#   run.sh CMAKE BUILD_DIR OUT_DIR GUI(ON|OFF) MAN_PAGES(comma-separated, may be empty)
set -euo pipefail
cmake=$1 build=$2 out=$3 gui=$4 man=$5

fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { [ -e "$1" ] || fail "expected $1 in the installation"; }

rm -rf "$out"
mkdir -p "$out/elsewhere"
root=$out/root
DESTDIR=$root "$cmake" --install "$build" --prefix /usr >"$out/install.log" || fail "cmake --install failed: $out/install.log"
p=$root/usr
unset POOLSCOPE_SCENARIOS
cd "$out/elsewhere"

echo "--- the layout (docs/install.md)"
for f in bin/poolscope share/poolscope/scenarios/library/tour.json share/poolscope/labs/scenarios/01-fixed.json \
         share/poolscope/docs/schemas/scenario.schema.json share/poolscope/docs/pools/ants.md \
         share/poolscope/assets/icons/poolscope-48.png share/doc/poolscope/README.md \
         share/doc/poolscope/docs/architecture.md share/doc/poolscope/assets/screenshots/overview.png; do
  expect "$p/$f"
done
# Every link stays inside the installation, or moving it would break them.
while IFS= read -r link; do
  case "$(readlink -f "$link")" in "$root"/*) ;; *) fail "$link points out of the installation: $(readlink "$link")" ;; esac
done < <(find "$root" -type l)

# The installed runner lists, then runs, the scenarios under PREFIX.
check_runner() {
  local prefix=$1 runner=$1/bin/poolscope
  "$runner" --version | grep -Eq '^poolscope [0-9]+\.[0-9]+\.[0-9]+ \(commit [^ )]+\)$' ||
    fail "'poolscope --version' said '$("$runner" --version)'; expected 'poolscope X.Y.Z (commit HASH)'"
  "$runner" scenarios --json >scenarios.json
  grep -q '"name": "tour"' scenarios.json || fail "'poolscope scenarios' from $prefix does not list tour"
  local files outside
  files=$(sed -n 's/^ *"file": "\(.*\)",\{0,1\}$/\1/p' scenarios.json)
  [ -n "$files" ] || fail "'poolscope scenarios --json' gave no \"file\" fields"
  outside=$(grep -v "^$prefix/share/poolscope/scenarios/library/" <<<"$files" || true)
  [ -z "$outside" ] || fail "the installed runner read scenarios outside its installation $prefix: $outside"
  "$runner" run tour --time-scale 20 --quiet --out tour.json || fail "'poolscope run tour' from $prefix failed"
  grep -q '"poolscope_version"' tour.json || fail "'poolscope run tour --out' wrote no result"
  "$runner" validate labs/scenarios/02-reaping.json >/dev/null 2>&1 ||
    fail "the installed runner does not find labs/scenarios/02-reaping.json in $prefix"
}

echo "--- the installed runner, from $PWD"
check_runner "$p"
echo "ok: lists and runs the installed scenarios"

if [ "$gui" = ON ]; then
  echo "--- the GUI and its desktop entry"
  expect "$p/bin/poolscope-gui"
  expect "$p/share/icons/hicolor/scalable/apps/poolscope.svg"
  expect "$p/share/icons/hicolor/48x48/apps/poolscope.png"
  desktop=$p/share/applications/poolscope-gui.desktop
  expect "$desktop"
  "$p/bin/poolscope-gui" --version | grep -Eq '^poolscope-gui [0-9.]+ \(commit [^ )]+\)$' ||
    fail "'poolscope-gui --version' said '$("$p/bin/poolscope-gui" --version)'"
  grep -q '^Exec=poolscope-gui' "$desktop" || fail "$desktop does not start poolscope-gui"
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$desktop" || fail "desktop-file-validate rejects $desktop"
    echo "ok: desktop-file-validate accepts the entry"
  else
    echo "note: desktop-file-validate is not installed (desktop-file-utils); the entry was not validated"
  fi
fi

IFS=, read -ra pages <<<"$man"
for page in "${pages[@]}"; do
  expect "$p/share/man/man1/$page.1.gz"
  gzip -t "$p/share/man/man1/$page.1.gz" || fail "$page.1.gz is not a gzip file"
done
[ ${#pages[@]} -eq 0 ] || echo "ok: man pages ${pages[*]}"

echo "--- moved: the whole installation, to $out/moved"
mv "$p" "$out/moved"
check_runner "$out/moved"
expect "$out/moved/share/doc/poolscope/docs/architecture.md"
echo "ok: a moved installation still finds its data"
