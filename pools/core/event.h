// One trace event: what happened, to which pool, worker and task, which rule
// of the design caused it, and the pool's counters right after the change, so
// a plot of any counter is a step line through the events.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "pools/core/labels.h"

namespace poolscope {

using TaskId = std::uint64_t;    // per pool, from 1; 0 = no task
using WorkerId = std::uint32_t;  // per pool, from 1; 0 = no worker (or the submitting thread)
using PoolId = std::uint16_t;    // per trace stream

// The pool's gauges after the event. idle = workers - busy.
struct Counters {
  std::uint32_t workers = 0;  // threads alive (busy + idle)
  std::uint32_t busy = 0;     // running a task
  std::uint32_t queued = 0;   // accepted tasks waiting for a worker
  std::uint32_t blocked = 0;  // submitters blocked inside submit
  std::uint32_t idle() const { return workers > busy ? workers - busy : 0; }
  friend bool operator==(const Counters&, const Counters&) = default;
};

// The kinds, with what their fields mean and how they move the counters.
// `rule` always names the design's reason where the kind has one.
enum class EventKind : std::uint8_t {
  task_submitted,       // task; entered the pool's submit
  task_queued,          // task; arg = queue length after; queued+1
  task_handoff,         // task, worker (0 = the caller); arg = 1 if taken from the queue (queued-1); rule = which path
  task_started,         // task, worker; busy+1 (not for worker 0, the caller)
  task_finished,        // task, worker; busy-1; arg = 1 if a task_completed follows (a completion lane)
  task_threw,           // task, worker; busy-1; the task ended with an exception; arg as task_finished
  task_completed,       // task; its completion ran on another thread (nginx's event loop), after task_finished
                        // or task_threw with arg = 1; arg = ns it waited since then. Ends its end-to-end latency
  task_refused,         // task; rule = the design's reason (or pool-closed)
  task_dropped,         // task; accepted but never run (shutdown-now, abandoned queue, discard-oldest); queued-1
  submitter_blocked,    // task; the submitting thread waits inside submit; blocked+1
  submitter_unblocked,  // task; blocked-1
  worker_spawned,       // worker; rule = why a new worker; workers+1
  worker_idle,          // worker; rule = where it waits (ready stack, queue poll, ...)
  worker_reaped,        // worker; arg = how long it was idle (ns); rule = the reaping mechanism
  worker_exited,        // worker; rule = why the thread ended; workers-1
  cleaner_pass,         // arg = workers looked at, arg2 = workers reaped; rule = the mechanism
  param_tuned,          // arg = new value (durations in ns); rule = the parameter's name
  pool_state,           // rule = the state entered (pause, resume, SHUTDOWN, TIDYING, reboot, ...)
  pool_stopped,         // arg = tasks dropped; rule = how (graceful, now)
};
inline constexpr int kEventKindCount = static_cast<int>(EventKind::pool_stopped) + 1;

std::string_view kind_name(EventKind kind);
std::optional<EventKind> parse_kind(std::string_view name);

struct Event {
  std::int64_t time = 0;  // ns since the clock's origin
  TaskId task = 0;
  std::int64_t arg = 0;
  std::int32_t arg2 = 0;
  WorkerId worker = 0;
  PoolId pool = 0;
  EventKind kind = EventKind::task_submitted;
  Label rule = kNoLabel;
  Counters counters;
};

}  // namespace poolscope
