# Sourced by the GUI's shell tests: expect_refused checks that a command exits
# 2 saying what it must, and sets `failed=1` when it does not.
# expect_refused "WHAT THE MESSAGE MUST SAY" ARGS...
expect_refused() {
  local want=$1
  shift
  local err rc
  err=$("$@" 2>&1 >/dev/null)
  rc=$?
  if [[ $rc -ne 2 || $err != *"$want"* ]]; then
    echo "FAIL: ${*:2}: exit $rc (2 wanted), said: $err (wanted: $want)"
    failed=1
  else
    echo "ok: ${*:2}: exit 2: $(head -1 <<<"$err")"
  fi
}
