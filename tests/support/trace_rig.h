// What every design's test rig shares: the manual clock its pool lives on, a
// trace stream and the log that drains it, and the log's events asked for by
// kind and rule code. Rules are matched by code, not by label: designs may
// share a code, each with its own text. An empty rule matches any.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "pools/core/clock.h"
#include "pools/core/pool_trace.h"
#include "pools/core/trace_log.h"

namespace poolscope::test {

bool has_code(const Event& e, EventKind kind, std::string_view rule);
inline std::string_view rule_of(const Event& e) { return label_code(e.rule); }
inline TraceLog::Pred has_rule(EventKind kind, std::string_view rule) {
  return [kind, rule](const Event& e) { return has_code(e, kind, rule); };
}

struct TraceRig {
  ManualClock clock;
  TraceStream stream;
  TraceLog log{stream};

  explicit TraceRig(std::size_t capacity = std::size_t{1} << 16) : stream(capacity) {}
  TraceTarget target(std::string name) { return {.clock = &clock, .stream = &stream, .name = std::move(name)}; }

  // Everything recorded so far is in the log before these answer.
  std::vector<Event> events(EventKind kind, std::string_view rule = {});
  std::size_t count(EventKind kind, std::string_view rule = {});
  // Waits until exactly `n` such events are in the log (one more fails the
  // wait), or at least `n`. Use them rather than count() when the events may
  // not all be recorded yet (after waiting on the pool's state, say).
  void await_count(EventKind kind, std::string_view rule, std::size_t n);
  void await_count(EventKind kind, std::size_t n) { await_count(kind, {}, n); }
  void await_at_least(EventKind kind, std::string_view rule, std::size_t n);
  // Waits for the next event of `kind` (from the previous match on).
  Event await(EventKind kind, const std::string& what);
};

}  // namespace poolscope::test
