// Metrics from a hand-written event stream: every number checked by hand.
#include "scenarios/engine/metrics.h"

#include <catch2/catch.hpp>

using namespace poolscope;
using namespace poolscope::metrics;

namespace {

constexpr std::int64_t ms = 1'000'000;

struct Script {
  std::vector<Event> events;
  Counters c;
  void add(std::int64_t t, EventKind k, WorkerId w = 0, TaskId task = 0, Label rule = kNoLabel, std::int64_t arg = 0) {
    switch (k) {
      case EventKind::worker_spawned:
        ++c.workers;
        break;
      case EventKind::worker_exited:
        --c.workers;
        break;
      case EventKind::task_started:
        ++c.busy;
        break;
      case EventKind::task_finished:
      case EventKind::task_threw:
        --c.busy;
        break;
      case EventKind::task_queued:
        ++c.queued;
        break;
      case EventKind::task_handoff:
        c.queued -= arg;
        break;
      default:
        break;
    }
    Event e;
    e.time = t;
    e.kind = k;
    e.worker = w;
    e.task = task;
    e.rule = rule;
    e.arg = arg;
    e.counters = c;
    events.push_back(e);
  }
};

}  // namespace

TEST_CASE("metrics: counts, latencies, peaks and time-weighted means from a known stream") {
  Label spawn = intern_label("m-spawn"), reap = intern_label("m-reap"), full = intern_label("m-full");
  Script s;
  s.add(0, EventKind::worker_spawned, 1, 0, spawn);
  s.add(0, EventKind::task_submitted, 0, 1);
  s.add(0, EventKind::task_started, 1, 1);
  s.add(10 * ms, EventKind::task_submitted, 0, 2);
  s.add(10 * ms, EventKind::task_queued, 0, 2);
  s.add(20 * ms, EventKind::task_finished, 1, 1);
  s.add(20 * ms, EventKind::task_handoff, 1, 2, kNoLabel, 1);
  s.add(20 * ms, EventKind::task_started, 1, 2);
  s.add(25 * ms, EventKind::task_submitted, 0, 3);
  s.add(25 * ms, EventKind::task_refused, 0, 3, full);
  s.add(60 * ms, EventKind::task_threw, 1, 2);
  s.add(100 * ms, EventKind::worker_reaped, 1, 0, reap, 40 * ms);
  s.add(100 * ms, EventKind::worker_exited, 1, 0, reap);

  RunMetrics run;
  run.set_pools({PoolInfo{0, "p", "demo"}});
  run.add(s.events);
  const PoolMetrics& p = *run.pool(0);
  Summary sum = p.summary();
  CHECK(sum.submitted == 3);
  CHECK(sum.completed == 1);
  CHECK(sum.threw == 1);
  CHECK(sum.refused == 1);
  CHECK(sum.refused_by_reason == std::map<std::string, std::uint64_t>{{"m-full", 1}});
  CHECK(sum.reaped_by_rule == std::map<std::string, std::uint64_t>{{"m-reap", 1}});
  CHECK(sum.invariant_holds());
  CHECK(sum.queue_wait.count == 2);
  CHECK(sum.queue_wait.max == 10 * ms);  // task 2 waited from 10 to 20 ms
  CHECK(sum.queue_wait.p50 == 0);
  CHECK(sum.service.p50 == 20 * ms);
  CHECK(sum.service.max == 40 * ms);
  CHECK(sum.end_to_end.max == 50 * ms);
  CHECK(sum.peak_workers == 1);
  CHECK(sum.peak_queued == 1);
  CHECK(sum.final_workers == 0);
  // One worker alive for the whole 100 ms; busy from 0 to 60 ms.
  CHECK(sum.mean_workers == Approx(1.0));
  CHECK(sum.mean_busy == Approx(0.6));
  CHECK(sum.utilisation == Approx(0.6));
  // Two tasks ended in the 60 ms from the first submission to the last end.
  CHECK(sum.throughput == Approx(2 / 0.060));

  // Step series: one point per change of the counters, not per event.
  CHECK(p.series().size() == 8);
  REQUIRE(p.lanes().size() == 1);
  const WorkerLane& lane = p.lanes()[0];
  CHECK(lane.spawn_rule == spawn);
  CHECK(lane.reaped == 100 * ms);
  CHECK(lane.idle_before_reap == 40 * ms);
  REQUIRE(lane.slices.size() == 2);
  CHECK(lane.slices[1].start == 20 * ms);
  CHECK(lane.slices[1].end == 60 * ms);
  CHECK(lane.slices[1].threw);
  CHECK(p.markers().size() == 5);  // spawned, refused, threw, reaped, exited
  REQUIRE(p.last_rule() != nullptr);
  CHECK(p.last_rule()->rule == reap);
  CHECK(p.last_progress() == 60 * ms);
}

TEST_CASE("metrics: percentiles use the nearest rank") {
  Script s;
  for (TaskId i = 1; i <= 100; ++i) {
    s.add(0, EventKind::task_submitted, 0, i);
    s.add(0, EventKind::task_started, static_cast<WorkerId>(i), i);
  }
  for (TaskId i = 1; i <= 100; ++i)
    s.add(static_cast<std::int64_t>(i) * ms, EventKind::task_finished, static_cast<WorkerId>(i), i);
  RunMetrics run;
  run.add(s.events);
  Summary sum = run.pool(0)->summary();
  CHECK(sum.service.p50 == 50 * ms);
  CHECK(sum.service.p95 == 95 * ms);
  CHECK(sum.service.p99 == 99 * ms);
  CHECK(sum.service.max == 100 * ms);
  CHECK(sum.service.mean == Approx(50.5 * ms));
}

TEST_CASE("metrics: a timestamp a few ns out of order does not run the timeline backwards") {
  Script s;
  s.add(100, EventKind::task_submitted, 0, 1);
  s.add(90, EventKind::task_started, 1, 1);  // recorded by another thread, a hair earlier
  RunMetrics run;
  run.add(s.events);
  CHECK(run.pool(0)->last_time() == 100);
  CHECK(run.pool(0)->summary().queue_wait.max == 0);
}

TEST_CASE("metrics: blocked submitters' time, one sample per wait, summed and as percentiles") {
  Script s;
  s.add(0, EventKind::task_submitted, 0, 1);
  s.add(0, EventKind::submitter_blocked, 0, 1);
  s.add(30 * ms, EventKind::submitter_unblocked, 0, 1);
  s.add(30 * ms, EventKind::submitter_blocked, 0, 1);  // ants retries: a second wait of the same submit
  s.add(40 * ms, EventKind::submitter_unblocked, 0, 1);
  s.add(40 * ms, EventKind::task_submitted, 0, 2);
  s.add(40 * ms, EventKind::submitter_blocked, 0, 2);
  s.add(100 * ms, EventKind::submitter_unblocked, 0, 2);
  RunMetrics run;
  run.add(s.events);
  Summary sum = run.pool(0)->summary();
  CHECK(sum.blocked.count == 3);
  CHECK(sum.blocked_total == 100 * ms);
  CHECK(sum.blocked.p99 == 60 * ms);
  CHECK(sum.blocked.p50 == 30 * ms);
}

TEST_CASE("metrics: utilisation stays a fraction when tasks outlive their workers (weedge's time-outs)") {
  // One worker; its task times out at 10 ms and runs on in its own thread
  // while the worker takes two more (issue 36: busy ÷ workers gave 1.5
  // here, past the result schema's maximum of 1).
  Script s;
  s.add(0, EventKind::worker_spawned, 1);
  s.add(0, EventKind::task_submitted, 0, 1);
  s.add(0, EventKind::task_started, 1, 1);
  s.add(10 * ms, EventKind::task_submitted, 0, 2);
  s.add(10 * ms, EventKind::task_started, 1, 2);
  s.add(20 * ms, EventKind::task_submitted, 0, 3);
  s.add(20 * ms, EventKind::task_started, 1, 3);
  s.add(60 * ms, EventKind::task_finished, 1, 1);
  s.add(60 * ms, EventKind::task_finished, 1, 2);
  s.add(60 * ms, EventKind::task_finished, 1, 3);
  s.add(100 * ms, EventKind::worker_exited, 1);

  RunMetrics run;
  run.set_pools({PoolInfo{0, "p", "demo"}});
  run.add(s.events);
  Summary sum = run.pool(0)->summary();
  CHECK(sum.mean_workers == Approx(1.0));
  CHECK(sum.peak_busy == 3);
  CHECK(sum.mean_busy == Approx((1 * 10 + 2 * 10 + 3 * 40) / 100.0));  // busy counts every running task
  CHECK(sum.utilisation == Approx(0.6));  // the worker's time with a task: 0 to 60 ms of 100
  CHECK(sum.utilisation <= 1.0);
}

TEST_CASE("metrics: where a completion follows (nginx), a request ends at its task_completed") {
  Script s;
  s.add(0, EventKind::task_submitted, 0, 1);
  s.add(0, EventKind::task_submitted, 0, 2);
  s.add(0, EventKind::task_started, 1, 1);
  s.add(0, EventKind::task_started, 2, 2);
  s.add(10 * ms, EventKind::task_finished, 1, 1, kNoLabel, 1);  // arg 1: its completion follows
  s.add(10 * ms, EventKind::task_threw, 2, 2, kNoLabel, 1);     // a task that threw completes too
  s.add(25 * ms, EventKind::task_completed, 0, 1, kNoLabel, 15 * ms);
  s.add(40 * ms, EventKind::task_completed, 0, 2, kNoLabel, 30 * ms);
  s.add(40 * ms, EventKind::task_submitted, 0, 3);  // a task whose completion never ran (shutdown-now):
  s.add(40 * ms, EventKind::task_started, 1, 3);    // its service is counted, its end-to-end is not
  s.add(45 * ms, EventKind::task_finished, 1, 3, kNoLabel, 1);
  RunMetrics run;
  run.add(s.events);
  Summary sum = run.pool(0)->summary();
  CHECK(sum.completed == 2);
  CHECK(sum.threw == 1);
  CHECK(sum.service.count == 3);
  CHECK(sum.service.max == 10 * ms);
  CHECK(sum.end_to_end.count == 2);
  CHECK(sum.end_to_end.p50 == 25 * ms);
  CHECK(sum.end_to_end.max == 40 * ms);
}
