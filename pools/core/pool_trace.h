// PoolTrace: what one pool records. It keeps the pool's gauges (workers, busy,
// queued, blocked) and its accounting (submitted, completed, threw, refused,
// dropped), and emits one trace event per change. Designs call its named
// operations at the exact point where the original makes each decision, so
// the trace reads like the original's code.
//
// An event carries the change it makes to the gauges, not the gauges: the
// stream's consumer sums the changes into each event's counters, so
// recording reads nothing other threads write. On real time (a SteadyClock,
// or the engine's AdjustableClock) an event carries only the stream's tick,
// and the consumer turns it into the clock's time; on any other clock
// (ManualClock, virtual time) the clock is read for every event.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "pools/core/clock.h"
#include "pools/core/task.h"
#include "pools/core/trace_stream.h"

namespace poolscope {

// Where a pool's events go and which clock it lives on.
struct TraceTarget {
  Clock* clock = nullptr;         // nullptr: default_clock(), real time
  TraceStream* stream = nullptr;  // nullptr: untraced (gauges and accounting are still kept)
  std::string name;               // the pool's name in the stream; empty: the design's name
};

// Every task's fate. At any quiescent point: submitted == settled().
struct Accounting {
  std::uint64_t submitted = 0;
  std::uint64_t completed = 0;
  std::uint64_t threw = 0;
  std::uint64_t refused = 0;  // including refusals because the pool was closed
  std::uint64_t dropped = 0;  // accepted, then abandoned at shutdown or discarded from a queue
  std::uint64_t settled() const { return completed + threw + refused + dropped; }
  // Never wraps: a reader between two counters' updates may see more settled than submitted.
  std::uint64_t in_flight() const { return submitted > settled() ? submitted - settled() : 0; }
  bool balanced() const { return submitted == settled(); }
};

// Labels the core itself uses; designs intern their own.
namespace rules {
Label pool_closed();           // submit after shutdown
Label thread_create_failed();  // the OS refused a new thread
Label graceful();              // shutdown that runs everything accepted
Label now();                   // shutdown that drops what waits
}  // namespace rules

class PoolTrace {
 public:
  PoolTrace(const TraceTarget& target, std::string_view design);
  PoolTrace(const PoolTrace&) = delete;
  PoolTrace& operator=(const PoolTrace&) = delete;

  Clock& clock() const { return *clock_; }
  const std::string& name() const { return name_; }
  PoolId id() const { return id_; }
  bool traced() const { return stream_ != nullptr; }

  WorkerId new_worker_id() { return next_worker_.fetch_add(1, std::memory_order_relaxed); }

  // --- tasks
  TaskId submitted() {
    TaskId id = next_task_.fetch_add(1, std::memory_order_relaxed);
    submitted_.fetch_add(1, std::memory_order_relaxed);
    emit(EventKind::task_submitted, kNoLabel, 0, id);
    return id;
  }
  void queued(TaskId t, Label rule, std::int64_t depth = 0) {
    queued_.fetch_add(1, std::memory_order_relaxed);
    record(EventKind::task_queued, rule, 0, t, depth, 0, {.queued = 1});
  }
  void handoff(TaskId t, WorkerId w, Label rule, bool from_queue = false) {
    if (from_queue) queued_.fetch_sub(1, std::memory_order_relaxed);
    record(EventKind::task_handoff, rule, w, t, from_queue ? 1 : 0, 0, {.queued = std::int8_t(from_queue ? -1 : 0)});
  }
  // started() and finished() (or threw()) are called on the thread that
  // runs the task, which is then running a task of this pool (runs_task_here).
  void started(WorkerId w, TaskId t) {
    if (w != 0) busy_.fetch_add(1, std::memory_order_relaxed);
    task_entered();
    record(EventKind::task_started, kNoLabel, w, t, 0, 0, {.busy = std::int8_t(w != 0 ? 1 : 0)});
  }
  void finished(WorkerId w, TaskId t) {
    task_left();
    if (w != 0) busy_.fetch_sub(1, std::memory_order_relaxed);
    completed_.fetch_add(1, std::memory_order_release);
    record(EventKind::task_finished, kNoLabel, w, t, completions_follow_, 0, {.busy = std::int8_t(w != 0 ? -1 : 0)});
  }
  void threw(WorkerId w, TaskId t) {
    task_left();
    if (w != 0) busy_.fetch_sub(1, std::memory_order_relaxed);
    threw_.fetch_add(1, std::memory_order_release);
    record(EventKind::task_threw, kNoLabel, w, t, completions_follow_, 0, {.busy = std::int8_t(w != 0 ? -1 : 0)});
  }
  // A design whose requests end on another thread after the task (nginx: each
  // completion handler, on the event loop) says so once, before its first
  // task; its finished() and threw() then mark that a completed() follows,
  // which ends the task's end-to-end latency.
  void completions_follow() { completions_follow_ = true; }
  void completed(TaskId t, Nanos since_ended) { emit(EventKind::task_completed, kNoLabel, 0, t, since_ended.count()); }
  void refused(TaskId t, Label reason) {
    refused_.fetch_add(1, std::memory_order_release);
    emit(EventKind::task_refused, reason, 0, t);
  }
  void dropped(TaskId t, Label rule, bool was_queued = true) {
    if (was_queued) queued_.fetch_sub(1, std::memory_order_relaxed);
    dropped_.fetch_add(1, std::memory_order_release);
    record(EventKind::task_dropped, rule, 0, t, 0, 0, {.queued = std::int8_t(was_queued ? -1 : 0)});
  }
  void blocked(TaskId t) {
    blocked_.fetch_add(1, std::memory_order_relaxed);
    record(EventKind::submitter_blocked, kNoLabel, 0, t, 0, 0, {.blocked = 1});
  }
  void unblocked(TaskId t) {
    blocked_.fetch_sub(1, std::memory_order_relaxed);
    record(EventKind::submitter_unblocked, kNoLabel, 0, t, 0, 0, {.blocked = -1});
  }

  // Runs job.fn as worker `w` between started and finished/threw. Returns the
  // exception if the task threw (the design decides what that costs the worker).
  std::exception_ptr run(WorkerId w, Job& job) {
    started(w, job.id);
    try {
      job.fn();
    } catch (...) {
      threw(w, job.id);
      return std::current_exception();
    }
    finished(w, job.id);
    return nullptr;
  }

  // --- workers
  void spawned(WorkerId w, Label rule) {
    workers_.fetch_add(1, std::memory_order_relaxed);
    record(EventKind::worker_spawned, rule, w, 0, 0, 0, {.workers = 1});
  }
  void idle(WorkerId w, Label rule) { emit(EventKind::worker_idle, rule, w, 0); }
  void reaped(WorkerId w, Label rule, Nanos idle_for) { emit(EventKind::worker_reaped, rule, w, 0, idle_for.count()); }
  void exited(WorkerId w, Label rule) {
    workers_.fetch_sub(1, std::memory_order_relaxed);
    record(EventKind::worker_exited, rule, w, 0, 0, 0, {.workers = -1});
  }

  // --- the pool
  void cleaner_pass(Label rule, std::int64_t looked_at, std::int32_t reaped) {
    emit(EventKind::cleaner_pass, rule, 0, 0, looked_at, reaped);
  }
  void tuned(Label param, std::int64_t value) { emit(EventKind::param_tuned, param, 0, 0, value); }
  void state(Label state) { emit(EventKind::pool_state, state, 0, 0); }
  void stopped(Label how, std::int64_t dropped) { emit(EventKind::pool_stopped, how, 0, 0, dropped); }

  Counters counters() const;
  Accounting accounting() const;

  // Whether the calling thread is inside a task of this pool (between its
  // started() and its finished() or threw()), perhaps under a task of
  // another pool: a shutdown() called there would wait for itself.
  bool runs_task_here() const;

  // The raw emitter, for a lab pool that needs a kind without a helper above.
  // It changes no gauge, so the event's counters (derived by the consumer
  // from the helpers' changes) stay those of the pool.
  void emit(EventKind kind, Label rule, WorkerId w, TaskId t, std::int64_t arg = 0, std::int32_t arg2 = 0) {
    record(kind, rule, w, t, arg, arg2, {});
  }

 private:
  // What an event does to the gauges; the consumer sums these into each
  // event's counters, so recording never reads the (shared) gauges.
  struct Change {
    std::int8_t workers = 0, busy = 0, queued = 0, blocked = 0;
  };
  void record(EventKind kind, Label rule, WorkerId w, TaskId t, std::int64_t arg, std::int32_t arg2, Change c);
  void task_entered() const;  // this thread's stack of pools whose task it runs
  void task_left() const;
  std::uint64_t real_time_tick(EventKind kind, TaskId t);

  static std::uint32_t gauge(const std::atomic<std::int64_t>& g) {
    auto v = g.load(std::memory_order_relaxed);
    return v < 0 ? 0u : static_cast<std::uint32_t>(v);
  }

  Clock* clock_;
  TraceStream* stream_;
  bool completions_follow_ = false;
  bool real_time_ = false;  // a SteadyClock or an AdjustableClock: time comes from the tick (TimeBase)
  std::string name_;
  PoolId id_ = 0;
  std::atomic<TaskId> next_task_{1};
  std::atomic<WorkerId> next_worker_{1};
  std::atomic<std::int64_t> workers_{0}, busy_{0}, queued_{0}, blocked_{0};
  std::atomic<std::uint64_t> submitted_{0}, completed_{0}, threw_{0}, refused_{0}, dropped_{0};
};

// The last task_handoff this thread recorded, if its next event is the
// start of that task: the two are one decision (the worker took the task and
// runs it) and share one time stamp. Anything else in between breaks the pair.
struct TraceHandoffStamp {
  const PoolTrace* pool = nullptr;
  TaskId task = 0;
  std::uint64_t tick = 0;
};
// This OS thread's; not inlined, for the reason trace_queue_cache() is not.
TraceHandoffStamp& trace_handoff_stamp() noexcept;

inline std::uint64_t PoolTrace::real_time_tick(EventKind kind, TaskId t) {
  TraceHandoffStamp& last = trace_handoff_stamp();
  if (kind == EventKind::task_started && last.pool == this && last.task == t && t != 0) {
    last.pool = nullptr;
    return last.tick;
  }
  const std::uint64_t tick = trace_tick::now();
  if (kind == EventKind::task_handoff)
    last = {this, t, tick};
  else
    last.pool = nullptr;
  return tick;
}

inline void PoolTrace::record(EventKind kind, Label rule, WorkerId w, TaskId t, std::int64_t arg, std::int32_t arg2,
                              Change c) {
  if (stream_ == nullptr) return;
  TraceStream::Record r{0, 0, t, arg, arg2, w, id_, rule, kind, c.workers, c.busy, c.queued, c.blocked};
  if (real_time_) {
    r.tick = real_time_tick(kind, t);  // the consumer turns it into the clock's time
  } else {
    // A ManualClock, a virtual clock: their time is theirs to say. The tick
    // still orders the event in the stream.
    r.tick = trace_tick::now();
    r.time = clock_->now().count();
  }
  stream_->record(r);
}

inline Counters PoolTrace::counters() const {
  return Counters{gauge(workers_), gauge(busy_), gauge(queued_), gauge(blocked_)};
}

}  // namespace poolscope
