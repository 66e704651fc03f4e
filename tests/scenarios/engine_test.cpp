// The engine on a fake pool: same workload to every pool, sequential runs,
// closed-loop clients, the watchdog on a stuck pool and on the nested-submit
// deadlock, stop(). Runs use a fast time scale; assertions are on counts and
// outcomes, never on how long things took.
//
// On a busy 2-core machine any thread can lose the CPU for tens of
// milliseconds, so every scenario time a check depends on is kept at a
// quarter second of wall time or more: the watchdog of healthy pools is far
// away, and a stuck pool's watchdog is a full second of wall time.
#include "scenarios/engine/engine.h"

#include <sstream>
#include <thread>

#include <catch2/catch.hpp>

#include "scenarios/engine/result_json.h"
#include "tests/support/sync.h"

using namespace poolscope;
using namespace poolscope::scenario;

namespace {

// Healthy pools never come near the watchdog: 10 minutes of scenario time
// (12 s of wall time at scale 50).
json scenario_json(json phases, json pools, double scale = 50) {
  return {{"name", "engine"},
          {"lesson", "engine test"},
          {"seed", 3},
          {"time_scale", scale},
          {"watchdog", "10m"},
          {"task", {{"duration", "20ms"}}},
          {"phases", std::move(phases)},
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
  const std::size_t scheduled = list_arrivals(s).size();
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
  // Scale 4: the phase lasts 250 ms of wall time.
  json j = scenario_json({{{"duration", "1s"}, {"arrival", {{"kind", "constant"}, {"rate", 50}}}}},
                         {{{"design", "test-fixed"}}, {{"name", "second"}, {"design", "test-fixed"}}}, 4);
  j["schedule"] = "sequential";
  j["task"] = {{"kind", "spin"}, {"duration", "5ms"}};
  Scenario s = parse(j);
  REQUIRE(list_arrivals(s).size() == 50);  // 0, 20 ms, ... 980 ms
  RunResult r = run_scenario(s);
  for (std::size_t i = 0; i < 2; ++i) {
    CAPTURE(i);
    CHECK(r.outcome.pools[i].cpu_seconds.has_value());
    CHECK(r.outcome.pools[i].threads_created.value() >= 2);
    CHECK(r.outcome.pools[i].accounting.submitted == 50);
    CHECK(pool_metrics(r, i).summary().completed == 50);
    // Its own clock starts at zero: on a shared one the second pool's first
    // submission would come after the first pool's whole second.
    CHECK(pool_metrics(r, i).summary().first_time < 1'000'000'000);
  }
}

TEST_CASE("engine: closed-loop clients submit one task at a time each") {
  // Each client: submit at t, the task takes 20 ms, think 1 s, submit again.
  // On time, submissions at 0, 1.02 s and 2.04 s fit the 3 s phase and the
  // next (3.06 s) does not: 3 each. A late thread can only push submissions
  // out of the phase (on a loaded machine it does), never add one; and each
  // client submits its first task even if it starts late.
  RunResult r = run_scenario(parse(
      scenario_json({{{"duration", "3s"}, {"arrival", {{"kind", "closed_loop"}, {"clients", 3}, {"think", "1s"}}}}},
                    {{{"design", "test-fixed"}, {"config", {{"Workers", 8}}}}}, 4)));
  metrics::Summary s = pool_metrics(r, 0).summary();
  const Accounting& a = r.outcome.pools[0].accounting;
  CHECK(s.submitted >= 3);
  CHECK(s.submitted <= 9);
  // Every submission ran to its end, and the trace and the pool agree on each count.
  CHECK(s.completed == s.submitted);
  CHECK(a.submitted == s.submitted);
  CHECK(a.completed == s.submitted);
  CHECK(a.refused + a.dropped + a.threw == 0);
  // One task per client in the pool: a 4th would need a worker to stall for
  // the whole think time (250 ms of wall time) between ending a task and
  // recording its end.
  CHECK(s.peak_busy <= 3);
  CHECK(s.invariant_holds());
  CHECK(r.outcome.pools[0].lateness.empty());  // closed-loop submissions have no schedule to be late for
}

TEST_CASE("engine: the watchdog reports a stuck pool, shuts it down at once, and the run ends") {
  // Watchdog 20 s at scale 20: a pool must make no progress for a full second
  // of wall time to be stalled; the healthy one ends its 5 tasks long before.
  json j = scenario_json({{{"duration", "1s"}, {"arrival", {{"kind", "burst"}, {"count", 5}}}}},
                         {{{"name", "stuck"}, {"design", "test-fixed"}, {"config", {{"Workers", 0}}}},
                          {{"name", "fine"}, {"design", "test-fixed"}}},
                         20);
  j["watchdog"] = "20s";
  RunResult r = run_scenario(parse(j));
  const PoolOutcome& stuck = r.outcome.pools[0];
  REQUIRE(stuck.stall.has_value());
  CHECK(stuck.stall->state.queued == 5);
  CHECK(stuck.stall->state.busy == 0);
  CHECK(stuck.stall->accounting.submitted == 5);
  CHECK(stuck.stall->accounting.in_flight() == 5);
  CHECK(stuck.stall->at >= Time(std::chrono::seconds(20)));
  CHECK_FALSE(stuck.shutdown_hung);
  CHECK(stuck.accounting.submitted == 5);
  CHECK(stuck.accounting.dropped == 5);
  CHECK(stuck.accounting.balanced());
  CHECK_FALSE(r.outcome.pools[1].stall.has_value());
  CHECK(r.outcome.pools[1].accounting.submitted == 5);
  CHECK(r.outcome.pools[1].accounting.completed == 5);
  CHECK(run_status(r.outcome, r.metrics) == RunStatus::stalled);
}

TEST_CASE("engine: the nested-submit deadlock of a bounded pool is caught and released") {
  // One worker, one parent that waits for two children: the worker waits,
  // the children wait in the queue behind it, nothing can move. (With two
  // workers and two parents the deadlock would depend on the order: if the
  // first parent queued its children before the second parent came, the idle
  // worker would run them.) The watchdog is a second of wall time, so the
  // children are queued long before it fires.
  json j = scenario_json(
      {{{"duration", "1s"},
        {"arrival", {{"kind", "burst"}, {"count", 1}}},
        {"task",
         {{"duration", "10ms"}, {"children", {{"count", 2}, {"wait", true}, {"task", {{"duration", "10ms"}}}}}}}}},
      {{{"design", "test-fixed"}, {"config", {{"Workers", 1}}}}, {{"design", "spawn"}}}, 20);
  j["watchdog"] = "20s";
  RunResult r = run_scenario(parse(j));
  const PoolOutcome& fixed = r.outcome.pools[0];
  REQUIRE(fixed.stall.has_value());
  CHECK(fixed.stall->state.busy == 1);
  CHECK(fixed.stall->state.queued == 2);
  CHECK(fixed.accounting.balanced());
  CHECK(fixed.accounting.submitted == 3);
  CHECK(fixed.accounting.completed == 1);  // the released parent
  CHECK(fixed.accounting.dropped == 2);    // the children, dropped by shutdown-now
  // The unbounded spawn baseline has no such deadlock.
  CHECK_FALSE(r.outcome.pools[1].stall.has_value());
  CHECK(r.outcome.pools[1].accounting.submitted == 3);
  CHECK(r.outcome.pools[1].accounting.completed == 3);
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
  auto submitted = [&] {
    return run.with_metrics([](const metrics::RunMetrics& m) {
      return m.pools().empty() ? std::uint64_t{0} : m.pools()[0].totals().submitted;
    });
  };
  test::await_condition([&] { return submitted() >= 2; }, "two tasks submitted");
  run.pause();
  CHECK(run.paused());
  const Time frozen = run.now();
  // Arrivals come every 50 ms from 0: those due by `frozen` may be submitted, no later one.
  const auto due = static_cast<std::uint64_t>(frozen / std::chrono::milliseconds(50)) + 1;
  // Whether time stands still can only be seen by letting real time pass:
  // 200 ms, in which an unpaused run would move 200 ms and submit 4 more
  // tasks. However long the machine takes, a correct engine passes.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(run.now() == frozen);
  CHECK(submitted() <= due);
  run.resume();
  CHECK_FALSE(run.paused());
  test::await_condition([&] { return run.now() > frozen; }, "time moves again");
  test::await_condition([&] { return submitted() > due; }, "submissions resume");
  run.stop();
  run.wait();
  CHECK(run.outcome().pools[0].accounting.balanced());
}

TEST_CASE("engine: the time scale can change while spin tasks read it") {
  // The GUI's slider calls set_time_scale from its own thread while workers
  // run spin tasks, which divide by the scale (under TSan: no data race).
  json j = scenario_json({{{"duration", "1s"}, {"arrival", {{"kind", "constant"}, {"rate", 100}}}}},
                         {{{"design", "test-fixed"}, {"config", {{"Workers", 2}}}}}, 10);
  j["task"] = {{"kind", "spin"}, {"duration", "2ms"}};
  Run run(parse(j));
  run.start();
  int changes = 0;
  while (!run.finished()) {
    run.set_time_scale(changes % 2 ? 10 : 20);
    ++changes;
    std::this_thread::yield();
  }
  run.wait();
  CHECK(changes > 0);
  CHECK(run.outcome().pools[0].accounting.submitted == 100);
  CHECK(run.outcome().pools[0].accounting.completed == 100);
  run.set_time_scale(0);  // ignored
  CHECK(run.time_scale() == ((changes - 1) % 2 ? 10 : 20));
}

TEST_CASE("engine: a real run's dropped trace events are counted per pool, and the result says whose") {
  // A stream of one block: the first thread to record keeps it, and every
  // other thread's events are dropped (issue 36, item 4: the drop shown
  // where a student looks, per pool).
  Scenario s = parse(scenario_json({{{"duration", "100ms"}, {"arrival", {{"kind", "burst"}, {"count", 20}}}}},
                                   {{{"design", "spawn"}}, {{"design", "test-fixed"}, {"config", {{"Workers", 2}}}}}));
  RunOptions o;
  o.trace_capacity = 2;
  RunResult r = run_scenario(s, o);
  REQUIRE(r.outcome.events_dropped > 0);
  std::uint64_t sum = 0;
  for (const PoolOutcome& p : r.outcome.pools) {
    CAPTURE(p.name);
    CHECK(p.events_dropped > 0);
    CHECK(p.accounting.balanced());
    sum += p.events_dropped;
  }
  CHECK(sum == r.outcome.events_dropped);
  CHECK(run_status(r.outcome, r.metrics) == RunStatus::trace_incomplete);
  std::ostringstream out;
  write_result(out, s, r.outcome, r.metrics, ResultOptions{});
  const json j = json::parse(out.str());
  CHECK(j["status"] == "trace-incomplete");
  for (std::size_t i = 0; i < r.outcome.pools.size(); ++i)
    CHECK(j["pools"][i]["events_dropped"] == r.outcome.pools[i].events_dropped);
}
