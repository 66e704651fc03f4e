#include "scenarios/engine/task_body.h"

#include <time.h>

#include <stdexcept>

#include "pools/core/interrupt.h"
#include "pools/core/sim/world.h"

namespace poolscope::scenario {

void CancelScope::cancel() {
  std::lock_guard g(m_);
  cancelled_.store(true, std::memory_order_release);
  for (Countdown* c : waiting_) c->wake();
}

bool CancelScope::enter(Countdown* c) {
  std::lock_guard g(m_);
  if (cancelled()) return false;
  waiting_.push_back(c);
  return true;
}

void CancelScope::leave(Countdown* c) {
  std::lock_guard g(m_);
  std::erase(waiting_, c);
}

void Countdown::count_down() {
  std::lock_guard g(m_);
  if (--n_ <= 0) cv_.notify_all();
}

void Countdown::wake() {
  std::lock_guard g(m_);
  cv_.notify_all();
}

bool Countdown::wait(CancelScope& scope) {
  if (!scope.enter(this)) return false;
  std::unique_lock lock(m_);
  cv_.wait(lock, [&] { return n_ <= 0 || scope.cancelled(); });
  bool all = n_ <= 0;
  lock.unlock();
  scope.leave(this);
  return all;
}

SubmitResult submit_task(Pool& pool, Task task, const SubmitOptions& options) {
  if (sim::World* w = sim::active()) [[unlikely]]
    w->compute(w->settings().costs_of(w->current().group).submit, "submit");
  return pool.submit(std::move(task), options);
}

void spin_for(Nanos cpu) {
  if (sim::World* w = sim::active()) [[unlikely]]
    return w->compute(cpu, "spin task");
  auto thread_cpu = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return Nanos(std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec);
  };
  // Reading a thread's CPU clock is a system call, so do a few microseconds
  // of work between reads, or the task would spend its time in the kernel.
  const Nanos end = thread_cpu() + cpu;
  volatile std::uint64_t sink = 0;
  while (thread_cpu() < end)
    for (int i = 0; i < 8192; ++i) sink = sink + static_cast<std::uint64_t>(i);
}

namespace {

struct EngineThreadTag;
bool& on_engine_thread() { return thread_value<bool, EngineThreadTag>(); }

}  // namespace

void mark_engine_thread() { on_engine_thread() = true; }

namespace {

// Counts `done` down once: at the end of the run, or when destroyed unrun.
class DoneSignal {
 public:
  explicit DoneSignal(std::shared_ptr<Countdown> c) : c_(std::move(c)) {}
  DoneSignal(DoneSignal&&) noexcept = default;
  DoneSignal& operator=(DoneSignal&&) = delete;
  ~DoneSignal() { fire(); }
  void fire() {
    if (auto c = std::exchange(c_, nullptr)) c->count_down();
  }

 private:
  std::shared_ptr<Countdown> c_;
};

void run_task(const std::shared_ptr<const TaskInstance>& task, TaskContext& ctx) {
  const TaskInstance& t = *task;
  if (t.kind == TaskSpec::Kind::spin) {
    const double scale = ctx.time_scale.load(std::memory_order_relaxed);
    spin_for(Nanos(static_cast<std::int64_t>(static_cast<double>(t.duration.count()) / scale)));
  } else if (t.duration > Nanos(0)) {
    // Thread.sleep: a pool that interrupts its running tasks (java's
    // shutdownNow, Future.cancel(true)) ends the sleep early, and the task
    // throws, as one with an uncaught InterruptedException would in Java. On
    // other pools' threads nobody interrupts, so this is the clock's sleep.
    if (!sleep_interruptibly(*ctx.clock, t.duration))
      throw std::runtime_error("scenario task interrupted while sleeping (Thread.sleep's InterruptedException)");
  }
  if (!t.children.empty()) {
    auto children = std::make_shared<Countdown>(static_cast<int>(t.children.size()));
    for (const TaskInstance& child : t.children) {
      SubmitResult r =
          submit_task(*ctx.pool, make_runnable(std::shared_ptr<const TaskInstance>(task, &child), ctx, children),
                      SubmitOptions{child.priority});
      if (!r.accepted()) ctx.children_refused.fetch_add(1, std::memory_order_relaxed);
    }
    if (t.wait_children) {
      const bool on_worker = !on_engine_thread();
      if (on_worker) ctx.parents_waiting_on_workers.fetch_add(1, std::memory_order_relaxed);
      children->wait(ctx.cancel);
      if (on_worker) ctx.parents_waiting_on_workers.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  if (t.throws) throw std::runtime_error("scenario task failed (throw_probability)");
}

}  // namespace

Task make_runnable(std::shared_ptr<const TaskInstance> t, TaskContext& ctx, std::shared_ptr<Countdown> done) {
  return [t = std::move(t), &ctx, signal = DoneSignal(std::move(done))]() mutable {
    struct FireAtEnd {
      DoneSignal& s;
      ~FireAtEnd() { s.fire(); }
    } at_end{signal};
    run_task(t, ctx);
  };
}

}  // namespace poolscope::scenario
