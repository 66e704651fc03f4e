// Reading a JSON object field by field while remembering where we are, so
// every error names the JSON path ("/phases/2/arrival/rate") and what was
// expected, and keys nobody read are errors (a typo must not pass silently).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "pools/core/clock.h"
#include "pools/core/params.h"

namespace poolscope::scenario {

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
Nanos parse_duration_at(const json& value, const std::string& path);
std::string describe_json(const json& j);

}  // namespace poolscope::scenario
