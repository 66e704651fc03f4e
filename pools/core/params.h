// Pool parameters: each design describes its parameters once (name, type,
// default, range, unit, whether it can change live, one line of help), and
// that description drives config validation, the runner's `describe`, the
// GUI's editors and the docs. Configs are JSON objects; durations are strings
// with units ("10s").
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "pools/core/clock.h"

namespace poolscope {

using json = nlohmann::json;

// A bad config, scenario or parameter: `path` is a JSON pointer to the value
// ("/MaxWorkersCount", "/phases/2/arrival/rate"), `message` says what was
// expected. Callers that know the file prefix it.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string path, std::string message);
  const std::string& path() const { return path_; }
  const std::string& message() const { return message_; }
  // The same error under a parent path: prefixed("/pools/1/config").
  ConfigError prefixed(std::string_view parent) const;

 private:
  std::string path_;
  std::string message_;
};

enum class ParamType { integer, number, boolean, duration, choice };
std::string_view type_name(ParamType type);

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::integer;
  json default_value;  // in config form: 10, 0.5, true, "10s", "stack"
  json min = nullptr;  // inclusive bounds in config form, null = none
  json max = nullptr;
  std::vector<std::string> choices;  // for ParamType::choice
  std::string unit;                  // what an integer counts, shown beside it ("workers"); none for a duration ("10s")
  bool live = false;                 // can change while the pool runs
  std::string help;                  // one line

  json to_json() const;  // the description, for `describe --json` and the GUI
};

// One validated value, normalized: durations in nanoseconds.
class ParamValue {
 public:
  ParamValue() = default;
  ParamValue(ParamType type, json normalized) : type_(type), v_(std::move(normalized)) {}
  ParamType type() const { return type_; }
  std::int64_t integer() const;
  double number() const;
  bool boolean() const;
  Nanos duration() const;
  const std::string& choice() const;
  json config_json() const;  // back in config form ("10s")

 private:
  ParamType type_ = ParamType::integer;
  json v_;
};

// Checks `value` against `spec`; `path` names it in errors.
ParamValue parse_param(const ParamSpec& spec, const json& value, const std::string& path);

// A complete, validated set of values: every described parameter is present
// (from the config or its default).
class Params {
 public:
  const ParamValue& at(std::string_view name) const;
  std::int64_t integer(std::string_view name) const { return at(name).integer(); }
  double number(std::string_view name) const { return at(name).number(); }
  bool boolean(std::string_view name) const { return at(name).boolean(); }
  Nanos duration(std::string_view name) const { return at(name).duration(); }
  const std::string& choice(std::string_view name) const { return at(name).choice(); }
  void set(const std::string& name, ParamValue v) { values_[name] = std::move(v); }
  json config_json() const;

 private:
  std::map<std::string, ParamValue, std::less<>> values_;
};

// Validates a config object against `specs`: unknown keys and bad values are
// ConfigErrors naming the key (with a suggestion for near-misses).
Params parse_params(const std::vector<ParamSpec>& specs, const json& config, std::string_view design);

}  // namespace poolscope
