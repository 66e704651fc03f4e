// TraceLog: the simplest consumer of a TraceStream. A background thread
// drains the stream into memory; any thread can read what was recorded or
// wait for the next event matching a predicate. Tests use it to synchronise
// on what a pool did rather than on time; the lab checks use it too.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "pools/core/thread.h"
#include "pools/core/trace_stream.h"

namespace poolscope {

class TraceLog {
 public:
  using Pred = std::function<bool(const Event&)>;

  explicit TraceLog(TraceStream& stream, std::chrono::microseconds poll = std::chrono::microseconds(200));
  ~TraceLog();
  TraceLog(const TraceLog&) = delete;
  TraceLog& operator=(const TraceLog&) = delete;

  // Waits (on real time, at most `limit`) for the next event that matches,
  // searching from just after the previous match (or mark()). Returns nullopt
  // if the limit passed: a safety net that fails a test, never passes it.
  std::optional<Event> wait_for(const Pred& pred, std::chrono::milliseconds limit = std::chrono::seconds(10));
  // Skips every event recorded so far: the next wait_for looks only at later ones.
  void mark();
  // Returns once every event recorded (published) before the call is in the
  // log: at least as many events as the stream had recorded.
  void sync();

  std::vector<Event> events() const;
  std::size_t count(const Pred& pred) const;
  // The counters carried by the last event of `pool` (zeros if none yet).
  Counters last_counters(PoolId pool) const;

 private:
  void drain_loop();
  bool drain_once();

  TraceStream& stream_;
  std::chrono::microseconds poll_;
  mutable std::mutex m_;
  std::condition_variable cv_;
  std::vector<Event> events_;
  std::size_t cursor_ = 0;
  bool stop_ = false;
  std::mutex drain_m_;
  std::vector<Event> batch_;
  Thread drainer_;
};

// Common predicates.
inline TraceLog::Pred is_kind(EventKind kind) {
  return [kind](const Event& e) { return e.kind == kind; };
}
inline TraceLog::Pred is_kind(EventKind kind, Label rule) {
  return [kind, rule](const Event& e) { return e.kind == kind && e.rule == rule; };
}

}  // namespace poolscope
