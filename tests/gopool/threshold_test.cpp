// The shipped gopool-threshold scenario, simulated (virtual time: exact and
// the same every run): ScaleThreshold separates a goroutine per task from a
// few busy workers (issue 42, item 14).
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "scenarios/engine/engine.h"
#include "scenarios/engine/library.h"

using namespace poolscope;
using namespace poolscope::scenario;

TEST_CASE("gopool-threshold, simulated: ScaleThreshold 1 starts a worker per task, 4 and 32 keep a few busy ones") {
  json j = read_scenario_json(resolve_scenario("gopool-threshold"));
  j["simulation"] = true;
  Scenario s = parse_scenario(j, "gopool-threshold", ".");
  RunResult r = run_scenario(s);
  std::map<std::string, metrics::Summary> by;
  for (const PoolOutcome& out : r.outcome.pools) {
    CHECK_FALSE(out.stall);
    by[out.name] = r.metrics.pool(out.trace_id)->summary();
  }
  const metrics::Summary& t1 = by.at("gopool-threshold-1");
  const metrics::Summary& t4 = by.at("gopool-threshold-4");
  const metrics::Summary& t32 = by.at("gopool-threshold-32");
  constexpr std::int64_t ms = 1'000'000;
  for (const metrics::Summary* sum : {&t1, &t4, &t32}) {
    CHECK(sum->completed == sum->submitted);  // the same work, all done
    CHECK(sum->mean_busy == Approx(2.0).margin(0.1));  // 100 tasks/s of 20 ms
  }
  INFO("workers started: " << t1.workers_spawned << ", " << t4.workers_spawned << ", " << t32.workers_spawned
                           << " of " << t1.submitted << " tasks");
  // 1: every CtxGo starts a worker, which exits when the list is empty; a
  // task waits only for its thread to start.
  CHECK(t1.workers_spawned == t1.submitted);
  CHECK(t1.queue_wait.p99 < 1 * ms);
  CHECK(t1.peak_queued <= 2);
  // 4: a worker starts when none runs or when 4 wait: about one per five tasks.
  CHECK(t4.workers_spawned * 10 > t4.submitted);
  CHECK(t4.workers_spawned * 3 < t4.submitted);
  CHECK(t4.queue_wait.p50 > 5 * ms);
  CHECK(t4.peak_queued <= 6);
  // 32: a handful of workers take the list in turn; tasks wait up to 32 deep.
  CHECK(t32.workers_spawned * 20 < t32.submitted);
  CHECK(t32.queue_wait.p50 > 100 * ms);
  CHECK(t32.peak_queued >= 30);
  CHECK(t32.peak_queued <= 34);
}
