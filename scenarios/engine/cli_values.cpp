#include "scenarios/engine/cli_values.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

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

// C++: strtod, as the browser build's libc++ 13 has no from_chars for a
// double; what from_chars would refuse (leading space or '+', hexadecimal)
// is refused first. poolscope never changes the "C" locale strtod reads in.
double parse_number(const std::string& text, const std::string& flag, const std::string& expected) {
  auto fail = [&] { throw ConfigError(flag + " " + describe_json(json(text)), expected); };
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])) || text[0] == '+' ||
      text.find_first_of("xX") != std::string::npos)
    fail();
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno == ERANGE || end != text.c_str() + text.size() || !std::isfinite(v)) fail();
  return v;
}

}  // namespace poolscope::scenario
