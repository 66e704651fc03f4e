// Values the runner's and the GUI's command lines read the same way, so
// that `poolscope run` and `poolscope-gui` refuse the same text with the
// same message. CLI11's own conversions are not used for them: it wraps
// "-3" into an unsigned and takes "nan" for a number.
#pragma once

#include <cstdint>
#include <string>

namespace poolscope::scenario {

// A seed (--seed, --sim-seed, --first-seed: `flag` names it in the
// message): decimal digits only, in [0, 2^64-1]; "-1" does not wrap and
// "18446744073709551616" does not saturate.
std::uint64_t parse_seed(const std::string& text, const std::string& flag = "--seed");

// A finite decimal number, the whole argument ("", "nan", "inf" and "2x" are
// refused, naming `flag` and `expected`).
double parse_number(const std::string& text, const std::string& flag, const std::string& expected);

}  // namespace poolscope::scenario
