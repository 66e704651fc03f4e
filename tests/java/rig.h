// What the java tests share: a manual clock and a trace log to synchronise
// on, and a short way to build an executor on them.
#pragma once

#include <memory>

#include "pools/java/array_blocking_queue.h"
#include "pools/java/labels.h"
#include "pools/java/linked_blocking_queue.h"
#include "pools/java/priority_blocking_queue.h"
#include "pools/java/synchronous_queue.h"
#include "pools/java/thread_pool_executor.h"
#include "tests/support/sync.h"

namespace poolscope::java::test {

using namespace std::chrono_literals;
using poolscope::test::await_condition;
using poolscope::test::await_event;
using poolscope::test::Gate;

struct Rig {
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 18};
  TraceLog log{stream};

  TraceTarget target() { return {.clock = &clock, .stream = &stream, .name = "java"}; }

  std::unique_ptr<ThreadPoolExecutor> make(
      int core, int max, Nanos keepAlive, std::unique_ptr<BlockingQueue> queue,
      std::shared_ptr<RejectedExecutionHandler> handler = std::make_shared<AbortPolicy>()) {
    return std::make_unique<ThreadPoolExecutor>(core, max, keepAlive, std::move(queue),
                                                std::make_shared<DefaultThreadFactory>(), std::move(handler), target());
  }

  // Events recorded so far that match.
  std::size_t count(const TraceLog::Pred& pred) {
    log.sync();
    return log.count(pred);
  }
  // Waits until at least `n` recorded events match (in any order with others).
  void await_count(const TraceLog::Pred& pred, std::size_t n, const std::string& what) {
    poolscope::test::await_count(log, pred, n, what);
  }
};

inline TraceLog::Pred task_event(EventKind kind, TaskId task) {
  return [kind, task](const Event& e) { return e.kind == kind && e.task == task; };
}

// Opens a gate when the test leaves its scope, even by a failed REQUIRE, so
// that an executor's destructor never waits for a task stuck at it.
class OpenOnExit {
 public:
  explicit OpenOnExit(Gate& g) : g_(g) {}
  ~OpenOnExit() { g_.open(); }

 private:
  Gate& g_;
};

}  // namespace poolscope::java::test
