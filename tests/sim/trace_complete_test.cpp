// A simulated run never drops a trace event (issue 36, item 4). Every
// thread of a sim::World records on the World's one OS thread, which is
// also the trace's consumer, so a record that finds the stream full drains
// it there and then (TraceStream::drain_when_full) instead of dropping.
// Before, the monitor drained every 10 ms of virtual time, and a burst
// recorded at one virtual instant overflowed a small stream.
#include <catch2/catch.hpp>

#include "scenarios/engine/engine.h"

using namespace poolscope;
using namespace poolscope::scenario;

TEST_CASE("simulation: a burst far larger than the trace's buffer drops no event") {
  // 20,000 tasks at one virtual instant, on one worker: about 40,000 events
  // (a submission and a refusal each, mostly) into a stream of 1,024 slots.
  const json j = {
      {"name", "burst"},
      {"lesson", "a burst at one instant"},
      {"seed", 7},
      {"simulation", true},
      {"task", {{"duration", "1ms"}}},
      {"phases", {{{"duration", "10ms"}, {"arrival", {{"kind", "burst"}, {"count", 20000}, {"every", "0"}}}}}},
      {"pools", {{{"design", "fasthttp"}, {"config", {{"MaxWorkersCount", 1}}}}}},
  };
  Scenario s = parse_scenario(j, "burst.json", ".");
  RunOptions o;
  o.trace_capacity = 1024;
  RunResult r = run_scenario(s, o);
  CHECK(r.outcome.simulation.has_value());
  CHECK(r.outcome.events_dropped == 0);
  CHECK(r.outcome.events_recorded > 40'000);
  const metrics::PoolMetrics* pm = r.metrics.pool(r.outcome.pools[0].trace_id);
  REQUIRE(pm);
  const metrics::Summary sum = pm->summary();
  CHECK(sum.submitted == 20'000);
  CHECK(sum.submitted == sum.completed + sum.threw + sum.refused + sum.dropped);
  CHECK(r.outcome.pools[0].events_dropped == 0);
}
