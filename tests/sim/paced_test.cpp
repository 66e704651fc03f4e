// A simulated run paced for a live view (RunOptions::paced, the Pacer): it
// may be paused, stepped one thing due at a time, and sped up or slowed down,
// and none of that changes the run: the same seed gives the same events as
// an unpaced run. Synchronised on what the run did (its virtual time, its
// events), never on wall time.
#include <thread>

#include <catch2/catch.hpp>

#include "scenarios/engine/engine.h"
#include "scenarios/engine/pacer.h"
#include "tests/support/sync.h"

using namespace poolscope;
using namespace poolscope::scenario;

namespace {

// Two designs under a burst, then idle long enough for their reaping.
Scenario paced_scenario(double speed) {
  json j = {{"name", "paced"},
            {"lesson", "a simulated run paced for the GUI"},
            {"seed", 4},
            {"time_scale", speed},
            {"simulation", {{"cpus", 2}, {"costs", "os-threads"}, {"policy", "random"}}},
            {"task", {{"duration", "5ms"}}},
            {"phases",
             {{{"name", "burst"}, {"duration", "50ms"}, {"arrival", {{"kind", "burst"}, {"count", 12}}}},
              {{"name", "idle"}, {"duration", "300ms"}, {"arrival", {{"kind", "idle"}}}}}},
            {"pools",
             {{{"design", "gammazero"}, {"config", {{"maxWorkers", 4}, {"idleTimeout", "100ms"}}}},
              {{"design", "fasthttp"}, {"config", {{"MaxWorkersCount", 3}, {"MaxIdleWorkerDuration", "100ms"}}}}}}};
  return parse_scenario(j, "paced.json", ".");
}

std::size_t events_in(const Run& run) {
  return run.with_metrics([](const metrics::RunMetrics& m) { return m.events().size(); });
}

}  // namespace

TEST_CASE("pacer: paused, a step lets exactly one move of virtual time through") {
  Pacer pacer(1.0, /*paused=*/true);
  pacer.step();
  int waits = 0;
  pacer.pace(Time(0), Time(10), [&] { ++waits; });  // the step's: no wait at all
  CHECK(waits == 0);

  std::atomic<bool> through{false};
  std::atomic<int> before{0};
  std::thread world([&] {
    pacer.pace(Time(10), Time(20), [&] { ++before; });
    through = true;
  });
  // It runs its hook once, then waits for a step.
  test::await_condition([&] { return before.load() == 1; }, "the hook before the wait");
  CHECK_FALSE(through.load());
  pacer.step();
  world.join();
  CHECK(through.load());
  CHECK(before.load() == 1);
}

TEST_CASE("paced simulation: paused from the start, each step moves virtual time on and shows its events") {
  // The same seed unpaced: what the paced run must have shown by each instant.
  RunResult whole = run_scenario(paced_scenario(1.0), RunOptions{.keep_events = true});
  auto events_by = [&](Time t) {
    std::size_t n = 0;
    for (const Event& e : whole.metrics.events()) n += e.time <= t.count();
    return n;
  };

  Run run(paced_scenario(1.0), RunOptions{.keep_events = true, .paced = true});
  REQUIRE(run.simulated());
  run.pause();
  run.start();
  CHECK(run.now() == Time(0));
  Time last = run.now();
  for (int i = 0; i < 40; ++i) {
    run.step();
    test::await_condition([&] { return run.now() > last; }, "virtual time moved by a step");
    last = run.now();
    // The pacer drains the trace before it holds the World again: every
    // event up to the step's instant reaches the metrics, none after it.
    test::await_condition([&] { return events_in(run) == events_by(last); }, "the events up to the step's instant");
  }
  CHECK(events_in(run) > 0);
  CHECK(run.paused());
  CHECK_FALSE(run.finished());
  run.stop();  // releases the pacer: the rest runs at once
  run.wait();
  CHECK(run.outcome().stopped);
}

TEST_CASE("paced simulation: the same seed gives the same events paced, sped up and unpaced") {
  RunResult unpaced = run_scenario(paced_scenario(1.0), RunOptions{.keep_events = true});
  REQUIRE(unpaced.outcome.simulation);

  Run run(paced_scenario(200), RunOptions{.keep_events = true, .paced = true});
  run.start();
  test::await_condition([&] { return run.now() > Time(0) || run.finished(); }, "the run under way");
  run.set_time_scale(1000);  // faster while it runs
  run.wait();
  REQUIRE(run.outcome().simulation);
  CHECK(run.outcome().simulation->virtual_end == unpaced.outcome.simulation->virtual_end);

  const auto& a = unpaced.metrics.events();
  const auto& b = run.metrics().events();
  REQUIRE(a.size() == b.size());
  bool same = true;
  for (std::size_t i = 0; i < a.size(); ++i)
    same = same && a[i].time == b[i].time && a[i].kind == b[i].kind && a[i].pool == b[i].pool &&
           a[i].worker == b[i].worker && a[i].task == b[i].task && a[i].rule == b[i].rule;
  CHECK(same);
}

TEST_CASE("paced and sliced (a web page's frames): held, never blocked, while paused or ahead of the wall clock") {
  RunResult whole = run_scenario(paced_scenario(1.0), RunOptions{.keep_events = true});
  auto events_by = [&](Time t) {
    std::size_t n = 0;
    for (const Event& e : whole.metrics.events()) n += e.time <= t.count();
    return n;
  };

  Run run(paced_scenario(1.0), RunOptions{.keep_events = true, .paced = true, .sliced = true});
  run.pause();
  run.start();
  // Paused: a slice returns at once, held at time 0, whatever its budget.
  CHECK_FALSE(run.advance(~std::uint64_t{0}));
  CHECK(run.held());
  CHECK(run.now() == Time(0));
  // Each step lets exactly one move of virtual time through, and what
  // happened up to its instant is in the metrics when the slice returns.
  Time last = run.now();
  for (int i = 0; i < 20; ++i) {
    run.step();
    CHECK_FALSE(run.advance(~std::uint64_t{0}));
    CHECK(run.now() > last);
    last = run.now();
    CHECK(events_in(run) == events_by(last));
  }
  // At a speed the wall clock cannot keep up with, the frames' slices end the run.
  run.set_time_scale(1e9);
  run.resume();
  int slices = 0;
  while (!run.advance(10'000)) ++slices;
  CHECK_FALSE(run.held());
  CHECK(run.outcome().simulation->virtual_end == whole.outcome.simulation->virtual_end);
  CHECK(run.metrics().events().size() == whole.metrics.events().size());
}

TEST_CASE("paced simulation: pause_at holds the run at a moment, every event up to it shown and none after") {
  RunResult whole = run_scenario(paced_scenario(1.0), RunOptions{.keep_events = true});
  auto events_by = [&](Time t) {
    std::size_t n = 0;
    for (const Event& e : whole.metrics.events()) n += e.time <= t.count();
    return n;
  };
  // Sliced, as a page runs it, at a speed the wall clock never holds back:
  // the slices go on until the run pauses itself.
  Run run(paced_scenario(1000), RunOptions{.keep_events = true, .paced = true, .sliced = true});
  run.set_time_scale(1e9);
  const Time moment = std::chrono::milliseconds(120);  // after the burst's tasks, before the reaping
  run.pause_at(moment);
  run.start();
  while (!run.paused()) REQUIRE_FALSE(run.advance(10'000));
  CHECK(run.now() <= moment);
  CHECK(run.paused_at() == moment);
  CHECK(events_in(run) == events_by(moment));
  CHECK(events_in(run) < whole.metrics.events().size());
  CHECK_FALSE(run.advance(~std::uint64_t{0}));  // it stays there
  CHECK(run.held());
  // Resumed, it does not pause there again, and the run is the unpaced one.
  run.resume();
  CHECK_FALSE(run.paused_at());
  while (!run.advance(10'000)) {
  }
  CHECK(run.metrics().events().size() == whole.metrics.events().size());
}
