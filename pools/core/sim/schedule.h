// A schedule as text: the thread picked at each decision (decision.h), by
// id, for a link's `sched=` value and a schedule file's "picks" string.
//
//   "3.5.3"      thread 3, then 5, then 3
//   "3.5x4.3"    a pick repeated: 5 four times
//   ""           no pick (the run as the seed runs it)
//
// Only digits, '.' and 'x': nothing a link must escape.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace poolscope::sim {

std::string format_picks(const std::vector<std::uint64_t>& picks);
// Throws std::invalid_argument saying which pick (1-based) is wrong and
// what was expected.
std::vector<std::uint64_t> parse_picks(std::string_view text);

}  // namespace poolscope::sim
