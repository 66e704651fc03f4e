// The range selection's numbers: over the whole run they are the run's
// (the metrics'), and two ranges that split the run add up to it.
#include "visualizer/model/range_stats.h"

#include <catch2/catch.hpp>

#include "tests/visualizer/rig.h"

using namespace poolscope;
using namespace poolscope::gui;

TEST_CASE("range stats: over the whole run, each pool's counts are the run's: split in two, they add up (issue 21)") {
  auto w = test::run_and_write(true);
  const scenario::ResultFile f = w.read();
  const metrics::RunMetrics m = f.metrics();
  const std::int64_t end = f.events.back().time;
  const auto all = range_stats(f.events, f.pools.size(), 0, end);
  REQUIRE(all.size() == 2);
  for (std::size_t p = 0; p < 2; ++p) {
    const metrics::Summary s = m.pools()[p].summary();
    CHECK(all[p].submitted == s.submitted);
    CHECK(all[p].ended == s.completed + s.threw);
    CHECK(all[p].threw == s.threw);
    CHECK(all[p].refused == s.refused);
    CHECK(all[p].spawned == s.workers_spawned);
    CHECK(all[p].reaped == s.workers_reaped);
    CHECK(all[p].waits.size() == s.queue_wait.count);
    CHECK(all[p].end_to_end.size() == s.end_to_end.count);
    CHECK(quantile(all[p].end_to_end, 1.0) == s.end_to_end.max);
    CHECK(std::is_sorted(all[p].waits.begin(), all[p].waits.end()));
  }
  const std::int64_t mid = end / 2;
  const auto a = range_stats(f.events, 2, 0, mid), b = range_stats(f.events, 2, mid + 1, end);
  for (std::size_t p = 0; p < 2; ++p) {
    CHECK(a[p].ended + b[p].ended == all[p].ended);
    CHECK(a[p].refused + b[p].refused == all[p].refused);
    CHECK(a[p].spawned + b[p].spawned == all[p].spawned);
    CHECK(a[p].waits.size() + b[p].waits.size() == all[p].waits.size());
  }
  // An empty range: nothing.
  const auto none = range_stats(f.events, 2, end + 1, end + 1000);
  CHECK(none[0].ended == 0);
  CHECK(quantile(none[0].waits, 0.5) == 0);
}

TEST_CASE("range stats: a log histogram puts each value in its decade's bins") {
  const std::vector<std::int64_t> v = {1'000, 10'000, 10'000, 100'000, 999'999'999};
  auto h = log_histogram(v, 1'000, 1'000'000, 3);  // 1us-10us, 10us-100us, 100us-1ms (and beyond)
  REQUIRE(h.size() == 3);
  CHECK(h[0] == 1);
  CHECK(h[1] == 2);
  CHECK(h[2] == 2);
}

TEST_CASE("range stats: where a completion follows (nginx), a request's end-to-end ends at its task_completed") {
  auto ev = [](std::int64_t t, EventKind k, TaskId task, std::int64_t arg = 0) {
    Event e;
    e.time = t;
    e.kind = k;
    e.task = task;
    e.worker = k == EventKind::task_completed ? 0 : 1;
    e.arg = arg;
    return e;
  };
  const std::vector<Event> events = {
      ev(0, EventKind::task_submitted, 1),       ev(0, EventKind::task_started, 1),
      ev(1'000, EventKind::task_finished, 1, 1), ev(4'000, EventKind::task_completed, 1, 3'000),
      ev(5'000, EventKind::task_submitted, 2),   ev(5'000, EventKind::task_started, 2),
      ev(6'000, EventKind::task_finished, 2, 0),  // no completion follows: it ends here
  };
  const auto r = range_stats(events, 1, 0, 10'000);
  CHECK(r[0].ended == 2);
  REQUIRE(r[0].end_to_end.size() == 2);
  CHECK(quantile(r[0].end_to_end, 1.0) == 4'000);
  CHECK(quantile(r[0].end_to_end, 0.5) == 1'000);
}
