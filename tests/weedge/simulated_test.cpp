// weedge against the real workerpool (issue 42, items 12 and 13), in the
// deterministic simulation: virtual time on the default machine, so the
// figures are exact and the same every run.
#include <algorithm>
#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>

#include "pools/core/sim/world.h"
#include "pools/core/trace_log.h"
#include "pools/weedge/workerpool.h"
#include "scenarios/engine/engine.h"
#include "scenarios/engine/library.h"

using namespace poolscope;
using namespace std::chrono_literals;
using WTask = weedge::Task;

namespace {

double ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

}  // namespace

// Measured on weedge/lib a36dcc1 under Go 1.19: one worker, TimeOut 200 ms,
// a task that panics after 10 ms and one of 300 ms behind it. GoSafely
// recovers the panic and sends no result, so the worker waits for its timer:
// the first task is reported timed out at 200 ms, the next starts at
// 200.5-201.8 ms and times out in its turn: 2 timeouts. (poolscope closed
// the result channel instead: the next task started at 11 ms, 1 timeout.)
TEST_CASE("weedge, simulated: a task that panics holds its worker until the timer, as in Go (200 ms, 2 timeouts)") {
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  sim::World world;
  world.run([&] {
    Clock& clock = world.clock();
    auto wp = weedge::NewWorkerPool(1, 1, 3, {.clock = &clock, .stream = &stream, .name = "weedge"});
    REQUIRE(wp);
    wp->Run();
    auto sleeping = [&](Nanos d, bool panics) {
      return WTask{.Do =
                       [&clock, d, panics](std::any&, std::any&) -> bool {
                         clock.sleep_for(d);
                         if (panics) throw std::runtime_error("panic");
                         return true;
                       },
                   .InParam = 1,
                   .OutParam = 1,
                   .TimeOut = 200ms};
    };
    REQUIRE(wp->AddTask(sleeping(10ms, true)) == kNoLabel);
    REQUIRE(wp->AddTask(sleeping(300ms, false)) == kNoLabel);
    clock.sleep_until(Time(1s));
    wp->Stop();
  });
  REQUIRE(world.leaked().empty());

  log.sync();
  std::vector<double> started, timeouts, threw;
  for (const Event& e : log.events()) {
    if (e.kind == EventKind::task_started) started.push_back(ms(e.time));
    if (e.kind == EventKind::task_threw) threw.push_back(ms(e.time));
    if (e.kind == EventKind::pool_state && label_code(e.rule) == "task-timeout") timeouts.push_back(ms(e.time));
  }
  INFO("measured on Go 1.19, weedge/lib a36dcc1: the next task started at 200.5-201.8 ms; 2 timeouts");
  REQUIRE(threw.size() == 1);
  CHECK(threw[0] == Approx(10).margin(0.5));
  REQUIRE(started.size() == 2);
  CHECK(started[1] >= 200.0);  // not before the first task's timer
  CHECK(started[1] <= 202.0);
  REQUIRE(timeouts.size() == 2);
  CHECK(timeouts[0] == Approx(200).margin(0.5));                 // the panicked task's
  CHECK(timeouts[1] == Approx(started[1] + 200).margin(0.5));    // the 300 ms task's, 200 ms after its pickup
}

// weedge-quirks, simulated: every worker exits by the 30 s rule while the
// pool still counts them, the channel fills, a submitter blocks for ever and
// the watchdog shuts the pool down at once. There is no worker left, so the
// stop ends as docs/pools/weedge.md says: Go's Stop would hang
// (stop-would-hang), the stranded tasks are dropped as no-live-worker, not
// as shutdown-now, and the blocked AddTask is refused (Go panics).
TEST_CASE("weedge, simulated: a run whose submitter is stranded ends with stop-would-hang and no-live-worker") {
  using namespace poolscope::scenario;
  json j = read_scenario_json(resolve_scenario("weedge-quirks"));
  j["simulation"] = true;
  Scenario s = parse_scenario(j, "weedge-quirks", ".");
  RunResult r = run_scenario(s);
  for (const PoolOutcome& out : r.outcome.pools) {
    INFO(out.name);
    REQUIRE(out.stall);  // the watchdog: in Go the run would hang here
    CHECK(out.stall->state.workers == 0);
    CHECK(out.stall->state.blocked == 1);
    const metrics::PoolMetrics* pm = r.metrics.pool(out.trace_id);
    REQUIRE(pm);
    const metrics::Summary sum = pm->summary();
    CHECK(sum.dropped_by_rule.count("shutdown-now") == 0);
    CHECK(sum.dropped_by_rule.at("no-live-worker") == sum.dropped);
    CHECK(sum.dropped > 0);
    CHECK(sum.refused_by_reason.at("send-on-closed-channel") == 1);
    const auto& rules = pm->rules();
    CHECK(std::any_of(rules.begin(), rules.end(), [](Label l) { return label_code(l) == "stop-would-hang"; }));
  }
}
