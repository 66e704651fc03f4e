// What the fasthttp tests share: a started WorkerPool on a manual clock,
// recording into its own trace stream.
#pragma once

#include <string>
#include <vector>

#include "pools/fasthttp/worker_pool.h"
#include "tests/support/sync.h"

namespace poolscope::test {

struct Rig {
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  fasthttp::WorkerPool wp;

  explicit Rig(fasthttp::Config config) : wp(config, {.clock = &clock, .stream = &stream, .name = "fasthttp"}) {
    wp.start();
  }

  // Serves `task`, which must be accepted, and returns the worker it was handed to.
  Event serve(Task task) {
    REQUIRE(wp.serve(std::move(task)));
    return await_event(
        log, [](const Event& e) { return e.kind == EventKind::task_handoff; }, "handoff");
  }

  // Every event so far (drained now) matching `pred`, in stream order.
  std::vector<Event> events(const TraceLog::Pred& pred) {
    log.sync();
    std::vector<Event> out;
    for (const Event& e : log.events())
      if (pred(e)) out.push_back(e);
    return out;
  }

  void await_count(const TraceLog::Pred& pred, std::size_t n, const std::string& what) {
    poolscope::test::await_count(log, pred, n, what);
  }

  // Worker `w`'s worker_exited event, once it has come.
  Event exited(WorkerId w) {
    auto pred = [w](const Event& e) { return e.kind == EventKind::worker_exited && e.worker == w; };
    await_count(pred, 1, "worker " + std::to_string(w) + " exits");
    return events(pred).front();
  }
};

inline TraceLog::Pred of_worker(EventKind kind, WorkerId w) {
  return [kind, w](const Event& e) { return e.kind == kind && e.worker == w; };
}

}  // namespace poolscope::test
