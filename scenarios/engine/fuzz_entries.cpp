#include "scenarios/engine/fuzz_entries.h"

#include <sstream>
#include <stdexcept>

#include "scenarios/engine/json_reader.h"
#include "scenarios/engine/result_reader.h"
#include "scenarios/engine/workload.h"

namespace poolscope::scenario::fuzz {

void scenario(std::string_view bytes) {
  try {
    Scenario s = parse_scenario(parse_scenario_text(bytes, "fuzz.json"), "fuzz.json", "/nonexistent-fuzz-dir");
    // A small bound keeps each input fast; the count is what validate does.
    count_workload(s, Limits{.max_tasks = 100'000});
    (void)s.to_json().dump();
  } catch (const ConfigError&) {
  }
}

void duration(std::string_view bytes) {
  DurationParse d = parse_duration_checked(bytes);
  if (d.status == DurationParse::Status::ok && d.value.count() == std::numeric_limits<std::int64_t>::min())
    throw std::logic_error("a duration wrapped to INT64_MIN");
  try {
    (void)parse_duration_at(json(std::string(bytes)), "/d");
  } catch (const ConfigError&) {
  } catch (const json::type_error&) {  // not UTF-8: json(...) cannot be described; the reader never sees such a string
  }
}

void result(std::string_view bytes) {
  try {
    std::istringstream in{std::string(bytes)};
    ResultFile r = read_result(in, "fuzz.json");
    (void)r.metrics();
  } catch (const ConfigError&) {
  }
}

void arrival_csv(std::string_view bytes) {
  try {
    auto times = parse_replay_csv(bytes, "fuzz.csv", "/phases/0/arrival/file", std::chrono::seconds(10));
    for (Nanos t : times)
      if (t < Nanos(0) || t >= std::chrono::seconds(10)) throw std::logic_error("a replay time outside its phase");
  } catch (const ConfigError&) {
  }
}

bool run(std::string_view target, std::string_view bytes) {
  if (target == "scenario") return scenario(bytes), true;
  if (target == "duration") return duration(bytes), true;
  if (target == "result") return result(bytes), true;
  if (target == "arrival_csv") return arrival_csv(bytes), true;
  return false;
}

}  // namespace poolscope::scenario::fuzz
