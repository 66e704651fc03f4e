// Reading a result file back gives the events and the metrics the run had.
#include "scenarios/engine/result_reader.h"

#include <sstream>

#include <catch2/catch.hpp>

#include "pools/fasthttp/rules.h"
#include "tests/visualizer/rig.h"

using namespace poolscope;
using namespace poolscope::scenario;

using test::run_and_write;
using test::Written;

namespace {

std::vector<Event> of_pool(const std::vector<Event>& all, PoolId pool) {
  std::vector<Event> out;
  for (const Event& e : all)
    if (e.pool == pool) out.push_back(e);
  return out;
}

}  // namespace

TEST_CASE("result reader: a result written with --events reads back into the same events and metrics") {
  Written w = run_and_write(true);
  ResultFile f = w.read();

  REQUIRE(f.has_events);
  CHECK(f.status == "ok");
  CHECK(f.scenario["name"] == "reader");
  REQUIRE(f.pools.size() == 2);
  CHECK(f.pools[0].info.name == "fasthttp");
  CHECK(f.pools[1].info.design == "spawn");
  CHECK(f.pools[0].config["MaxWorkersCount"] == 2);
  REQUIRE(f.events.size() == w.run.metrics.events().size());

  for (std::size_t i = 0; i < 2; ++i) {
    auto original = of_pool(w.run.metrics.events(), w.run.outcome.pools[i].trace_id);
    auto read = of_pool(f.events, static_cast<PoolId>(i));
    REQUIRE(read.size() == original.size());
    CHECK(f.pools[i].events == read.size());
    for (std::size_t k = 0; k < read.size(); ++k) {
      INFO("pool " << i << " event " << k);
      const Event &a = original[k], &b = read[k];
      REQUIRE(b.time == a.time);
      REQUIRE(b.kind == a.kind);
      REQUIRE(b.worker == a.worker);
      REQUIRE(b.task == a.task);
      REQUIRE(b.arg == a.arg);
      REQUIRE(b.arg2 == a.arg2);
      REQUIRE(b.counters == a.counters);
      REQUIRE(label_code(b.rule) == label_code(a.rule));
      REQUIRE(label_text(b.rule) == label_text(a.rule));
    }
  }

  // The metrics rebuilt from the file are the run's.
  metrics::RunMetrics m = f.metrics();
  for (std::size_t i = 0; i < 2; ++i) {
    const metrics::PoolMetrics& a = *w.run.metrics.pool(w.run.outcome.pools[i].trace_id);
    const metrics::PoolMetrics& b = *m.pool(static_cast<PoolId>(i));
    metrics::Summary sa = a.summary(), sb = b.summary();
    CHECK(sb.submitted == sa.submitted);
    CHECK(sb.completed == sa.completed);
    CHECK(sb.threw == sa.threw);
    CHECK(sb.refused_by_reason == sa.refused_by_reason);
    CHECK(sb.spawned_by_rule == sa.spawned_by_rule);
    CHECK(sb.reaped_by_rule == sa.reaped_by_rule);
    CHECK(sb.queue_wait.p99 == sa.queue_wait.p99);
    CHECK(sb.peak_workers == sa.peak_workers);
    CHECK(sb.mean_workers == Approx(sa.mean_workers));
    CHECK(b.series().size() == a.series().size());
    CHECK(b.lanes().size() == a.lanes().size());
    CHECK(b.markers().size() == a.markers().size());
  }
  // The run refused and reaped, so the file named those rules, with their reasons.
  CHECK(m.pool(0)->totals().refused > 0);
  // (fasthttp's text: rulego's refusal shares the code, so find_label may give either.)
  CHECK(f.pools[0].rules.at("no-idle-workers") == label_text(fasthttp::kNoIdleWorkers));

  // Merged by time: each pool's running maximum never goes back.
  std::vector<std::int64_t> last(2, 0);
  std::int64_t previous = 0;
  for (const Event& e : f.events) {
    last[e.pool] = std::max(last[e.pool], e.time);
    REQUIRE(last[e.pool] >= previous);
    previous = last[e.pool];
  }
}

TEST_CASE("result reader: a result without events has its pools and summaries, and says so") {
  Written w = run_and_write(false);
  ResultFile f = w.read();
  CHECK_FALSE(f.has_events);
  CHECK(f.events.empty());
  REQUIRE(f.pools.size() == 2);
  CHECK(f.pools[0].summary["tasks"]["submitted"] ==
        w.run.metrics.pool(w.run.outcome.pools[0].trace_id)->totals().submitted);
}

TEST_CASE("result reader: errors name the file, the JSON path and what was expected") {
  auto error_of = [](const std::string& text) {
    std::istringstream in(text);
    try {
      read_result(in, "bad.json");
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of("{\"format\": \"poolscope-result/9\"}"),
             Catch::Contains("bad.json: /format: expected \"poolscope-result/1\""));
  CHECK_THAT(error_of("{\"format\": \"poolscope-result/1\""), Catch::Contains("bad.json: not valid JSON"));
  const std::string head =
      R"({"format": "poolscope-result/1", "status": "ok", "scenario": {}, "pools": [{"name": "p", "design": "spawn", "events": [)";
  CHECK_THAT(
      error_of(
          head +
          R"({"t": 0.5, "kind": "task_started", "counters": [1, 1, 0, 0]}, {"t": 1, "kind": "task_begun", "counters": [1, 1, 0, 0]}]}]})"),
      Catch::Contains("/pools/0/events/1/kind: expected an event kind"));
  CHECK_THAT(error_of(head + R"({"t": 1, "kind": "task_started", "counters": [1, 1]}]}]})"),
             Catch::Contains("/pools/0/events/0/counters: expected 4 counters"));
  CHECK_THAT(error_of(head + R"({"t": 1, "kind": "task_started", "counters": [1, 1, 0, 0], "wrker": 3}]}]})"),
             Catch::Contains("/pools/0/events/0/wrker"));
  CHECK_THAT(error_of(head + R"({"kind": "task_started", "counters": [1, 1, 0, 0]}]}]})"),
             Catch::Contains("/pools/0/events/0/t: expected the event's time"));

  std::istringstream ok(
      head + R"({"t": 0.25, "kind": "worker_spawned", "worker": 1, "rule": "made-up", "counters": [1, 0, 0, 0]}]}]})");
  ResultFile f = read_result(ok, "ok.json");
  REQUIRE(f.events.size() == 1);
  CHECK(f.events[0].time == 250'000'000);
  CHECK(label_code(f.events[0].rule) == "made-up");
  CHECK(f.events[0].counters.workers == 1);
}

TEST_CASE("result reader: events that are not an array, and times out of range, are refused (issue 26.7)") {
  auto error_of = [](const std::string& text) {
    std::istringstream in(text);
    try {
      read_result(in, "bad.json");
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string pool = R"({"format": "poolscope-result/1", "status": "ok", "scenario": {}, "pools": [{"name": "p", "design": "spawn", )";
  CHECK_THAT(error_of(pool + R"("events": {}}]})"), Catch::Contains("bad.json: /pools/0/events: expected an array of events"));
  CHECK_THAT(error_of(pool + R"("events": 3}]})"), Catch::Contains("/pools/0/events: expected an array of events"));
  for (const char* t : {"1e300", "-1e300", "1e7", "-2e6"})
    CHECK_THAT(error_of(pool + R"("events": [{"t": )" + t + R"(, "kind": "task_started", "counters": [1, 1, 0, 0]}]}]})"),
               Catch::Contains("/pools/0/events/0/t: expected a time in seconds, from -1e6 to 1e6"));
  std::istringstream ok(pool + R"("events": [{"t": 999999, "kind": "task_started", "counters": [1, 1, 0, 0]}]}]})");
  CHECK(read_result(ok, "ok.json").events.at(0).time == 999'999'000'000'000);
}
