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
