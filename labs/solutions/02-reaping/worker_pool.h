// Lab 02, reference solution: lab 01's fixed threads made elastic, the way
// fasthttp's workerPool (workerpool.go) does it. No queue: Serve hands the
// task to the worker on top of the `ready` stack (LIFO: the most recently
// used, its cache still warm), or starts a new worker below MaxWorkersCount,
// or refuses. A cleaner wakes every MaxIdleWorkerDuration, binary-searches
// `ready` (sorted by lastUseTime, oldest at the bottom) for the workers idle
// longer than that, and stops them. Because reuse is LIFO, a light load keeps
// reusing the same few workers and the cold ones at the bottom expire.
#pragma once

#include <list>
#include <mutex>
#include <vector>

#include "labs/solutions/02-reaping/worker_chan.h"
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
  WorkerChan* getCh(TaskId task, Label& refusal);  // null: refused, and why
  bool release(WorkerChan* ch);
  void clean();
  void cleaner();                   // Start's goroutine: clean, sleep MaxIdleWorkerDuration, repeat
  void workerFunc(WorkerChan* ch);  // the worker goroutine
  void joinFinished();              // C++: joins the threads of workers that ended (lock held)

  PoolTrace trace_;
  const int maxWorkersCount_;
  const Nanos maxIdleWorkerDuration_;
  mutable std::mutex lock_;
  int workersCount_ = 0;
  bool mustStop_ = false;
  std::vector<WorkerChan*> ready_;  // oldest lastUseTime first
  std::list<WorkerChan> all_;       // C++: owns every live worker's chan and thread
  std::vector<WorkerChan*> finished_;
  bool stopped_ = false;  // the cleaner's stopCh
  CondVar stopCh_;
  Thread cleaner_;
  std::mutex joining_;
};

}  // namespace poolscope::lab02::solution
