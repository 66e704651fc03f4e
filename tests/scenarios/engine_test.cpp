// The engine on a fake pool: same workload to every pool, sequential runs,
// closed-loop clients, the watchdog on a stuck pool and on the nested-submit
// deadlock, stop(). Runs use a fast time scale; assertions are on counts and
// outcomes, never on how long things took.
#include "scenarios/engine/engine.h"

#include <catch2/catch.hpp>

#include "scenarios/engine/result_json.h"
#include "tests/support/sync.h"

using namespace poolscope;
using namespace poolscope::scenario;

namespace {

json scenario_json(json phases, json pools, double scale = 50) {
  return {{"name", "engine"},         {"lesson", "engine test"},        {"seed", 3},
          {"time_scale", scale},      {"task", {{"duration", "20ms"}}}, {"phases", std::move(phases)},
          {"pools", std::move(pools)}};
}

Scenario parse(const json& j) { return parse_scenario(j, "engine.json", "."); }

const metrics::PoolMetrics& pool_metrics(const RunResult& r, std::size_t i) {
  return *r.metrics.pool(r.outcome.pools.at(i).trace_id);
}

}  // namespace

TEST_CASE("engine: every pool gets every scheduled task, side by side, and the accounts balance") {
  Scenario s = parse(scenario_json({{{"duration", "2s"}, {"arrival", {{"kind", "poisson"}, {"rate", 100}}}},
                                    {{"duration", "1s"}, {"arrival", {{"kind", "burst"}, {"count", 20}}}}},
                                   {{{"design", "test-fixed"}, {"config", {{"Workers", 4}}}}, {{"design", "spawn"}}}));
  const std::size_t scheduled = generate(s).arrivals.size();
  RunResult r = run_scenario(s);
  REQUIRE(r.outcome.pools.size() == 2);
  CHECK_FALSE(r.outcome.stalled());
  CHECK(run_status(r.outcome, r.metrics) == RunStatus::ok);
  for (std::size_t i = 0; i < 2; ++i) {
    const PoolOutcome& p = r.outcome.pools[i];
    CAPTURE(p.name);
    CHECK(p.accounting.submitted == scheduled);
    CHECK(p.accounting.completed == scheduled);
    CHECK(p.lateness.size() == scheduled);
    metrics::Summary sum = pool_metrics(r, i).summary();
    CHECK(sum.submitted == scheduled);
    CHECK(sum.completed == scheduled);
    CHECK(sum.invariant_holds());
    CHECK(sum.end_to_end.count == scheduled);
    CHECK(sum.service.p50 >= 20'000'000);  // each task sleeps 20 ms of scenario time
    CHECK(invariant_problem(p, sum, true).empty());
  }
  // Both pools ran on one timeline: the same scenario time span.
  CHECK(pool_metrics(r, 0).summary().peak_workers == 4);
  CHECK(r.outcome.events_dropped == 0);
}

TEST_CASE("engine: the sequential schedule runs each pool alone, each from time zero") {
  json j = scenario_json({{{"duration", "1s"}, {"arrival", {{"kind", "constant"}, {"rate", 50}}}}},
                         {{{"design", "test-fixed"}}, {{"name", "second"}, {"design", "test-fixed"}}});
  j["schedule"] = "sequential";
  j["task"] = {{"kind", "spin"}, {"duration", "5ms"}};
  RunResult r = run_scenario(parse(j));
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(r.outcome.pools[i].cpu_seconds.has_value());
    CHECK(r.outcome.pools[i].threads_created.value() >= 2);
    CHECK(pool_metrics(r, i).summary().completed == 50);
    CHECK(pool_metrics(r, i).summary().first_time < 100'000'000);  // its own clock starts at zero
  }
}

TEST_CASE("engine: closed-loop clients submit one task at a time each") {
  RunResult r = run_scenario(parse(
      scenario_json({{{"duration", "2s"}, {"arrival", {{"kind", "closed_loop"}, {"clients", 3}, {"think", "50ms"}}}}},
                    {{{"design", "test-fixed"}, {"config", {{"Workers", 8}}}}})));
  metrics::Summary s = pool_metrics(r, 0).summary();
  CHECK(s.peak_busy <= 3);  // never more than one task per client in the pool
  CHECK(s.completed >= 3);
  CHECK(s.completed <= 3 * 2000 / 70 + 3);
  CHECK(s.invariant_holds());
  CHECK(r.outcome.pools[0].lateness.empty());  // closed-loop submissions have no schedule to be late for
}

TEST_CASE("engine: the watchdog reports a stuck pool, shuts it down at once, and the run ends") {
  json j = scenario_json({{{"duration", "1s"}, {"arrival", {{"kind", "burst"}, {"count", 5}}}},
                          {{"duration", "30s"}, {"arrival", {{"kind", "idle"}}}}},
                         {{{"name", "stuck"}, {"design", "test-fixed"}, {"config", {{"Workers", 0}}}},
                          {{"name", "fine"}, {"design", "test-fixed"}}},
                         100);
  j["watchdog"] = "2s";
  RunResult r = run_scenario(parse(j));
  const PoolOutcome& stuck = r.outcome.pools[0];
  REQUIRE(stuck.stall.has_value());
  CHECK(stuck.stall->state.queued == 5);
  CHECK(stuck.stall->accounting.in_flight() == 5);
  CHECK(stuck.stall->at >= Time(std::chrono::seconds(2)));
  CHECK(stuck.accounting.dropped == 5);
  CHECK(stuck.accounting.balanced());
  CHECK_FALSE(r.outcome.pools[1].stall.has_value());
  CHECK(r.outcome.pools[1].accounting.completed == 5);
  CHECK(run_status(r.outcome, r.metrics) == RunStatus::stalled);
}

TEST_CASE("engine: the nested-submit deadlock of a bounded pool is caught and released") {
  // Two workers, two parents that each wait for two children: every worker
  // waits, the children wait in the queue, nothing can move.
  json j = scenario_json(
      {{{"duration", "1s"},
        {"arrival", {{"kind", "burst"}, {"count", 2}}},
        {"task",
         {{"duration", "10ms"}, {"children", {{"count", 2}, {"wait", true}, {"task", {{"duration", "10ms"}}}}}}}}},
      {{{"design", "test-fixed"}, {"config", {{"Workers", 2}}}}, {{"design", "spawn"}}}, 100);
  j["watchdog"] = "3s";
  RunResult r = run_scenario(parse(j));
  const PoolOutcome& fixed = r.outcome.pools[0];
  REQUIRE(fixed.stall.has_value());
  CHECK(fixed.stall->state.busy == 2);
  CHECK(fixed.stall->state.queued == 4);
  CHECK(fixed.accounting.balanced());
  CHECK(fixed.accounting.completed == 2);  // the released parents
  CHECK(fixed.accounting.dropped == 4);    // the children, dropped by shutdown-now
  // The unbounded spawn baseline has no such deadlock.
  CHECK_FALSE(r.outcome.pools[1].stall.has_value());
  CHECK(r.outcome.pools[1].accounting.completed == 6);
}

TEST_CASE("engine: stop() ends a long run early and every task is still accounted for") {
  Run run(parse(scenario_json({{{"duration", "1h"}, {"arrival", {{"kind", "constant"}, {"rate", 20}}}}},
                              {{{"design", "test-fixed"}}}, 1)));
  run.start();
  test::await_condition(
      [&] {
        return run.with_metrics(
            [](const metrics::RunMetrics& m) { return !m.pools().empty() && m.pools()[0].totals().completed >= 3; });
      },
      "three tasks completed");
  run.stop();
  run.wait();
  CHECK(run.outcome().stopped);
  CHECK(run.outcome().pools[0].accounting.balanced());
  CHECK(run_status(run.outcome(), run.metrics()) == RunStatus::stopped);
}

TEST_CASE("engine: pause freezes scenario time until resumed") {
  Run run(parse(scenario_json({{{"duration", "1h"}, {"arrival", {{"kind", "constant"}, {"rate", 20}}}}},
                              {{{"design", "test-fixed"}}}, 1)));
  run.start();
  run.pause();
  Time frozen = run.now();
  test::await_condition([&] { return run.paused(); }, "paused");
  CHECK(run.now() == frozen);
  run.resume();
  test::await_condition([&] { return run.now() > frozen; }, "time moves again");
  run.stop();
  run.wait();
}
