// What the GUI says about the run on screen: the mode badge of a result file
// (real threads, or the simulation with its machine and schedule), and where
// a failing schedule written by `poolscope explore` is opened.
#include "visualizer/model/run_mode.h"

#include <catch2/catch.hpp>

#include "tests/visualizer/rig.h"
#include "visualizer/model/failing_schedule.h"

using namespace poolscope;
using namespace poolscope::gui;

TEST_CASE("run mode: a result's badge says real threads, or the simulation's seed, CPUs and costs") {
  const test::Written real = test::run_and_write(false);
  CHECK(RunMode::of_result(real.read().run).badge() == "REAL threads");

  scenario::Scenario s = test::two_pools();
  sim::Settings settings;
  settings.seed = 29;
  settings.cpus = 1;
  settings.costs = sim::costs_preset("goroutines");
  settings.policy = sim::Policy::pct;
  scenario::RunResult r = scenario::run_scenario(s, scenario::RunOptions{.simulation = settings});
  std::ostringstream out;
  scenario::write_result(out, s, r.outcome, r.metrics, {});
  std::istringstream in(out.str());
  const RunMode mode = RunMode::of_result(scenario::read_result(in, "sim.json").run);
  CHECK(mode.simulated);
  CHECK(mode.badge() == "SIMULATED (seed 29, 1 CPU, goroutines, pct)");
  CHECK(RunMode::of(settings).badge() == mode.badge());  // a live run says it the same way
  settings.policy = sim::Policy::random;  // the default policy goes unsaid
  CHECK(RunMode::of(settings).badge() == "SIMULATED (seed 29, 1 CPU, goroutines)");
}

TEST_CASE("failing schedule: read from explore's block, and viewed from before it built to after it showed") {
  CHECK_FALSE(FailingSchedule::of_result(nullptr));
  CHECK_FALSE(FailingSchedule::of_result(json{{"problem", "no moment"}}));
  const json block = {{"schedule", 29},   {"schedules_run", 29}, {"problem", "pool 'p' stalled"},
                      {"at_s", 3.5},      {"since_s", 1.5},     {"replay", "poolscope run s --sim-seed 29 --policy pct"}};
  const auto f = FailingSchedule::of_result(block);
  REQUIRE(f);
  CHECK(f->schedule == 29);
  CHECK(f->at == 3'500'000'000);
  CHECK(f->since == 1'500'000'000);
  CHECK(f->replay == "poolscope run s --sim-seed 29 --policy pct");
  const auto [from, to] = f->view();
  CHECK(from == Approx(1.3e9));
  CHECK(to == Approx(3.7e9));
  // At the very start: the view does not go below 0, and keeps a millisecond around the moment.
  const auto g = FailingSchedule::of_result(json{{"at_s", 0.0}});
  REQUIRE(g);
  CHECK(g->view().first == 0);
  CHECK(g->view().second == Approx(1e6));
}
