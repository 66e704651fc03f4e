#include "pools/core/pool_trace.h"

#include <algorithm>

#include "pools/core/sync.h"

namespace poolscope {

namespace {
thread_local TraceHandoffStamp t_handoff_stamp;
}

[[gnu::noinline]] TraceHandoffStamp& trace_handoff_stamp() noexcept { return t_handoff_stamp; }

namespace rules {
Label pool_closed() {
  static const Label l = intern_label("pool-closed", "the pool was shut down: submissions are refused");
  return l;
}
Label thread_create_failed() {
  static const Label l = intern_label("thread-create-failed", "the OS refused to create another thread");
  return l;
}
Label graceful() {
  static const Label l = intern_label("graceful", "graceful shutdown: everything accepted runs");
  return l;
}
Label now() {
  static const Label l = intern_label("now", "immediate shutdown: queued tasks are dropped");
  return l;
}
}  // namespace rules

namespace {
// The pools whose tasks this thread is running, innermost last: a task can
// run another pool's task inside it (Java's CallerRunsPolicy on the
// submitting thread). Deeper nesting than kDepth is counted, not kept.
struct TasksHere {
  static constexpr std::size_t kDepth = 8;
  const PoolTrace* pools[kDepth]{};
  std::size_t depth = 0;
};
struct TasksHereTag {};
TasksHere& tasks_here() { return thread_value<TasksHere, TasksHereTag>(); }
}  // namespace

void PoolTrace::task_entered() const {
  TasksHere& h = tasks_here();
  if (h.depth < TasksHere::kDepth) h.pools[h.depth] = this;
  ++h.depth;
}

void PoolTrace::task_left() const {
  TasksHere& h = tasks_here();
  if (h.depth > 0) --h.depth;
}

bool PoolTrace::runs_task_here() const {
  const TasksHere& h = tasks_here();
  const std::size_t kept = std::min(h.depth, TasksHere::kDepth);
  return std::find(h.pools, h.pools + kept, this) != h.pools + kept;
}

PoolTrace::PoolTrace(const TraceTarget& target, std::string_view design)
    : clock_(target.clock ? target.clock : &default_clock()),
      stream_(target.stream),
      name_(target.name.empty() ? std::string(design) : target.name) {
  if (!stream_) return;
  // Real time: events carry only a tick, turned into this clock's time by
  // the consumer from the clock's pieces.
  TimeBase base;
  if (auto* steady = dynamic_cast<SteadyClock*>(clock_))
    base.pieces = std::make_shared<const TimePieces>(steady->piece());
  else if (auto* adjustable = dynamic_cast<AdjustableClock*>(clock_))
    base.pieces = adjustable->pieces();
  real_time_ = base.pieces != nullptr;
  id_ = stream_->add_pool(name_, std::string(design), base);
}

Accounting PoolTrace::accounting() const {
  // Read the outcomes before `submitted`: every outcome follows its submission,
  // so a concurrent read never shows more settled than submitted.
  Accounting a;
  a.dropped = dropped_.load(std::memory_order_acquire);
  a.refused = refused_.load(std::memory_order_acquire);
  a.threw = threw_.load(std::memory_order_acquire);
  a.completed = completed_.load(std::memory_order_acquire);
  a.submitted = submitted_.load(std::memory_order_acquire);
  return a;
}

}  // namespace poolscope
