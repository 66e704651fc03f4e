#include "scenarios/engine/cli_values.h"

#include <charconv>
#include <cmath>

#include "scenarios/engine/json_reader.h"

namespace poolscope::scenario {

std::uint64_t parse_seed(const std::string& text, const std::string& flag) {
  auto fail = [&] {
    throw ConfigError(flag + " " + describe_json(json(text)), "expected an integer in [0, 18446744073709551615]");
  };
  if (text.empty() || text.size() > 20) fail();
  std::uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') fail();
    if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, static_cast<unsigned>(c - '0'), &v)) fail();
  }
  return v;
}

double parse_number(const std::string& text, const std::string& flag, const std::string& expected) {
  double v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end || !std::isfinite(v))
    throw ConfigError(flag + " " + describe_json(json(text)), expected);
  return v;
}

}  // namespace poolscope::scenario
