// Shared by the reliability tests: the runner in a subprocess
// (tests/support/runner_process.h), the bad inputs, a minimal scenario.
#pragma once

#include <filesystem>
#include <string>

#include "tests/support/runner_process.h"

namespace reliability {

using namespace runner_process;
inline Result runner(const std::string& args) { return run(args); }

inline fs::path bad_dir() { return fs::path(POOLSCOPE_SOURCE_DIR) / "tests" / "data" / "bad"; }

// The smallest valid scenario, with `phase` as its one phase.
inline std::string scenario_with(const std::string& phase, const std::string& extra = "") {
  return R"({"name": "t", "lesson": "l", "task": {"duration": "1ms"}, )" + extra + R"("phases": [)" + phase +
         R"(], "pools": [{"design": "ants", "config": {"size": 2}}]})";
}

}  // namespace reliability
