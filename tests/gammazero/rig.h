// What the gammazero tests share: a manual clock and a trace log, rules
// matched by code, and a thread for the calls that block.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <string_view>

#include "pools/core/thread.h"
#include "pools/core/trace_log.h"
#include "tests/support/sync.h"

namespace poolscope::test {

inline std::string_view rule_of(const Event& e) { return label_code(e.rule); }

// Matches by the rule's code: designs may share a code (each with its own
// text), so find_label(code) need not return this design's label.
inline TraceLog::Pred has_rule(EventKind kind, std::string_view rule) {
  return [kind, rule](const Event& e) { return e.kind == kind && rule_of(e) == rule; };
}

struct Rig {
  ManualClock clock;
  TraceStream stream{std::size_t{1} << 16};
  TraceLog log{stream};
  TraceTarget target() { return {.clock = &clock, .stream = &stream, .name = "gammazero"}; }

  std::size_t count(EventKind kind) {
    log.sync();
    return log.count(is_kind(kind));
  }
  std::size_t count(EventKind kind, std::string_view rule) {
    log.sync();
    return log.count(has_rule(kind, rule));
  }
  // Waits until exactly `n` events of `kind` and `rule` are in the log. Use
  // it rather than count() when they may not all be recorded yet (after
  // waiting on the pool's state rather than on an event, for instance).
  void await_count(EventKind kind, std::string_view rule, std::size_t n) {
    await_condition([&] { return count(kind, rule) == n; },
                    std::to_string(n) + " " + std::string(kind_name(kind)) + " " + std::string(rule));
  }
  // Waits for the next event of `kind` (from the previous match on).
  Event await(EventKind kind, const std::string& what) { return await_event(log, is_kind(kind), what); }
};

// Runs a call on its own thread (one that blocks: Stop, Pause, SubmitWait...);
// done() says whether it has returned. Joined on destruction.
class Background {
 public:
  explicit Background(std::move_only_function<void()> call)
      : thread_("background", [this, call = std::move(call)]() mutable {
          tid_ = current_tid();
          call();
          done_ = true;
        }) {}
  bool done() const { return done_; }
  // Waits until the call blocks: its thread, inside the call, asleep in the kernel.
  void await_blocked(const std::string& what) {
    await_condition([&] { return tid_ != 0; }, what + ": the call began");
    test::await_blocked(tid_, what);
  }
  void join() { thread_.join(); }

 private:
  std::atomic<bool> done_{false};
  std::atomic<long> tid_{0};
  Thread thread_;  // last: it starts in the constructor
};

}  // namespace poolscope::test
