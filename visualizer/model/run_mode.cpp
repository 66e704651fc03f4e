#include "visualizer/model/run_mode.h"

#include "scenarios/engine/json_reader.h"

namespace poolscope::gui {

RunMode RunMode::of(const sim::Settings& s) {
  return RunMode{.simulated = true,
                 .seed = s.seed,
                 .cpus = s.cpus,
                 .costs = s.costs.name,
                 .policy = std::string(sim::to_string(s.policy))};
}

RunMode RunMode::of_result(const json& run) {
  if (!run.is_object() || !run.contains("simulation") || !run["simulation"].is_object()) return real();
  const json& s = run["simulation"];
  RunMode m{.simulated = true};
  // Shown, not run: a value out of range is left out, never wrapped.
  if (s.contains("seed")) m.seed = scenario::integer_in<std::uint64_t>(s["seed"]).value_or(m.seed);
  if (s.contains("cpus")) m.cpus = scenario::integer_in<int>(s["cpus"], 1, 4096).value_or(m.cpus);
  if (s.contains("costs") && s["costs"].is_object()) m.costs = s["costs"].value("name", "");
  m.policy = s.value("policy", "");
  return m;
}

std::string RunMode::badge() const {
  if (!simulated) return "REAL threads";
  std::string text = "SIMULATED (seed " + std::to_string(seed) + ", " + std::to_string(cpus) +
                     (cpus == 1 ? " CPU" : " CPUs");
  if (!costs.empty()) text += ", " + costs;
  if (!policy.empty() && policy != "random") text += ", " + policy;
  return text + ")";
}

}  // namespace poolscope::gui
