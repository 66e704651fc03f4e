// Test helpers that synchronise on what happened, never on how long it took.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "pools/core/trace_log.h"

namespace poolscope::test {

// The real-time safety limit for every wait in the tests: generous, and
// reaching it fails the test.
inline constexpr std::chrono::seconds kSafetyLimit{20};

// How long a task waits at a Gate before it aborts the test binary (pool
// threads cannot fail a Catch test). Longer than a chain of test-side waits,
// so that those fail first, with the design's name in the report.
inline constexpr std::chrono::seconds kGateLimit = 3 * kSafetyLimit;

// Waits for the next event matching `pred` (see TraceLog::wait_for) and fails
// the test, naming `what`, if none comes within the safety limit.
Event await_event(TraceLog& log, const TraceLog::Pred& pred, const std::string& what);

// Waits until at least `n` recorded events match `pred` (in any order with
// others). A pool's counter can change before the event that reports it: wait
// for the events, not the counter, before counting them.
void await_count(TraceLog& log, const TraceLog::Pred& pred, std::size_t n, const std::string& what);

// Waits until `cond` holds (checked on every state change we can't observe
// otherwise, at most every millisecond), failing the test after the limit.
void await_condition(const std::function<bool()>& cond, const std::string& what);

// The OS threads of this process (the ids in /proc/self/task) at one moment.
// A count cannot tell a thread a pool left behind from one that was joined
// just before the snapshot and is still listed while the kernel reaps it; the
// ids can: only a thread that was not listed counts as new. The constructor
// first starts and joins a thread of its own, so the helper thread a
// sanitizer starts at the first thread creation is in the snapshot.
class OsThreads {
 public:
  OsThreads();
  // Threads listed now that were not in the snapshot.
  std::size_t added() const;
  // Waits until no thread is listed that was not in the snapshot: every
  // thread started since has ended and been reaped. Threads of the snapshot
  // that end meanwhile do not matter.
  void await_none_added(const std::string& what) const;

 private:
  std::set<long> ids_;
};

// The calling thread's id in /proc/self/task (gettid).
long current_tid();

// Waits until thread `tid` of this process is asleep in the kernel (state S
// or D in /proc/self/task/TID/stat): blocked on a mutex, a condition
// variable, a join. A flag the thread sets before a call cannot show that the
// call blocks; this can. Have the thread announce its id just before the call.
void await_blocked(long tid, const std::string& what);

// A gate tasks can block on: closed until open(). Counts who arrived.
class Gate {
 public:
  void open();
  bool is_open() const;
  // Blocks until open(); aborts the test binary after kGateLimit.
  void pass();
  // A task that arrives at the gate, waits for it to open, then returns.
  std::function<void()> task();
  int arrived() const { return arrived_.load(); }
  // Waits until `n` tasks are waiting at (or have passed) the gate.
  void await_arrivals(int n);

 private:
  mutable std::mutex m_;
  std::condition_variable cv_;
  bool open_ = false;
  std::atomic<int> arrived_{0};
};

}  // namespace poolscope::test
