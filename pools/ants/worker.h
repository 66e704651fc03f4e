// worker.go: goWorker, the worker of a Pool, which receives tasks (func())
// on its channel. Its base, WorkerThread, holds what both kinds of worker
// share (worker_func.h is the other): the pool, and the deferred function
// that ends every worker's goroutine.
#pragma once

#include <exception>

#include "pools/ants/worker_queue.h"
#include "pools/core/go/chan.h"
#include "pools/core/task.h"

namespace poolscope::ants {

class PoolCommon;

class WorkerThread : public Worker {
 public:
  explicit WorkerThread(PoolCommon& pool) : pool(pool) {}

 protected:
  // The start of run(): running++, and a fresh id for the trace.
  void addRunning();
  // Starts the worker's goroutine (a thread, through the pool's
  // go::ThreadGroup). C++: throws std::system_error (after running--) if
  // the OS refuses the thread.
  template <class Body>
  void go(Body body);
  // Go's deferred function, in its order: running-- (the last worker of a
  // closed pool closes allDone), the object back to workerCache, recover()
  // (PanicHandler, or the Logger), and Signal one waiting submitter.
  void exit(std::exception_ptr panic);

  PoolCommon& pool;
};

class GoWorker final : public WorkerThread {
 public:
  using WorkerThread::WorkerThread;
  void run() override;
  void finish(Label why) override;
  // Go's inputFunc: w.task <- fn.
  void inputFunc(Job job) { task.send(std::move(job)); }

 private:
  // An empty Job is Go's nil: the exit signal.
  go::Chan<Job> task{static_cast<std::size_t>(workerChanCap())};
};

}  // namespace poolscope::ants
