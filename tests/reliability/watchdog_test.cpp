// A run ends within a bound of its scenario time whatever the pools do
// (docs/scenario-format.md, "The watchdog"): a pool still busy
// overrun_limit() after the workload ended is reported stalled, reason
// "overrun", even though tasks kept starting and ending all along, which
// the no-progress watchdog cannot see.
#include <catch2/catch.hpp>

#include "scenarios/engine/engine.h"
#include "scenarios/engine/result_json.h"

using namespace poolscope;
using namespace poolscope::scenario;

TEST_CASE("a pool busy far past the workload's end is stopped: stalled, reason overrun") {
  // One worker and an unbounded queue: 100 tasks of 100 ms take 10 s to
  // drain, with a task ending every 100 ms (always progress). The bound is
  // 1 s (watchdog) + 10 x 100 ms (the workload) = 2 s after its end.
  json j = json::parse(R"({"name": "t", "lesson": "l", "time_scale": 20, "watchdog": "1s",
    "task": {"duration": "100ms"},
    "phases": [{"duration": "100ms", "arrival": {"kind": "burst", "count": 100}}],
    "pools": [{"design": "gammazero", "config": {"maxWorkers": 1}}]})");
  Scenario s = parse_scenario(j, "t.json", ".");
  RunResult r = run_scenario(s);
  const PoolOutcome& p = r.outcome.pools.at(0);
  REQUIRE(p.stall);
  CHECK(p.stall->reason == "overrun");
  const Nanos limit = overrun_limit(r.outcome.watchdog, r.outcome.workload_end);
  CHECK(limit == std::chrono::seconds(2));
  CHECK(p.stall->at > r.outcome.workload_end + limit);
  CHECK(p.stall->at < r.outcome.workload_end + limit + std::chrono::seconds(1));
  CHECK(run_status(r.outcome, r.metrics) == RunStatus::stalled);
  CHECK(p.accounting.submitted == p.accounting.settled());  // what it dropped is counted
  CHECK(p.accounting.dropped > 0);
}

TEST_CASE("a drain within the bound is not an overrun") {
  json j = json::parse(R"({"name": "t", "lesson": "l", "time_scale": 20, "watchdog": "1s",
    "task": {"duration": "100ms"},
    "phases": [{"duration": "100ms", "arrival": {"kind": "burst", "count": 10}}],
    "pools": [{"design": "gammazero", "config": {"maxWorkers": 1}}]})");
  RunResult r = run_scenario(parse_scenario(j, "t.json", "."));
  CHECK_FALSE(r.outcome.pools.at(0).stall);
  CHECK(run_status(r.outcome, r.metrics) == RunStatus::ok);
}
