// pool.go, in its order. Index:
//   task: zero, Recycle          the list's nodes, recycled through taskPool
//   NewPool, ~pool               (C++: the destructor waits for the list to drain)
//   SetCap
//   CtxGo                        append to the list; maybe start a worker
//   shutdown_, counters_         C++: poolscope's shutdown and state
// The worker's loop is in worker.cpp (worker.go).
#include "pools/gopool/pool.h"

#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <system_error>

#include "pools/core/go/sync_pool.h"
#include "pools/gopool/worker.h"

namespace poolscope::gopool {

using namespace rules;

namespace {
go::SyncPool<task>& taskPool() {
  static go::SyncPool<task> p;
  static const bool once = (
      p.New = [] { return std::make_unique<task>(); }, true);  // newTask
  (void)once;
  return p;
}
}  // namespace

void defaultLogger(const Context&, const std::string& msg) { std::fprintf(stderr, "%s\n", msg.c_str()); }

void task::zero() {
  ctx.reset();
  f = Job{};
  next = nullptr;
}

void task::Recycle() {
  zero();
  taskPool().Put(this);
}

pool::pool(std::string name, std::int32_t cap, Config config, const TraceTarget& target)
    : name(std::move(name)), cap(cap), config(config), trace(target, "gopool") {
  // C++: Go's sync.Pools are package variables. Made here, before any pool is
  // complete, they are destroyed after every pool (a static one included),
  // whose workers recycle into them until it is gone.
  (void)taskPool();
  (void)workerPool();
}

pool::~pool() { shutdown_(false); }

void pool::SetCap(std::int32_t cap) {
  this->cap.store(cap);
  trace.tuned(kSetCap, cap);
}

void pool::CtxGo(Context ctx, Task f) {
  // C++: Go takes a nil f, and the worker's t.f() panics inside its
  // recover (the panic handler or the log sees it); calling an empty
  // std::move_only_function is undefined, so the nil is that panic.
  if (!f) f = [] { throw std::runtime_error("runtime error: invalid memory address or nil pointer dereference"); };
  task* t = taskPool().Get();
  t->ctx = std::move(ctx);
  t->f = Job{trace.submitted(), std::move(f)};
  {
    std::lock_guard lock(taskLock);
    if (taskHead == nullptr) {
      taskHead = t;
      taskTail = t;
    } else {
      taskTail->next = t;
      taskTail = t;
    }
    // C++: traced under taskLock, so that the pop that takes it comes after.
    trace.queued(t->f.id, kTaskList, listed_.fetch_add(1) + 1);
  }
  taskCount.fetch_add(1);
  // The following two conditions are met:
  // 1. the number of tasks is greater than the threshold.
  // 2. The current number of workers is less than the upper limit p.cap.
  // or there are currently no workers.
  // C++: the rule traced is the clause that held (the first, if both did).
  const bool scale = taskCount.load() >= config.ScaleThreshold && WorkerCount() < cap.load();
  if (scale || WorkerCount() == 0) {
    incWorkerCount();
    worker* w = getWorker();
    w->pool_ = this;
    w->id_ = trace.new_worker_id();
    trace.spawned(w->id_, scale ? kScaleThreshold : kNoWorker);
    try {
      w->run();
    } catch (const std::system_error&) {
      runRefused_(w, w->id_);
    }
  }
}

// C++: the OS refused the worker's thread (a goroutine always starts). The
// count goes back down and the task stays on the list, where the next CtxGo
// (which then sees no worker, if this was the only one) or shutdown finds it.
void pool::runRefused_(worker* w, WorkerId id) {
  {
    std::lock_guard lock(taskLock);
    w->close();
    trace.exited(id, poolscope::rules::thread_create_failed());
  }
  w->Recycle();
}

int pool::shutdown_(bool now) {
  int dropped = 0;
  if (now) {
    std::lock_guard lock(taskLock);
    while (taskHead != nullptr) {
      task* t = taskHead;
      taskHead = t->next;
      taskCount.fetch_sub(1);
      listed_.fetch_sub(1);
      trace.dropped(t->f.id, kShutdownNow);
      t->Recycle();
      ++dropped;
    }
    taskTail = nullptr;
  }
  // Tasks on the list and no worker: only after a refused thread. Start one,
  // as the next CtxGo would have (it retries, until the OS gives a thread).
  for (;;) {
    {
      std::lock_guard lock(taskLock);
      if (taskHead == nullptr || WorkerCount() > 0) break;
    }
    incWorkerCount();
    worker* w = getWorker();
    w->pool_ = this;
    w->id_ = trace.new_worker_id();
    trace.spawned(w->id_, kDrainOnShutdown);
    try {
      w->run();
      break;
    } catch (const std::system_error&) {
      runRefused_(w, w->id_);
    }
  }
  // The workers exit by themselves once the list is empty.
  wg_.wait();
  return dropped;
}

Counters pool::counters_() const {
  const auto workers = static_cast<std::uint32_t>(std::max(0, workerCount.load()));
  const auto queued = static_cast<std::uint32_t>(std::max(0, listed_.load()));
  return Counters{workers, workers, queued, 0};
}

}  // namespace poolscope::gopool
