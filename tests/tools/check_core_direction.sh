#!/usr/bin/env bash
# Dependencies run one way: the simulation (pools/core/sim/) and the goroutine
# runtime (pools/core/goroutines/, on the simulation's fibers) build on the
# core, and the core, the designs and the labs' pools know neither.
# They reach it only through the core's scheduling hook
# (pools/core/scheduler.h), which the simulation's World implements. Fails if
# a file of pools/ outside pools/core/sim/, or of a lab's pool, includes a
# sim/ header or names the sim:: namespace in code, or if the core's library
# is given the simulation's sources. (The labs' checks, labs/checks/, run
# simulations: they are above the simulation, as the engine is.)
# Usage: check_core_direction.sh SOURCE_DIR
set -uo pipefail
cd "${1:?usage: check_core_direction.sh SOURCE_DIR}" || exit 2
fail=0
outside_sim=$(find pools labs/0* labs/solutions -type f \( -name '*.h' -o -name '*.cpp' \) ! -path 'pools/core/sim/*' \
  ! -path 'pools/core/goroutines/*' | sort)
# shellcheck disable=SC2086
if hits=$(grep -nE '^\s*#\s*include\s*[<"][^">]*(^|/)sim/' $outside_sim); then
  echo "The core, a design or a lab's pool includes the simulation (go through pools/core/scheduler.h instead):"
  echo "$hits"
  fail=1
fi
# shellcheck disable=SC2086
if hits=$(grep -nE '\bsim::' $outside_sim | grep -vE '^[^:]+:[0-9]+:\s*//'); then
  echo "The core, a design or a lab's pool names the simulation (sim::) in code (use the Scheduler of scheduler.h):"
  echo "$hits"
  fail=1
fi
# shellcheck disable=SC2086
if hits=$(grep -nE '^\s*#\s*include\s*[<"][^">]*(^|/)goroutines/' $outside_sim); then
  echo "The core, a design or a lab's pool includes the goroutine runtime (go through pools/core/scheduler.h instead):"
  echo "$hits"
  fail=1
fi
# The core's library is globbed from its folders: core/sim/ must not be among them.
if grep -nE 'GLOB core_sources .*core/(sim|goroutines)' pools/CMakeLists.txt; then
  echo "pools/CMakeLists.txt: poolscope_core is given the simulation's or the goroutine runtime's sources"
  fail=1
fi
[ $fail = 0 ] && echo "the core knows no simulation and no goroutine runtime: only they include sim/ and goroutines/"
exit $fail
