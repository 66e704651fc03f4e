// What the runner's subcommands read from their command line the same way:
// a scenario argument, a --set setting, a --seed.
#pragma once

#include <filesystem>
#include <string>
#include <utility>

#include "pools/core/params.h"
#include "scenarios/engine/cli_values.h"

namespace poolscope::runner {

// A path that exists (a file, a directory, a FIFO) is the user's file, and
// what is wrong with it is said as such; only a name that is nowhere is
// looked up among the shipped scenarios.
std::filesystem::path scenario_path(const std::string& arg);

// `--set POOL.PARAM=VALUE`: VALUE is JSON when it parses as JSON (10, true,
// "x"), else a string (so 2s needs no quotes).
std::pair<std::string, json> parse_setting(const std::string& arg);

// --seed, --sim-seed, --first-seed; --time-scale: as the GUI reads them.
using scenario::parse_number;
using scenario::parse_seed;

}  // namespace poolscope::runner
