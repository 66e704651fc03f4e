// The drawing index over a run's metrics: built incrementally as a live run
// grows, equal to one built at once, and able to name the event behind a point.
#include "visualizer/model/trace_index.h"

#include <catch2/catch.hpp>

#include "tests/visualizer/rig.h"

using namespace poolscope;
using namespace poolscope::gui;

TEST_CASE("trace index: fed in pieces, as a live run grows, it equals one built at once") {
  auto f = test::run_and_write(true).read();
  std::span<const Event> all = f.events;

  metrics::RunMetrics whole = f.metrics();
  TraceIndex at_once;
  at_once.sync(whole, all);

  metrics::RunMetrics growing;
  growing.set_pools(f.pool_infos());
  TraceIndex pieces;
  for (std::size_t done = 0; done < all.size();) {
    std::size_t n = std::min<std::size_t>(37, all.size() - done);
    growing.add(all.subspan(done, n));
    done += n;
    pieces.sync(growing, all.first(done));
  }

  REQUIRE(pieces.pools() == at_once.pools());
  CHECK(pieces.last_time() == at_once.last_time());
  for (std::size_t p = 0; p < pieces.pools(); ++p) {
    const PoolIndex &a = at_once.pool(p), &b = pieces.pool(p);
    REQUIRE(a.times == b.times);
    for (int c = 0; c < kCounterCount; ++c) {
      REQUIRE(b.values[c].size() == a.values[c].size());
      for (std::size_t i = 0; i < a.times.size(); ++i) REQUIRE(b.values[c][i] == a.values[c][i]);
    }
    for (int row = 0; row < kMarkerRowCount; ++row) CHECK(a.markers[row] == b.markers[row]);
    CHECK(a.events == b.events);
  }
}

TEST_CASE("trace index: markers go to their rows, counters to their plots") {
  auto f = test::run_and_write(true).read();
  metrics::RunMetrics m = f.metrics();
  TraceIndex ix;
  ix.sync(m, f.events);
  const PoolIndex& fast = ix.pool(0);
  const auto& markers = m.pool(0)->markers();
  for (int row = 0; row < kMarkerRowCount; ++row)
    for (std::uint32_t i : fast.markers[row]) CHECK(static_cast<int>(marker_row(markers[i].kind)) == row);
  CHECK_FALSE(fast.markers[static_cast<int>(MarkerRow::workers)].empty());
  CHECK_FALSE(fast.markers[static_cast<int>(MarkerRow::tasks)].empty());  // refusals and throws

  // The reaping mechanisms, in the order they first fired: the reap glyphs' colours.
  std::vector<Label> reaps;
  for (const auto& mk : markers)
    if (mk.kind == EventKind::worker_reaped && std::find(reaps.begin(), reaps.end(), mk.rule) == reaps.end())
      reaps.push_back(mk.rule);
  CHECK_FALSE(reaps.empty());
  CHECK(fast.reap_rules == reaps);

  const auto& series = m.pool(0)->series();
  REQUIRE(fast.times.size() == series.size());
  for (std::size_t i = 0; i < series.size(); ++i) {
    CHECK(fast.values[static_cast<int>(Counter::idle)][i] == series[i].c.idle());
    CHECK(fast.values[static_cast<int>(Counter::queued)][i] == series[i].c.queued);
  }
}

TEST_CASE("trace index: the event behind a series point is found by its time and counters") {
  auto f = test::run_and_write(true).read();
  metrics::RunMetrics m = f.metrics();
  TraceIndex ix;
  ix.sync(m, f.events);
  for (std::size_t p = 0; p < m.pools().size(); ++p) {
    const metrics::PoolMetrics& pm = m.pools()[p];
    for (std::size_t i = 0; i < pm.series().size(); ++i) {
      const Event* e = ix.event_for_point(pm, i, f.events);
      REQUIRE(e != nullptr);
      CHECK(e->pool == p);
      CHECK(e->counters == pm.series()[i].c);
    }
  }
  CHECK(ix.event_for_point(m.pools()[0], m.pools()[0].series().size(), f.events) == nullptr);
}

namespace {

Event ev(std::int64_t t, EventKind kind, TaskId task, WorkerId worker) {
  Event e;
  e.time = t;
  e.kind = kind;
  e.task = task;
  e.worker = worker;
  return e;
}

}  // namespace

TEST_CASE("trace index: tasks the caller ran (worker 0) get caller lanes, one per caller busy at once") {
  // Task 1 on worker 3; tasks 2 and 3 run by callers at the same time (two
  // submitters), task 4 by a caller after both ended, and it throws.
  const std::vector<Event> events = {
      ev(10, EventKind::task_started, 1, 3),  ev(20, EventKind::task_started, 2, 0),
      ev(30, EventKind::task_started, 3, 0),  ev(40, EventKind::task_finished, 2, 0),
      ev(50, EventKind::task_finished, 1, 3), ev(60, EventKind::task_finished, 3, 0),
      ev(70, EventKind::task_started, 4, 0),  ev(80, EventKind::task_threw, 4, 0),
  };
  metrics::RunMetrics m;
  m.set_pools({PoolInfo{0, "java", "java"}});
  m.add(events);
  TraceIndex ix;
  ix.sync(m, events);
  const PoolIndex& p = ix.pool(0);
  REQUIRE(p.callers.size() == 2);
  CHECK(p.callers[0].id == 1);
  CHECK(p.callers[1].id == 2);
  REQUIRE(p.callers[0].slices.size() == 2);
  CHECK(p.callers[0].slices[0].task == 2);
  CHECK(p.callers[0].slices[0].start == 20);
  CHECK(p.callers[0].slices[0].end == 40);
  CHECK(p.callers[0].slices[1].task == 4);
  CHECK(p.callers[0].slices[1].threw);
  REQUIRE(p.callers[1].slices.size() == 1);
  CHECK(p.callers[1].slices[0].task == 3);
  CHECK(p.callers[1].slices[0].end == 60);
  CHECK(p.callers_running.empty());
  // The metrics leave worker 0 off the worker lanes: only worker 3 has one.
  REQUIRE(m.pools()[0].lanes().size() == 1);
  CHECK(m.pools()[0].lanes()[0].id == 3);
}

TEST_CASE("trace index: Java with CallerRunsPolicy shows the tasks its caller ran, with the rule") {
  json j = {
      {"name", "caller-runs"},
      {"lesson", "a saturated CallerRuns pool makes the submitter run the task"},
      {"seed", 1},
      {"time_scale", 10},
      {"task", {{"kind", "sleep"}, {"duration", "50ms"}}},
      {"phases", {{{"name", "burst"}, {"duration", "300ms"}, {"arrival", {{"kind", "burst"}, {"count", 8}}}}}},
      {"pools",
       {{{"design", "java"},
         {"config",
          {{"corePoolSize", 1},
           {"maximumPoolSize", 1},
           {"workQueue", "ArrayBlockingQueue"},
           {"queueCapacity", 1},
           {"handler", "CallerRunsPolicy"}}}}}},
  };
  auto s = scenario::parse_scenario(j, "caller-runs.json", ".");
  auto run = scenario::run_scenario(s, scenario::RunOptions{.keep_events = true});
  TraceIndex ix;
  ix.sync(run.metrics, run.metrics.events());
  const PoolIndex& p = ix.pool(0);
  REQUIRE_FALSE(p.callers.empty());
  std::size_t ran = 0;
  for (const auto& lane : p.callers) ran += lane.slices.size();
  CHECK(ran >= 1);
  CHECK(label_code(p.caller_rule) == "caller-runs");
  for (const auto& lane : p.callers)
    for (const auto& slice : lane.slices) CHECK(slice.end >= slice.start);
}
