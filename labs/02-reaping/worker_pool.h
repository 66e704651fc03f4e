// Lab 02, starter: lab 01's fixed threads, behind the names of fasthttp's
// workerPool (workerpool.go), to be made elastic and reaped the way fasthttp
// does it. No queue: Serve hands the task to a ready worker or refuses.
// What is left for you:
//   step 2: Start starts all MaxWorkersCount workers at once (lab 01's fixed
//           pool); fasthttp starts none there, and getCh starts one when a
//           task finds none ready, up to MaxWorkersCount;
//   step 3: `ready` is used as a FIFO queue; fasthttp uses it as a LIFO stack;
//   step 4: the cleaner wakes every MaxIdleWorkerDuration but clean() stops
//           nobody yet.
// Read docs/labs/02-reaping.md, then `scripts/lab 02`.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "labs/02-reaping/worker_chan.h"
#include "pools/core/go/thread_group.h"
#include "pools/core/pool_trace.h"

namespace poolscope::lab02 {

class WorkerPool {
 public:
  WorkerPool(int maxWorkersCount, Nanos maxIdleWorkerDuration, const TraceTarget& target = {});
  ~WorkerPool();  // Stop(), then join()
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void Start();  // starts the workers (step 2: none) and the cleaner; its first pass runs at once
  // Idle workers get nil now; busy ones exit when they finish. Idempotent.
  void Stop();
  // Hands `task` to a ready worker (step 2: or a new one); false if there is none (refused).
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
  std::vector<ChanRef> ready_;  // released workers, in release order
  bool stopped_ = false;        // the cleaner's stopCh
  CondVar stopCh_;
  go::ThreadGroup goroutines_;  // the cleaner and every worker (`go f()`)
};

}  // namespace poolscope::lab02
