// What the gopool tests share: a manual clock (gopool never reads it, but
// the trace stamps with it), a trace log, and rules matched by code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pools/core/trace_log.h"
#include "tests/support/sync.h"

namespace poolscope::test {

inline std::string_view rule_of(const Event& e) { return label_code(e.rule); }

inline TraceLog::Pred has_rule(EventKind kind, std::string_view rule) {
  return [kind, rule](const Event& e) { return e.kind == kind && rule_of(e) == rule; };
}

struct GopoolRig {
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  TraceTarget target() { return {.clock = &clock, .stream = &stream, .name = "gopool"}; }

  std::size_t count(EventKind kind) {
    log.sync();
    return log.count(is_kind(kind));
  }
  std::size_t count(EventKind kind, std::string_view rule) {
    log.sync();
    return log.count(has_rule(kind, rule));
  }
  void await_count(EventKind kind, std::size_t n) {
    await_condition([&] { return count(kind) == n; }, std::to_string(n) + " " + std::string(kind_name(kind)));
  }
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
