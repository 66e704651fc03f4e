#include "scenarios/engine/json_reader.h"

#include <algorithm>
#include <cmath>

#include "pools/core/duration.h"
#include "pools/core/suggest.h"

namespace poolscope::scenario {

namespace {

std::string number_text(double v) {
  if (v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  json j = v;
  return j.dump();
}

std::string bounds_text(std::optional<double> min, std::optional<double> max, bool min_exclusive) {
  std::string out;
  if (min && max)
    return std::string(" in ") + (min_exclusive ? "(" : "[") + number_text(*min) + ", " + number_text(*max) + "]";
  if (min) out += (min_exclusive ? " > " : " >= ") + number_text(*min);
  if (max) out += " <= " + number_text(*max);
  return out;
}

}  // namespace

std::string describe_json(const json& j) {
  std::string s = j.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

void fail_at(const std::string& path, const std::string& expected, const json& got) {
  throw ConfigError(path, "expected " + expected + ", got " + describe_json(got));
}

Nanos parse_duration_at(const json& value, const std::string& path) {
  if (value.is_string())
    if (auto d = parse_duration(value.get<std::string>())) return *d;
  fail_at(path, "a duration string such as \"250ms\" or \"2s\"", value);
}

ObjectReader::ObjectReader(const json& j, std::string path) : j_(j), path_(std::move(path)) {
  if (!j_.is_object()) fail_at(path_.empty() ? "" : path_, "an object", j_);
}

bool ObjectReader::has(std::string_view key) const { return j_.contains(key); }

const json* ObjectReader::get(std::string_view key) {
  known_.emplace(key);  // asked for, present or not: a key the format knows
  auto it = j_.find(key);
  return it == j_.end() ? nullptr : &*it;
}

const json& ObjectReader::required(std::string_view key) {
  if (const json* v = get(key)) return *v;
  throw ConfigError(path_of(key), "is required");
}

void ObjectReader::fail(std::string_view key, const std::string& expected, const json* got) const {
  if (!got) throw ConfigError(path_of(key), "is required (" + expected + ")");
  fail_at(path_of(key), expected, *got);
}

std::string ObjectReader::string(std::string_view key, std::optional<std::string> fallback) {
  const json* v = get(key);
  if (!v && fallback) return *fallback;
  if (!v || !v->is_string()) fail(key, "a string", v);
  return v->get<std::string>();
}

std::string ObjectReader::choice(std::string_view key, const std::vector<std::string>& choices,
                                 std::optional<std::string> fallback) {
  const json* v = get(key);
  if (!v && fallback) return *fallback;
  std::string expected = "one of";
  for (std::size_t i = 0; i < choices.size(); ++i) expected += (i ? ", \"" : " \"") + choices[i] + "\"";
  if (!v || !v->is_string() || std::find(choices.begin(), choices.end(), v->get<std::string>()) == choices.end())
    fail(key, expected, v);
  return v->get<std::string>();
}

double ObjectReader::number(std::string_view key, std::optional<double> fallback, std::optional<double> min,
                            std::optional<double> max, bool min_exclusive) {
  const json* v = get(key);
  if (!v && fallback) return *fallback;
  std::string expected = "a number" + bounds_text(min, max, min_exclusive);
  if (!v || !v->is_number()) fail(key, expected, v);
  double d = v->get<double>();
  if (!std::isfinite(d) || (min && (min_exclusive ? d <= *min : d < *min)) || (max && d > *max)) fail(key, expected, v);
  return d;
}

std::int64_t ObjectReader::integer(std::string_view key, std::optional<std::int64_t> fallback,
                                   std::optional<std::int64_t> min, std::optional<std::int64_t> max) {
  const json* v = get(key);
  if (!v && fallback) return *fallback;
  std::string expected =
      "an integer" + bounds_text(min ? std::optional<double>(static_cast<double>(*min)) : std::nullopt,
                                 max ? std::optional<double>(static_cast<double>(*max)) : std::nullopt, false);
  if (!v || !v->is_number_integer()) fail(key, expected, v);
  auto i = v->get<std::int64_t>();
  if ((min && i < *min) || (max && i > *max)) fail(key, expected, v);
  return i;
}

bool ObjectReader::boolean(std::string_view key, std::optional<bool> fallback) {
  const json* v = get(key);
  if (!v && fallback) return *fallback;
  if (!v || !v->is_boolean()) fail(key, "true or false", v);
  return v->get<bool>();
}

Nanos ObjectReader::duration(std::string_view key, std::optional<Nanos> fallback, std::optional<Nanos> min,
                             bool min_exclusive) {
  const json* v = get(key);
  if (!v && fallback) return *fallback;
  std::string expected = "a duration string such as \"250ms\" or \"2s\"";
  if (min) expected += (min_exclusive ? " > " : " >= ") + format_duration(*min);
  if (!v) fail(key, expected, v);
  std::optional<Nanos> d = v->is_string() ? parse_duration(v->get<std::string>()) : std::nullopt;
  if (!d || (min && (min_exclusive ? *d <= *min : *d < *min))) fail(key, expected, v);
  return *d;
}

void ObjectReader::done(const std::vector<std::string_view>& also_allowed) const {
  for (const auto& [key, value] : j_.items()) {
    if (known_.contains(key) || std::find(also_allowed.begin(), also_allowed.end(), key) != also_allowed.end())
      continue;
    std::string msg = "unknown key '" + key + "'";
    if (auto nearest = nearest_name(key, known_)) msg += " (did you mean '" + *nearest + "'?)";
    throw ConfigError(path_of(key), msg);
  }
}

}  // namespace poolscope::scenario
