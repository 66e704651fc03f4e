// The live session: a scenario edited as a document (validated as the runner
// validates it), then run, tuned while it runs, and stopped.
#include "visualizer/model/live.h"

#include <catch2/catch.hpp>

#include "pools/core/registry.h"
#include "pools/core/submit_gate.h"
#include "tests/support/sync.h"

using namespace poolscope;
using namespace poolscope::gui;

namespace {

const Label kInline = intern_label("gui-test-inline", "gui test pool: the submitter runs the task");
const Label kLimit = intern_label("Limit", "gui test pool: its Limit changed");

// A design registered only in this binary, with one live parameter and one
// that is not: tasks run on the submitting thread.
class TunablePool final : public Pool {
 public:
  TunablePool(const Params& p, const TraceTarget& t) : trace_(t, "gui-tunable"), limit_(p.integer("Limit")) {}
  ~TunablePool() override { shutdown(ShutdownMode::graceful); }
  std::string_view design() const override { return "gui-tunable"; }
  SubmitResult submit(Task task, const SubmitOptions&) override {
    return gate_.pass(trace_, [&] {
      Job job{trace_.submitted(), std::move(task)};
      trace_.handoff(job.id, 0, kInline);
      trace_.run(0, job);
      return SubmitResult::accept();
    });
  }
  void shutdown(ShutdownMode mode) override {
    if (gate_.shut()) trace_.stopped(stopped_rule(mode), 0);
  }
  Counters state() const override { return trace_.counters(); }
  json params() const override { return {{"Limit", limit_.load()}}; }
  void set_param(std::string_view, const ParamValue& v) override {
    limit_ = v.integer();
    trace_.tuned(kLimit, v.integer());
  }
  const PoolTrace& trace() const override { return trace_; }

 private:
  PoolTrace trace_;
  SubmitGate gate_;
  std::atomic<std::int64_t> limit_;
};

Design tunable_design() {
  return Design{.name = "gui-tunable",
                .summary = "a pool with a live parameter, for the GUI's tests",
                .origin = "lab",
                .params = {{.name = "Limit", .type = ParamType::integer, .default_value = 4, .min = 1, .live = true},
                           {.name = "Fixed", .type = ParamType::boolean, .default_value = false}},
                .make = [](const Params& p, const TraceTarget& t) { return std::make_unique<TunablePool>(p, t); }};
}
POOLSCOPE_REGISTER_DESIGN(tunable_design);

json scenario_with_idle(const std::string& idle) {
  return {{"name", "live"},
          {"lesson", "a run the GUI drives"},
          {"time_scale", 1},
          {"task", {{"duration", "1ms"}}},
          {"phases",
           {{{"name", "some"}, {"duration", "50ms"}, {"arrival", {{"kind", "burst"}, {"count", 5}}}},
            {{"name", "wait"}, {"duration", idle}, {"arrival", {{"kind", "idle"}}}}}},
          {"pools", {{{"design", "gui-tunable"}}}}};
}

}  // namespace

TEST_CASE("live session: edits are validated as the runner validates them, with the JSON path") {
  LiveSession s(scenario_with_idle("100ms"), "live.json", ".");
  REQUIRE(s.scenario());
  CHECK(s.document()["pools"][0]["name"] == "gui-tunable");  // normalized: every pool named

  s.set_param(0, "Limit", 7);
  REQUIRE(s.scenario());
  CHECK(s.scenario()->pools[0].config["Limit"] == 7);
  s.set_param(0, "Limit", 0);  // below its minimum
  CHECK_FALSE(s.scenario());
  CHECK_THAT(s.error(), Catch::Contains("live.json") && Catch::Contains("/pools/0/config/Limit"));
  CHECK_FALSE(s.start());            // an invalid document does not run
  s.set_param(0, "Limit", nullptr);  // back to the default
  REQUIRE(s.scenario());
  CHECK_FALSE(s.document()["pools"][0]["config"].contains("Limit"));

  s.add_pool("gui-tunable");
  s.add_pool("gui-tunable");
  REQUIRE(s.scenario());
  REQUIRE(s.scenario()->pools.size() == 3);
  CHECK(s.scenario()->pools[2].name == "gui-tunable-3");  // names stay unique
  s.remove_pool(1);
  CHECK(s.scenario()->pools.size() == 2);
  s.set_seed(99);
  CHECK(s.scenario()->seed == 99);
}

TEST_CASE("live session: a run is tuned while it goes on, and refuses what cannot change") {
  LiveSession s(scenario_with_idle("60s"), "live.json", ".");
  CHECK(s.state() == LiveSession::State::ready);
  CHECK(s.tune("gui-tunable", "Limit", 3) == "no run in progress");
  REQUIRE(s.start());
  CHECK(s.state() == LiveSession::State::running);
  // The engine builds its pools a moment after the run starts.
  test::await_condition([&] { return s.tune("gui-tunable", "Limit", 9).empty(); }, "Limit tuned to 9");
  CHECK(s.tuned().at("gui-tunable").at("Limit") == 9);
  CHECK_THAT(s.tune("gui-tunable", "Fixed", true), Catch::Contains("cannot change 'Fixed' while running"));
  CHECK_THAT(s.tune("gui-tunable", "Limit", 0), Catch::Contains("/Limit"));
  CHECK_THAT(s.tune("nobody", "Limit", 2), Catch::Contains("'nobody' is not running"));

  // The tuning is in the trace, as the views see it.
  test::await_condition(
      [&] {
        bool seen = false;
        s.with_frame([&](const Frame& f) {
          if (f.metrics.pools().empty()) return;
          for (const auto& m : f.metrics.pools()[0].markers())
            seen = seen || (m.kind == EventKind::param_tuned && m.arg == 9 && m.rule == kLimit);
        });
        return seen;
      },
      "the param_tuned event in the frame's metrics");

  s.pause();
  CHECK(s.state() == LiveSession::State::paused);
  s.resume();
  s.stop();
  s.run()->wait();
  CHECK(s.state() == LiveSession::State::finished);
  CHECK(s.run()->outcome().stopped);
}

namespace {

// Two real designs under a burst, then idle: enough threads for the
// schedule to matter, short enough to run to its end at full speed.
json simulated_scenario() {
  return {{"name", "live-sim"},
          {"lesson", "a simulated run the GUI drives"},
          {"seed", 6},
          {"time_scale", 1},
          {"simulation", {{"cpus", 2}, {"costs", "goroutines"}, {"policy", "pct"}, {"seed", 41u}}},
          {"task", {{"duration", "4ms"}}},
          {"phases",
           {{{"name", "burst"}, {"duration", "40ms"}, {"arrival", {{"kind", "burst"}, {"count", 10}}}},
            {{"name", "idle"}, {"duration", "200ms"}, {"arrival", {{"kind", "idle"}}}}}},
          {"pools",
           {{{"design", "gammazero"}, {"config", {{"maxWorkers", 3}, {"idleTimeout", "50ms"}}}},
            {{"design", "ants"}, {"config", {{"size", 2}, {"ExpiryDuration", "50ms"}}}}}}};
}

// The events a finished run's frame shows, as text: one line each.
std::string frame_events(LiveSession& s) {
  std::string out;
  s.with_frame([&](const Frame& f) {
    for (const Event& e : f.events)
      out += std::to_string(e.time) + " " + std::to_string(e.pool) + " " +
             std::to_string(static_cast<int>(e.kind)) + " " + std::to_string(e.worker) + " " +
             std::to_string(e.task) + " " + std::to_string(e.rule) + "\n";
  });
  return out;
}

}  // namespace

TEST_CASE("live session: the scenario's simulation key chooses the mode, and switching keeps the settings") {
  LiveSession real(scenario_with_idle("100ms"), "live.json", ".");
  CHECK_FALSE(real.simulated());
  CHECK(real.mode().badge() == "REAL threads");

  LiveSession s(simulated_scenario(), "live-sim.json", ".");
  INFO(s.error());
  REQUIRE(s.scenario());
  CHECK(s.simulated());
  CHECK(s.mode().badge() == "SIMULATED (seed 41, 2 CPUs, goroutines, pct)");

  s.set_time_scale(500);
  s.set_simulated(false);
  REQUIRE(s.scenario());
  CHECK_FALSE(s.scenario()->simulation);
  CHECK_FALSE(s.document().contains("simulation"));
  CHECK(s.time_scale() == kRealScaleMax);  // real threads go no faster than 100x
  s.set_simulated(true);
  REQUIRE(s.scenario()->simulation);
  CHECK(s.scenario()->simulation->costs == "goroutines");  // kept while it was off
  CHECK(*s.scenario()->simulation->seed == 41);

  scenario::SimulationSpec spec = s.simulation();
  spec.cpus = 8;
  spec.costs = "free";
  spec.policy = "fifo";
  spec.seed.reset();  // derived from the scenario's seed, as the runner derives it
  s.set_simulation(spec);
  REQUIRE(s.scenario());
  CHECK(s.scenario()->simulation->cpus == 8);
  CHECK(s.schedule_seed() == scenario::simulation_settings(*s.scenario()).seed);
  CHECK_THAT(s.mode().badge(), Catch::StartsWith("SIMULATED (seed ") && Catch::EndsWith(", 8 CPUs, free, fifo)"));
}

TEST_CASE("live session: a simulated run starts with its settings, paced, and a step moves it on while paused") {
  LiveSession s(simulated_scenario(), "live-sim.json", ".");
  REQUIRE(s.start(/*paused=*/true));
  REQUIRE(s.run()->simulated());
  CHECK(s.state() == LiveSession::State::paused);
  CHECK(s.mode().badge() == "SIMULATED (seed 41, 2 CPUs, goroutines, pct)");
  CHECK(s.can_step());
  CHECK(s.run()->now() == Time(0));
  CHECK_THAT(s.tune("gammazero", "maxWorkers", 5), Catch::Contains("simulated run cannot be tuned"));

  Time last{0};
  for (int i = 0; i < 10; ++i) {
    s.step();
    test::await_condition([&] { return s.run()->now() > last; }, "virtual time moved by a step");
    last = s.run()->now();
  }
  CHECK(s.state() == LiveSession::State::paused);  // a step does not resume it
  s.with_frame([&](const Frame& f) { CHECK(f.now >= last.count()); });

  s.set_time_scale(kSimSpeedMax);
  s.resume();
  s.run()->wait();
  CHECK(s.state() == LiveSession::State::finished);
  CHECK_FALSE(s.can_step());
  REQUIRE(s.run()->outcome().simulation);
  CHECK(s.run()->outcome().simulation->settings.seed == 41);
  CHECK_FALSE(s.run()->outcome().stopped);
}

TEST_CASE("live session: a finished simulated run's frame is the same for the same seed") {
  LiveSession s(simulated_scenario(), "live-sim.json", ".");
  s.set_time_scale(kSimSpeedMax);
  REQUIRE(s.start());
  s.run()->wait();
  const std::string first = frame_events(s);
  CHECK(std::count(first.begin(), first.end(), '\n') > 40);

  REQUIRE(s.start());  // run again: the same seed
  s.run()->wait();
  const bool same = frame_events(s) == first;  // a boolean: Catch would print both traces
  CHECK(same);
}
