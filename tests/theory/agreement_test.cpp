// The shipped `mm-c` scenario, simulated: the pools that fit the model agree
// with it, and the ones docs/theory.md says depart do depart.
#include <catch2/catch.hpp>

#include "scenarios/engine/library.h"
#include "scenarios/engine/theory.h"

using namespace poolscope;
using namespace poolscope::scenario;

namespace {

struct Compared {
  std::vector<theory::Comparison> comparisons;
  const theory::Comparison& pool(const std::string& name) const {
    for (const auto& c : comparisons)
      if (c.pool == name) return c;
    FAIL("no comparison for pool " << name);
    throw;
  }
};

// mm-c as shipped, or with its one phase lengthened and only some pools.
Compared run_mmc(const std::string& duration = "", std::vector<std::string> pools = {}) {
  json j = read_scenario_json(resolve_scenario("mm-c"));
  if (!duration.empty()) j["phases"][0]["duration"] = duration;
  if (!pools.empty()) {
    json kept = json::array();
    for (const json& p : j["pools"])
      if (std::find(pools.begin(), pools.end(), p["name"].get<std::string>()) != pools.end()) kept.push_back(p);
    j["pools"] = kept;
  }
  Scenario s = parse_scenario(j, "mm-c", ".");
  REQUIRE(s.simulation);  // exact and repeatable: the tolerances below are not at the mercy of the machine
  RunResult r = run_scenario(s);
  const auto phases = theory::phase_models(s);
  REQUIRE(phases.size() == 1);
  REQUIRE(phases[0].eligible);
  Compared out{theory::predict(s, phases)};
  theory::measure(out.comparisons, phases, r.outcome, r.metrics);
  return out;
}

}  // namespace

// A 20 s phase is a sample: its mean wait at 75 % load lands within ±40 % of
// the model, seed to seed. Five minutes of it (90,000 tasks a pool) within 10 %.
TEST_CASE("mm-c: the pools that fit M/M/c and Erlang B agree with it over five minutes", "[theory]") {
  Compared run = run_mmc("300s", {"java-fixed", "gammazero", "ants", "fasthttp"});
  for (const char* name : {"java-fixed", "gammazero", "ants"}) {
    INFO(name);
    const theory::Comparison& c = run.pool(name);
    REQUIRE(c.predicted);
    REQUIRE(c.measured);
    CHECK_FALSE(c.approximate);
    CHECK(c.capacity.c == 8);
    CHECK(c.capacity.K == theory::kUnbounded);
    CHECK(c.predicted->p_wait == Approx(0.357).epsilon(0.01));  // Erlang C(8, 6)
    CHECK(c.measured->p_wait == Approx(c.predicted->p_wait).margin(0.03));
    CHECK(c.measured->wq_s == Approx(c.predicted->wq_s).epsilon(0.10));
    CHECK(c.measured->lq == Approx(c.predicted->lq).epsilon(0.10));
    CHECK(c.measured->busy == Approx(c.predicted->busy).epsilon(0.02));
    CHECK(c.measured->p_refused == 0);
  }
  const theory::Comparison& f = run.pool("fasthttp");
  REQUIRE(f.predicted);
  REQUIRE(f.measured);
  CHECK(f.capacity.K == 8);
  CHECK(f.predicted->p_refused == Approx(0.1219).epsilon(0.01));  // Erlang B(8, 6)
  CHECK(f.measured->p_refused == Approx(f.predicted->p_refused).margin(0.01));
  CHECK(f.measured->busy == Approx(f.predicted->busy).epsilon(0.02));
  CHECK(f.measured->wq_s < 1e-4);  // no queue: a hand-off's latency only
}

TEST_CASE("mm-c: the designs docs/theory.md names depart from the model as it says", "[theory]") {
  Compared run = run_mmc();
  // java-grows queues before it grows past core: far longer waits than
  // M/M/8/24, with workers to spare (fewer arrivals find all 8 busy).
  const theory::Comparison& g = run.pool("java-grows");
  REQUIRE(g.predicted);
  REQUIRE(g.measured);
  CHECK(g.approximate);
  CHECK(g.measured->wq_s > 3 * g.predicted->wq_s);
  CHECK(g.measured->p_wait < g.predicted->p_wait);
  // gopool keeps no idle worker: the work is the model's (busy agrees), but
  // far fewer than c workers are alive, where java-fixed keeps all 8.
  const theory::Comparison& p = run.pool("gopool");
  const theory::Comparison& j = run.pool("java-fixed");
  REQUIRE(p.measured);
  REQUIRE(j.measured);
  CHECK(p.measured->busy == Approx(p.predicted->busy).epsilon(0.05));
  CHECK(p.workers < p.capacity.c - 1.5);
  CHECK(p.workers < p.measured->busy + 0.5);
  CHECK(j.workers == Approx(8).margin(0.05));
}

TEST_CASE("designs that do not fit say why instead of guessing", "[theory]") {
  auto capacity = [](const std::string& design, json config) {
    return theory::effective_capacity(PoolEntry{.name = design, .design = design, .config = std::move(config)}, 1);
  };
  theory::Capacity cr = capacity("java", {{"handler", "CallerRunsPolicy"}});
  CHECK_FALSE(cr.modelled);
  CHECK_THAT(cr.why_not, Catch::Contains("CallerRunsPolicy"));
  CHECK_FALSE(capacity("ants-multi", json::object()).modelled);
  theory::Capacity core = capacity("java", {{"corePoolSize", 3}, {"maximumPoolSize", 50}, {"workQueue", "LinkedBlockingQueue"}, {"queueCapacity", 0}});
  CHECK(core.c == 3);  // an unbounded queue: the pool never grows past core
  CHECK(core.K == theory::kUnbounded);
  theory::Capacity bounded = capacity("java", {{"corePoolSize", 4}, {"maximumPoolSize", 4}, {"queueCapacity", 16}});
  CHECK(bounded.c == 4);
  CHECK(bounded.K == 20);
  CHECK(bounded.departs.empty());
  theory::Capacity unlimited = capacity("ants", {{"size", -1}});
  CHECK(unlimited.c == theory::kUnbounded);
  CHECK(capacity("nginx", {{"threads", 4}, {"max_queue", 0}}).K == 4);
}
