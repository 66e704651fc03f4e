// Reading a JSON object field by field while remembering where we are, so
// every error names the JSON path ("/phases/2/arrival/rate") and what was
// expected, and keys nobody read are errors (a typo must not pass silently).
#pragma once

#include <concepts>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pools/core/clock.h"
#include "pools/core/params.h"

namespace poolscope::scenario {

// Whether a command-line argument is valid UTF-8 (nlohmann/json refuses to
// write one that is not, so a result could not name it).
bool valid_utf8(const std::string& s);

class ObjectReader {
 public:
  // Throws ConfigError unless `j` is an object.
  ObjectReader(const json& j, std::string path);

  const std::string& path() const { return path_; }
  std::string path_of(std::string_view key) const { return path_ + "/" + std::string(key); }
  bool has(std::string_view key) const;
  // The raw value, or nullptr if absent. Asking makes the key known to done().
  const json* get(std::string_view key);
  const json& required(std::string_view key);

  std::string string(std::string_view key, std::optional<std::string> fallback = std::nullopt);
  std::string choice(std::string_view key, const std::vector<std::string>& choices,
                     std::optional<std::string> fallback = std::nullopt);
  double number(std::string_view key, std::optional<double> fallback = std::nullopt,
                std::optional<double> min = std::nullopt, std::optional<double> max = std::nullopt,
                bool min_exclusive = false);
  std::int64_t integer(std::string_view key, std::optional<std::int64_t> fallback = std::nullopt,
                       std::optional<std::int64_t> min = std::nullopt, std::optional<std::int64_t> max = std::nullopt);
  bool boolean(std::string_view key, std::optional<bool> fallback = std::nullopt);
  Nanos duration(std::string_view key, std::optional<Nanos> fallback = std::nullopt,
                 std::optional<Nanos> min = std::nullopt, bool min_exclusive = false);

  // Every key present must have been asked for; throws on the first unknown
  // one, suggesting the nearest known key.
  void done(const std::vector<std::string_view>& also_allowed = {}) const;

  [[noreturn]] void fail(std::string_view key, const std::string& expected, const json* got) const;

 private:
  const json& j_;
  std::string path_;
  std::set<std::string, std::less<>> known_;  // every key asked for
};

// "expected X, got <json>" at `path`.
[[noreturn]] void fail_at(const std::string& path, const std::string& expected, const json& got);

// "an integer in [min, max]", "an integer >= min" (max the type's own) or
// "an integer <= max", the bounds written exactly (no double in between).
std::string integer_expected(std::int64_t min, std::int64_t max, bool min_is_types, bool max_is_types);
std::string integer_expected(std::uint64_t min, std::uint64_t max, bool min_is_types, bool max_is_types);

// The one reader of every integer field (scenario, result, sweep, the web
// page's options): `v` read as what the field is, T, and in [min, max],
// compared exactly before any narrowing. nlohmann keeps 18446744073709551615
// as a uint64 that get<int64_t>() turns into -1, and 2^63 into INT64_MIN;
// here both are out of range, and 1.0 is not an integer. nullopt if not.
template <std::integral T>
std::optional<T> integer_in(const json& v, T min = std::numeric_limits<T>::min(),
                            T max = std::numeric_limits<T>::max()) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (!std::cmp_less(u, min) && !std::cmp_greater(u, max)) return static_cast<T>(u);
  } else if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    if (!std::cmp_less(i, min) && !std::cmp_greater(i, max)) return static_cast<T>(i);
  }
  return std::nullopt;
}

// integer_in, or ConfigError at `path`: "expected <expected, or the bounds
// written exactly>, got <v>".
template <std::integral T>
T integer_at(const json& v, const std::string& path, T min = std::numeric_limits<T>::min(),
             T max = std::numeric_limits<T>::max(), const std::string& expected = {}) {
  if (auto i = integer_in<T>(v, min, max)) return *i;
  if (!expected.empty()) fail_at(path, expected, v);
  using Wide = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
  fail_at(path,
          integer_expected(static_cast<Wide>(min), static_cast<Wide>(max), min == std::numeric_limits<T>::min(),
                           max == std::numeric_limits<T>::max()),
          v);
}

Nanos parse_duration_at(const json& value, const std::string& path);
// A short, bounded description of a JSON value for error messages: never
// recursive past a few levels, never longer than ~60 characters, so a value
// nested 100,000 deep or an array of 200,000 elements costs nothing to name.
std::string describe_json(const json& j);

// The longest duration a scenario may name anywhere, and the longest
// scenario (sum of its phases): 1,000,000 h, well inside int64 nanoseconds,
// so sums and scaled times never overflow.
inline constexpr Nanos kMaxDuration = std::chrono::hours(1'000'000);

// Go's duration syntax, checked: a value that does not fit is "too large",
// not "malformed", and nothing wraps to a negative number.
struct DurationParse {
  enum class Status { ok, malformed, too_large } status = Status::malformed;
  Nanos value{0};
};
DurationParse parse_duration_checked(std::string_view s);

// Throws ConfigError at the first integer anywhere in `j` (a pool config,
// a --set value) that does not fit in int64: JSON readers downstream read
// integers as int64, where 18446744073709551615 would become -1.
void check_integers_fit(const json& j, const std::string& path);

// Throws ConfigError at the first value nested deeper than `max_depth`
// (iteratively: the check itself cannot overflow the stack, and after it
// nothing that copies, dumps or walks the document recursively can either).
inline constexpr int kMaxJsonDepth = 64;
void check_depth(const json& j, int max_depth = kMaxJsonDepth);

}  // namespace poolscope::scenario
