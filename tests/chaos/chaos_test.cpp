// Chaos, on a short budget: random valid scenarios (a fixed seed, or
// POOLSCOPE_CHAOS_SEED to explore) run against every registered design side
// by side, and every pool's accounting must balance whatever happened
// (stalls, throws, refusals, children, early drains): submitted = completed
// + threw + refused + dropped, in the pool's own count and in the trace.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <random>

#include "pools/core/registry.h"
#include "scenarios/engine/engine.h"
#include "scenarios/engine/result_json.h"

using namespace poolscope;
using namespace poolscope::scenario;

namespace {

json random_task(std::mt19937_64& g, int depth) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  json t = {{"kind", "sleep"},
            {"duration", {{"dist", "uniform"}, {"min", "0"}, {"max", std::to_string(pick(1, 20)) + "ms"}}}};
  if (pick(0, 3) == 0) t["throw_probability"] = pick(0, 30) / 100.0;
  if (depth == 0 && pick(0, 4) == 0)
    t["children"] = {{"count", pick(1, 3)}, {"wait", pick(0, 3) == 0}, {"task", random_task(g, 1)}};
  return t;
}

json random_scenario(std::uint64_t seed, const std::vector<std::string>& designs) {
  std::mt19937_64 g(seed);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  json phases = json::array();
  for (int i = pick(1, 3); i > 0; --i) {
    json a;
    switch (pick(0, 5)) {
      case 0: a = {{"kind", "constant"}, {"rate", pick(10, 400)}}; break;
      case 1: a = {{"kind", "poisson"}, {"rate", pick(10, 400)}}; break;
      case 2: a = {{"kind", "burst"}, {"count", pick(1, 40)}, {"every", pick(0, 1) ? "0" : "50ms"}}; break;
      case 3: a = {{"kind", "ramp"}, {"from", pick(0, 100)}, {"to", pick(1, 300)}}; break;
      case 4: a = {{"kind", "idle"}}; break;
      default: a = {{"kind", "closed_loop"}, {"clients", pick(1, 4)}, {"think", std::to_string(pick(0, 10)) + "ms"}};
    }
    phases.push_back({{"duration", std::to_string(pick(50, 300)) + "ms"}, {"arrival", a}, {"task", random_task(g, 0)}});
  }
  json pools = json::array();
  for (const std::string& d : designs) pools.push_back({{"design", d}});
  return {{"name", "chaos-" + std::to_string(seed)},
          {"lesson", "random"},
          {"seed", seed},
          {"time_scale", 10},
          {"watchdog", "500ms"},
          {"submitters", pick(1, 3)},
          {"drain", pick(0, 3) == 0 ? "now" : "graceful"},
          {"phases", phases},
          {"pools", pools}};
}

}  // namespace

TEST_CASE("random valid scenarios against every registered design keep the accounting invariant", "[chaos]") {
  std::uint64_t base = 20261124;
  if (const char* s = std::getenv("POOLSCOPE_CHAOS_SEED")) base = std::strtoull(s, nullptr, 10);
  const std::vector<std::string> designs = Registry::global().names();
  REQUIRE_FALSE(designs.empty());
  for (std::uint64_t k = 0; k < 8; ++k) {
    const std::uint64_t seed = base + k;
    json j = random_scenario(seed, designs);
    INFO("POOLSCOPE_CHAOS_SEED=" << seed << " scenario: " << j.dump());
    Scenario s = parse_scenario(j, "chaos.json", ".");
    RunResult r = run_scenario(s);
    const bool complete = r.outcome.events_dropped == 0;
    for (const PoolOutcome& p : r.outcome.pools) {
      INFO(p.name);
      CHECK_FALSE(p.shutdown_hung);
      CHECK(p.accounting.submitted == p.accounting.settled());
      const auto* pm = r.metrics.pool(p.trace_id);
      REQUIRE(pm);
      CHECK(invariant_problem(p, pm->totals(), complete) == "");
    }
  }
}
