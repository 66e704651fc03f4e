#include "scenarios/runner/args.h"


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

}  // namespace poolscope::runner
