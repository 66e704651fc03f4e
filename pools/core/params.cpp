#include "pools/core/params.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "pools/core/duration.h"
#include "pools/core/suggest.h"

namespace poolscope {

ConfigError::ConfigError(std::string path, std::string message)
    : std::runtime_error(path.empty() ? message : path + ": " + message),
      path_(std::move(path)),
      message_(std::move(message)) {}

ConfigError ConfigError::prefixed(std::string_view parent) const {
  return ConfigError(std::string(parent) + path_, message_);
}

std::string_view type_name(ParamType type) {
  switch (type) {
    case ParamType::integer:
      return "integer";
    case ParamType::number:
      return "number";
    case ParamType::boolean:
      return "boolean";
    case ParamType::duration:
      return "duration";
    case ParamType::choice:
      return "choice";
  }
  return "?";
}

json ParamSpec::to_json() const {
  json j = {{"name", name}, {"type", type_name(type)}, {"default", default_value}, {"unit", unit}, {"live", live},
            {"help", help}};
  if (!min.is_null()) j["min"] = min;
  if (!max.is_null()) j["max"] = max;
  if (!choices.empty()) j["choices"] = choices;
  return j;
}

// --- ParamValue ---------------------------------------------------------------

std::int64_t ParamValue::integer() const { return v_.get<std::int64_t>(); }
double ParamValue::number() const { return v_.get<double>(); }
bool ParamValue::boolean() const { return v_.get<bool>(); }
Nanos ParamValue::duration() const { return Nanos(v_.get<std::int64_t>()); }
const std::string& ParamValue::choice() const { return v_.get_ref<const std::string&>(); }

json ParamValue::config_json() const {
  if (type_ == ParamType::duration) return format_duration(duration());
  return v_;
}

// --- parsing ------------------------------------------------------------------

namespace {

std::string range_text(const ParamSpec& s) {
  if (s.min.is_null() && s.max.is_null()) return "";
  auto show = [](const json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); };
  if (s.max.is_null()) return " >= " + show(s.min);
  if (s.min.is_null()) return " <= " + show(s.max);
  return " in [" + show(s.min) + ", " + show(s.max) + "]";
}

std::string expected(const ParamSpec& s) {
  switch (s.type) {
    case ParamType::integer:
      return "an integer" + range_text(s);
    case ParamType::number:
      return "a number" + range_text(s);
    case ParamType::boolean:
      return "true or false";
    case ParamType::duration:
      return "a duration string such as \"250ms\" or \"10s\"" + range_text(s);
    case ParamType::choice: {
      std::string out = "one of";
      for (std::size_t i = 0; i < s.choices.size(); ++i) out += (i ? ", \"" : " \"") + s.choices[i] + "\"";
      return out;
    }
  }
  return "?";
}

// Bounds in the normalized unit (durations in ns).
double bound(const ParamSpec& s, const json& b) {
  if (s.type == ParamType::duration) return static_cast<double>(parse_duration(b.get<std::string>())->count());
  return b.get<double>();
}

}  // namespace

ParamValue parse_param(const ParamSpec& spec, const json& value, const std::string& path) {
  auto fail = [&] { throw ConfigError(path, "expected " + expected(spec) + ", got " + value.dump()); };
  json normalized;
  double numeric = 0;
  switch (spec.type) {
    case ParamType::integer:
      if (!value.is_number_integer()) fail();
      normalized = value.get<std::int64_t>();
      numeric = static_cast<double>(value.get<std::int64_t>());
      break;
    case ParamType::number:
      if (!value.is_number() || !std::isfinite(value.get<double>())) fail();
      normalized = value.get<double>();
      numeric = value.get<double>();
      break;
    case ParamType::boolean:
      if (!value.is_boolean()) fail();
      normalized = value;
      break;
    case ParamType::duration: {
      if (!value.is_string()) fail();
      auto d = parse_duration(value.get<std::string>());
      if (!d) fail();
      normalized = d->count();
      numeric = static_cast<double>(d->count());
      break;
    }
    case ParamType::choice:
      if (!value.is_string() ||
          std::find(spec.choices.begin(), spec.choices.end(), value.get<std::string>()) == spec.choices.end())
        fail();
      normalized = value;
      break;
  }
  if ((!spec.min.is_null() && numeric < bound(spec, spec.min)) ||
      (!spec.max.is_null() && numeric > bound(spec, spec.max)))
    fail();
  return ParamValue(spec.type, std::move(normalized));
}

const ParamValue& Params::at(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::logic_error("poolscope: no parameter '" + std::string(name) + "'");
  return it->second;
}

json Params::config_json() const {
  json j = json::object();
  for (const auto& [name, v] : values_) j[name] = v.config_json();
  return j;
}

Params parse_params(const std::vector<ParamSpec>& specs, const json& config, std::string_view design) {
  if (!config.is_null() && !config.is_object())
    throw ConfigError(
        "", "expected an object of parameters for pool design '" + std::string(design) + "', got " + config.dump());
  Params params;
  if (config.is_object()) {
    for (const auto& [key, value] : config.items()) {
      auto spec = std::find_if(specs.begin(), specs.end(), [&k = key](const ParamSpec& s) { return s.name == k; });
      if (spec != specs.end()) continue;
      std::string msg = "unknown parameter '" + key + "' for pool design '" + std::string(design) + "'";
      if (auto nearest = nearest_name(key, specs, &ParamSpec::name)) {
        msg += " (did you mean '" + *nearest + "'?)";
      } else {
        msg += "; known:";
        for (std::size_t i = 0; i < specs.size(); ++i) msg += (i ? ", " : " ") + specs[i].name;
        if (specs.empty()) msg += " none";
      }
      throw ConfigError("/" + key, msg);
    }
  }
  for (const ParamSpec& s : specs) {
    bool given = config.is_object() && config.contains(s.name);
    params.set(s.name, parse_param(s, given ? config.at(s.name) : s.default_value, "/" + s.name));
  }
  return params;
}

}  // namespace poolscope
