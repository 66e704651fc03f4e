// What the Redis tests share: a manual clock, a trace log, and rules
// matched by code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pools/core/thread.h"
#include "pools/core/trace_log.h"
#include "tests/support/sync.h"

namespace poolscope::test {

struct Rig {
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 18};
  TraceLog log{stream};
  TraceTarget target(std::string name) { return {.clock = &clock, .stream = &stream, .name = std::move(name)}; }

  static bool matches(const Event& e, EventKind kind, std::string_view rule) {
    return e.kind == kind && (rule.empty() || label_code(e.rule) == rule);
  }
  std::size_t count(EventKind kind, std::string_view rule = {}) {
    log.sync();
    return log.count([&](const Event& e) { return matches(e, kind, rule); });
  }
  // Waits until at least `n` events of `kind` (and `rule`) are in the log.
  void await_count(EventKind kind, std::string_view rule, std::size_t n) {
    await_condition([&] { return count(kind, rule) >= n; },
                    std::to_string(n) + " " + std::string(kind_name(kind)) + " " + std::string(rule));
  }
  std::vector<Event> events(EventKind kind, std::string_view rule = {}) {
    log.sync();
    std::vector<Event> out;
    for (const Event& e : log.events())
      if (matches(e, kind, rule)) out.push_back(e);
    return out;
  }
  // Waits for the next event of `kind` (from the previous match on).
  Event await(EventKind kind, const std::string& what) { return await_event(log, is_kind(kind), what); }
};

}  // namespace poolscope::test
