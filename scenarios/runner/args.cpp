#include "scenarios/runner/args.h"

#include <charconv>
#include <cmath>

#include "scenarios/engine/json_reader.h"
#include "scenarios/engine/library.h"

namespace poolscope::runner {

using scenario::valid_utf8;

std::filesystem::path scenario_path(const std::string& arg) {
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::symlink_status(arg, ec))) return arg;
  return scenario::resolve_scenario(arg);
}

std::pair<std::string, json> parse_setting(const std::string& arg) {
  auto eq = arg.find('=');
  if (!valid_utf8(arg)) throw ConfigError("--set", "expected POOL.PARAM=VALUE in UTF-8; the argument is not valid UTF-8");
  if (eq == std::string::npos) throw ConfigError("--set " + arg, "expected POOL.PARAM=VALUE");
  std::string value = arg.substr(eq + 1);
  json v = json::parse(value, nullptr, false);
  if (v.is_discarded()) v = value;
  return {arg.substr(0, eq), v};
}

std::uint64_t parse_seed(const std::string& text, const std::string& flag) {
  auto fail = [&] {
    throw ConfigError(flag + " " + scenario::describe_json(json(text)), "expected an integer in [0, 18446744073709551615]");
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
    throw ConfigError(flag + " " + scenario::describe_json(json(text)), expected);
  return v;
}

}  // namespace poolscope::runner
