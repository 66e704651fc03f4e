// The cli area's tests run the runner in a subprocess (tests/support/runner_process.h).
#pragma once

#include "tests/support/runner_process.h"

namespace cli_test {
using namespace runner_process;
}  // namespace cli_test
