// What the runner's subcommands read from their command line the same way:
// a scenario argument, a --set setting, a --seed.
#pragma once

#include <filesystem>
#include <string>
#include <utility>

#include "pools/core/params.h"

namespace poolscope::runner {

// A path that exists (a file, a directory, a FIFO) is the user's file, and
// what is wrong with it is said as such; only a name that is nowhere is
// looked up among the shipped scenarios.
std::filesystem::path scenario_path(const std::string& arg);

// `--set POOL.PARAM=VALUE`: VALUE is JSON when it parses as JSON (10, true,
// "x"), else a string (so 2s needs no quotes).
std::pair<std::string, json> parse_setting(const std::string& arg);

// --seed (and --sim-seed, --first-seed: `flag` names it in the message):
// decimal digits only, in [0, 2^64-1]; "-1" does not wrap and
// "18446744073709551616" does not saturate.
std::uint64_t parse_seed(const std::string& text, const std::string& flag = "--seed");

// A finite decimal number, the whole argument ("", "nan", "inf" and "2x" are
// refused, naming `flag` and `expected`).
double parse_number(const std::string& text, const std::string& flag, const std::string& expected);

}  // namespace poolscope::runner
