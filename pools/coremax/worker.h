// worker (seed 001, §6): a goroutine the pool keeps. It waits on its own
// chan for a task, runs it, then keeps taking tasks from the task queue;
// when that is empty it puts itself back into the pool's idle `workers` and
// waits on its chan again. Nothing ever times the wait out: a worker lives
// until the pool closes.
#pragma once

#include <atomic>

#include "pools/core/go/chan.h"
#include "pools/core/task.h"

namespace poolscope::coremax {

class Pool;

class Worker {
 public:
  enum Status : int { kRunning, kStopped };

  Worker(Pool& p, WorkerId id) : p(p), id(id) {}
  // Go: `go func() { ... }()`: starts the worker's goroutine, a thread here.
  // Throws std::system_error if the OS refuses.
  void run();

  Pool& p;
  // Go's `chan func()`, of one slot: only an idle worker is sent a task, so
  // the slot is free and a send under the pool's lock never waits. A nil
  // task tells the worker to stop.
  go::Chan<Job> task{1};
  std::atomic<int> status{kRunning};
  const WorkerId id;

 private:
  // C++: the seed tells these in words (its §7, "worker runs a task"); the
  // names are ours.
  void loop();    // the goroutine
  Job getTask();  // the next queued task; or back to idle (or stopped) and nil
  friend class Pool;
};

}  // namespace poolscope::coremax
