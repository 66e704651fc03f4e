// worker.go: goWorker, the worker of a Pool, which receives tasks (func())
// on its channel. Its base, WorkerThread, is what a goroutine gives Go for
// free: a thread started by run() and the deferred exit path. The worker of
// a PoolWithFunc shares it (worker_func.h).
#pragma once

#include <exception>

#include "pools/ants/worker_chan.h"
#include "pools/ants/worker_queue.h"
#include "pools/core/task.h"
#include "pools/core/thread.h"

namespace poolscope::ants {

class PoolCommon;

class WorkerThread : public Worker {
 public:
  explicit WorkerThread(PoolCommon& pool) : pool_(pool) {}
  // running++, then a new thread runs loop() and, when it returns, the exit
  // path. Throws std::system_error (after running--) if the OS refuses the
  // thread.
  void run() final;
  // poolscope: joins the last thread run() started. A Go program never joins
  // a goroutine; a C++ pool must join every thread before it goes away.
  void join() { thread_.join(); }

 protected:
  // The worker's loop: receive, run, revertWorker, until the exit signal or a
  // refused revert. Returns what a task threw, if one did.
  virtual std::exception_ptr loop() = 0;

  PoolCommon& pool_;

 private:
  // Go's deferred function, in its order: running-- (the last worker of a
  // closed pool closes allDone), the object back to workerCache, recover()
  // (PanicHandler, or the Logger), and Signal one waiting submitter.
  void goexit(std::exception_ptr panic);

  Thread thread_;
};

class GoWorker final : public WorkerThread {
 public:
  using WorkerThread::WorkerThread;
  void finish(Label why) override;
  // Go's inputFunc: w.task <- fn.
  void inputFunc(Job job) { task.send(std::move(job)); }

 private:
  std::exception_ptr loop() override;

  // An empty Job is Go's nil: the exit signal.
  WorkerChan<Job> task;
};

}  // namespace poolscope::ants
