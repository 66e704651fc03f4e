// Schedules as text (schedule.h).
#include "pools/core/sim/schedule.h"

#include <charconv>
#include <stdexcept>

namespace poolscope::sim {

std::string format_picks(const std::vector<std::uint64_t>& picks) {
  std::string out;
  for (std::size_t i = 0; i < picks.size();) {
    std::size_t run = 1;
    while (i + run < picks.size() && picks[i + run] == picks[i]) ++run;
    if (!out.empty()) out += '.';
    out += std::to_string(picks[i]);
    if (run > 1) out += "x" + std::to_string(run);
    i += run;
  }
  return out;
}

namespace {

std::uint64_t number(std::string_view s, std::size_t pick, const char* what) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v == 0)
    throw std::invalid_argument("pick " + std::to_string(pick) + " ('" + std::string(s) + "'): expected " + what);
  return v;
}

}  // namespace

std::vector<std::uint64_t> parse_picks(std::string_view text) {
  std::vector<std::uint64_t> picks;
  if (text.empty()) return picks;
  std::size_t n = 1;
  for (std::size_t start = 0;; ++n) {
    const std::size_t dot = text.find('.', start);
    std::string_view item = text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    std::uint64_t times = 1;
    if (auto x = item.find('x'); x != std::string_view::npos) {
      times = number(item.substr(x + 1), n, "a repeat count after 'x' (2, 3, ...)");
      item = item.substr(0, x);
    }
    const std::uint64_t thread = number(item, n, "a thread id (1, 2, ...), or IDxN for a pick repeated N times");
    if (times > 1'000'000) throw std::invalid_argument("pick " + std::to_string(n) + ": a repeat above 1000000");
    picks.insert(picks.end(), times, thread);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return picks;
}

}  // namespace poolscope::sim
