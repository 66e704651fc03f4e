#include "scenarios/engine/json_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

namespace {

// Appends at most `budget` characters describing `j`, descending at most
// `depth` levels; returns false once the budget is spent.
void describe_into(const json& j, std::string& out, std::size_t budget, int depth) {
  auto room = [&] { return out.size() < budget; };
  if (j.is_object() || j.is_array()) {
    const bool obj = j.is_object();
    out += obj ? '{' : '[';
    if (depth <= 0) {
      if (!j.empty()) out += "...";
    } else {
      bool first = true;
      for (auto it = j.begin(); it != j.end() && room(); ++it) {
        if (!first) out += ',';
        first = false;
        if (obj) out += json(it.key()).dump() + ':';
        describe_into(*it, out, budget, depth - 1);
      }
    }
    out += obj ? '}' : ']';
    return;
  }
  if (j.is_string()) {
    const auto& str = j.get_ref<const std::string&>();
    // Invalid UTF-8 must not make dump() throw: replace it.
    out += json(str.size() > budget ? str.substr(0, budget) : str).dump(-1, ' ', false, json::error_handler_t::replace);
    return;
  }
  out += j.dump();
}

}  // namespace

std::string describe_json(const json& j) {
  std::string s;
  describe_into(j, s, 64, 3);
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

void fail_at(const std::string& path, const std::string& expected, const json& got) {
  throw ConfigError(path, "expected " + expected + ", got " + describe_json(got));
}

DurationParse parse_duration_checked(std::string_view s) {
  using S = DurationParse::Status;
  struct U {
    std::string_view name;
    std::int64_t ns;
  };
  static constexpr U units[] = {{"ns", 1},          {"us", 1000},          {"\xC2\xB5s", 1000}, {"\xCE\xBCs", 1000},
                                {"ms", 1'000'000}, {"s", 1'000'000'000}, {"m", 60'000'000'000},
                                {"h", 3'600'000'000'000}};
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return {S::ok, Nanos(0)};
  if (s.empty()) return {};
  // Whole nanoseconds exactly (uint64, overflow-checked), the fraction in long double.
  constexpr std::uint64_t cap = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  std::uint64_t whole = 0;
  long double frac = 0;
  bool too_large = false;
  while (!s.empty()) {
    std::size_t i = 0;
    std::uint64_t ip = 0;
    bool digits = false, ip_over = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (__builtin_mul_overflow(ip, 10u, &ip) || __builtin_add_overflow(ip, static_cast<unsigned>(s[i] - '0'), &ip))
        ip_over = true;
      ++i;
      digits = true;
    }
    long double fp = 0;
    if (i < s.size() && s[i] == '.') {
      long double scale = 0.1L;
      for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10) fp += (s[i] - '0') * scale, digits = true;
    }
    if (!digits) return {};
    s.remove_prefix(i);
    const U* unit = nullptr;
    for (const U& u : units)
      if (s.starts_with(u.name) && (!unit || u.name.size() > unit->name.size())) unit = &u;
    if (!unit) return {};
    s.remove_prefix(unit->name.size());
    std::uint64_t part = 0;
    if (ip_over || __builtin_mul_overflow(ip, static_cast<std::uint64_t>(unit->ns), &part) ||
        __builtin_add_overflow(whole, part, &whole) || whole > cap)
      too_large = true;
    frac += fp * static_cast<long double>(unit->ns);
  }
  if (too_large) return {S::too_large, Nanos(0)};
  long double total = static_cast<long double>(whole) + frac;
  total = std::floor(total + 0.5L);
  if (total > static_cast<long double>(std::numeric_limits<std::int64_t>::max())) return {S::too_large, Nanos(0)};
  auto ns = static_cast<std::int64_t>(total);
  return {S::ok, Nanos(negative ? -ns : ns)};
}

namespace {

// The scenario-wide reading of a duration: malformed, too large (over
// kMaxDuration) or a value.
Nanos checked_duration_or_fail(const json& value, const std::string& path, const std::string& expected) {
  if (!value.is_string()) fail_at(path, expected, value);
  DurationParse d = parse_duration_checked(value.get_ref<const std::string&>());
  if (d.status == DurationParse::Status::malformed) fail_at(path, expected, value);
  if (d.status == DurationParse::Status::too_large || d.value > kMaxDuration || d.value < -kMaxDuration)
    throw ConfigError(path, "duration " + describe_json(value) + " is too large: at most " +
                                format_duration(kMaxDuration));
  return d.value;
}

}  // namespace

namespace {

template <class W>
std::string integer_expected_text(W min, W max, bool min_is_types, bool max_is_types) {
  // Only a bound of the field's own (not of its C++ type) is worth naming
  // alone; with both bounds the type's, both are still named exactly.
  if (max_is_types && !min_is_types) return "an integer >= " + std::to_string(min);
  if (min_is_types && !max_is_types && std::is_signed_v<W>) return "an integer <= " + std::to_string(max);
  return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

}  // namespace

std::string integer_expected(std::int64_t min, std::int64_t max, bool min_is_types, bool max_is_types) {
  return integer_expected_text(min, max, min_is_types, max_is_types);
}
std::string integer_expected(std::uint64_t min, std::uint64_t max, bool min_is_types, bool max_is_types) {
  return integer_expected_text(min, max, min_is_types, max_is_types);
}

Nanos parse_duration_at(const json& value, const std::string& path) {
  return checked_duration_or_fail(value, path, "a duration string such as \"250ms\" or \"2s\"");
}

void check_integers_fit(const json& j, const std::string& path) {
  // Iterative: a config nested 100,000 deep must not overflow the stack.
  std::vector<std::pair<const json*, std::string>> todo{{&j, path}};
  while (!todo.empty()) {
    auto [v, p] = std::move(todo.back());
    todo.pop_back();
    if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
      throw ConfigError(p, "expected an integer <= 9223372036854775807, got " + v->dump());
    if (v->is_object())
      for (auto it = v->begin(); it != v->end(); ++it) todo.emplace_back(&*it, p + "/" + it.key());
    else if (v->is_array())
      for (std::size_t i = 0; i < v->size(); ++i) todo.emplace_back(&(*v)[i], p + "/" + std::to_string(i));
  }
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
  constexpr auto lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  std::string expected = "an integer";
  if (min || max) expected = integer_expected(min.value_or(lo), max.value_or(hi), !min, !max);
  if (!v) fail(key, expected, v);
  return integer_at<std::int64_t>(*v, path_of(key), min.value_or(lo), max.value_or(hi), expected);
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
  Nanos d = checked_duration_or_fail(*v, path_of(key), expected);
  if (min && (min_exclusive ? d <= *min : d < *min)) fail(key, expected, v);
  return d;
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

void check_depth(const json& j, int max_depth) {
  struct Item {
    const json* v;
    int depth;
    std::string path;
  };
  std::vector<Item> todo{{&j, 0, ""}};
  while (!todo.empty()) {
    Item it = std::move(todo.back());
    todo.pop_back();
    if (!it.v->is_structured()) continue;
    if (it.depth >= max_depth)
      throw ConfigError(it.path, "nested too deep: at most " + std::to_string(max_depth) +
                                     " levels of arrays and objects");
    if (it.v->is_object())
      for (auto c = it.v->begin(); c != it.v->end(); ++c) todo.push_back({&*c, it.depth + 1, it.path + "/" + c.key()});
    else
      for (std::size_t i = 0; i < it.v->size(); ++i)
        todo.push_back({&(*it.v)[i], it.depth + 1, it.path + "/" + std::to_string(i)});
  }
}

// json's dump() checks the encoding: a type_error is invalid UTF-8.
bool valid_utf8(const std::string& s) {
  try {
    (void)json(s).dump();
    return true;
  } catch (const json::type_error&) {
    return false;
  }
}

}  // namespace poolscope::scenario
