// What the gopool tests share: the common trace rig (gopool never reads its
// clock, but the trace stamps with it), and a task's events.
#pragma once

#include <vector>

#include "tests/support/sync.h"
#include "tests/support/trace_rig.h"

namespace poolscope::test {

struct GopoolRig : TraceRig {
  TraceTarget target() { return TraceRig::target("gopool"); }
  // The events of `kind` for task `t`, in order.
  std::vector<Event> of_task(EventKind kind, TaskId t) {
    log.sync();
    std::vector<Event> out;
    for (const Event& e : log.events())
      if (e.kind == kind && e.task == t) out.push_back(e);
    return out;
  }
  // The worker a task was handed to.
  WorkerId worker_of(TaskId t) {
    auto h = of_task(EventKind::task_handoff, t);
    return h.empty() ? 0 : h.front().worker;
  }
};

}  // namespace poolscope::test
