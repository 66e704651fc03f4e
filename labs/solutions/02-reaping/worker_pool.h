// Lab 02, reference solution: lab 01's fixed threads made elastic, the way
// fasthttp's workerPool (workerpool.go) does it. No queue: Serve hands the
// task to the worker on top of the `ready` stack (LIFO: the most recently
// used, its cache still warm), or starts a new worker below MaxWorkersCount,
// or refuses. A cleaner wakes every MaxIdleWorkerDuration, binary-searches
// `ready` (sorted by lastUseTime, oldest at the bottom) for the workers idle
// longer than that, and stops them. Because reuse is LIFO, a light load keeps
// reusing the same few workers and the cold ones at the bottom expire.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "labs/solutions/02-reaping/worker_chan.h"
#include "pools/core/go/thread_group.h"
#include "pools/core/pool_trace.h"

namespace poolscope::lab02::solution {

class WorkerPool {
 public:
  WorkerPool(int maxWorkersCount, Nanos maxIdleWorkerDuration, const TraceTarget& target = {});
  ~WorkerPool();  // Stop(), then join()
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void Start();  // starts the cleaner; its first pass runs at once
  // Idle workers get nil now; busy ones exit when they finish. Idempotent.
  void Stop();
  // Hands `task` to a ready or new worker; false if there is none (refused).
  bool Serve(Task task);
  void join();  // C++: waits for the cleaner and every worker thread

  int workers_count() const;
  int ready_count() const;
  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 private:
  // A WorkerChan is shared: the pool holds it while it is ready or being
  // sent to, its worker until it exits (C++: Go's garbage collector did this).
  using ChanRef = std::shared_ptr<WorkerChan>;
  ChanRef getCh(TaskId task, Label& refusal);  // null: refused, and why
  bool release(const ChanRef& ch);
  void clean();
  void cleaner();                 // Start's goroutine: clean, sleep MaxIdleWorkerDuration, repeat
  void workerFunc(const ChanRef& ch);  // the worker goroutine

  PoolTrace trace_;
  const int maxWorkersCount_;
  const Nanos maxIdleWorkerDuration_;
  mutable Mutex lock_;
  int workersCount_ = 0;
  bool mustStop_ = false;
  std::vector<ChanRef> ready_;  // oldest lastUseTime first
  bool stopped_ = false;        // the cleaner's stopCh
  CondVar stopCh_;
  go::ThreadGroup goroutines_;  // the cleaner and every worker (`go f()`)
};

}  // namespace poolscope::lab02::solution
