# Sourced by the GUI's shell tests: one Xvfb server for the whole script.
# xvfb-run per command removes its temporary directory while its server may
# still be writing there; on a loaded machine the removal fails and
# xvfb-run exits 5 after the command ran, its status lost.
# start_display WIDTHxHEIGHT: starts Xvfb on a free display number, exports
# DISPLAY, and stops the server when the script exits; exits 77 (CTest:
# skipped) where Xvfb is not installed.
start_display() {
  if ! command -v Xvfb >/dev/null; then
    echo "SKIPPED: Xvfb is not installed (scripts/install-deps installs xvfb)"
    exit 77
  fi
  xvfb_dir=$(mktemp -d)
  Xvfb -displayfd 3 -screen 0 "$1x24" -nolisten tcp 3>"$xvfb_dir/display" 2>"$xvfb_dir/xvfb.log" &
  xvfb_pid=$!
  trap 'kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; rm -rf "$xvfb_dir"' EXIT
  # The server writes its display number, then a newline, once it accepts clients.
  local tries
  for tries in $(seq 300); do
    if [[ $(cat "$xvfb_dir/display") == *[0-9] ]] && [[ $(wc -l <"$xvfb_dir/display") -ge 1 ]]; then
      export DISPLAY=":$(head -1 "$xvfb_dir/display")"
      return 0
    fi
    kill -0 "$xvfb_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "FAIL: Xvfb did not start: $(cat "$xvfb_dir/xvfb.log")"
  exit 1
}
