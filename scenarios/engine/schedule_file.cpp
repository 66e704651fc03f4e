// Schedule files (schedule_file.h).
#include "scenarios/engine/schedule_file.h"

#include <stdexcept>

#include "pools/core/sim/schedule.h"
#include "scenarios/engine/json_reader.h"
#include "scenarios/engine/scenario.h"

namespace poolscope::scenario {

namespace {

std::vector<std::uint64_t> picks_at(const json& v, const std::string& path) {
  if (v.is_string()) {
    try {
      return sim::parse_picks(v.get<std::string>());
    } catch (const std::invalid_argument& e) {
      throw ConfigError(path, e.what());
    }
  }
  if (!v.is_array()) fail_at(path, "the picks: a string like \"3.5x4.3\" or an array of thread ids", v);
  std::vector<std::uint64_t> picks;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const json& p = v[i];
    if (!p.is_number_unsigned() || p.get<std::uint64_t>() == 0)
      fail_at(path + "/" + std::to_string(i), "a thread id (an integer from 1)", p);
    picks.push_back(p.get<std::uint64_t>());
  }
  return picks;
}

std::uint64_t seed_at(const json& v, const std::string& path) {
  if (!v.is_number_unsigned()) fail_at(path, "a seed (an integer in [0, 2^64-1])", v);
  return v.get<std::uint64_t>();
}

}  // namespace

ScheduleSpec parse_schedule(const json& j, const std::string& path, bool embedded) {
  ScheduleSpec s;
  // A stepped run's result: its run.simulation says everything.
  if (j.is_object() && j.contains("run") && !j.contains("picks")) {
    const json* sim = j["run"].is_object() && j["run"].contains("simulation") ? &j["run"]["simulation"] : nullptr;
    if (!sim || !sim->is_object() || !sim->contains("schedule"))
      throw ConfigError(path + "/run/simulation/schedule",
                        "expected the schedule of a run stepped by decision; this result has none (it ran "
                        "without anyone choosing: replay it with --sim-seed and --policy)");
    s.picks = picks_at((*sim)["schedule"], path + "/run/simulation/schedule");
    if (sim->contains("seed")) s.seed = seed_at((*sim)["seed"], path + "/run/simulation/seed");
    if (sim->contains("policy") && (*sim)["policy"].is_string()) s.policy = (*sim)["policy"].get<std::string>();
    if (j.contains("scenario") && j["scenario"].is_object() && j["scenario"].contains("name") &&
        j["scenario"]["name"].is_string())
      s.scenario = j["scenario"]["name"].get<std::string>();
    return s;
  }
  ObjectReader r(j, path);
  if (embedded)
    r.choice("format", {"poolscope-schedule/1"}, "poolscope-schedule/1");  // inside a challenge: implied
  else
    r.choice("format", {"poolscope-schedule/1"});
  if (r.has("scenario")) s.scenario = r.string("scenario");
  if (r.has("pool")) s.pool = r.string("pool");
  if (const json* seed = r.get("seed")) s.seed = seed_at(*seed, r.path_of("seed"));
  if (r.has("policy")) s.policy = r.choice("policy", {"random", "pct", "fifo"});
  s.picks = picks_at(r.required("picks"), r.path_of("picks"));
  r.get("note");  // free text: who made it, what it shows
  r.done();
  return s;
}

ScheduleSpec read_schedule_file(const std::string& file) {
  const json j = read_scenario_json(file);  // a missing file, bad JSON: errors naming the file
  try {
    return parse_schedule(j, "", false);
  } catch (const ConfigError& e) {
    throw ScenarioError(file, e);
  }
}

json schedule_json(const ScheduleSpec& s) {
  json j = {{"format", "poolscope-schedule/1"}};
  if (s.scenario) j["scenario"] = *s.scenario;
  if (s.pool) j["pool"] = *s.pool;
  if (s.seed) j["seed"] = *s.seed;
  if (s.policy) j["policy"] = *s.policy;
  j["picks"] = sim::format_picks(s.picks);
  return j;
}

}  // namespace poolscope::scenario
