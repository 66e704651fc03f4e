// worker_queue.go: what a worker is to the pool, and the queue of idle
// workers, an interface with two implementations chosen at construction: the
// stack (worker_stack.h, the default: LIFO reuse) and the loop queue
// (worker_loop_queue.h, PreAlloc: FIFO reuse). The pool's spin lock guards
// every call.
#pragma once

#include <memory>
#include <span>
#include <system_error>

#include "pools/ants/ants.h"
#include "pools/core/clock.h"
#include "pools/core/event.h"

namespace poolscope::ants {

// Go's `worker` interface. inputFunc / inputArg live on the concrete workers
// (worker.h, worker_func.h): C++ cannot put a template argument on an
// interface.
class Worker {
 public:
  virtual ~Worker() = default;
  // running++ and start the worker's thread.
  virtual void run() = 0;
  // Send the exit signal (Go: nil on the task channel). `why` is for the
  // trace only: it names the rule that stopped the worker.
  virtual void finish(Label why) = 0;

  Time lastUsedTime() const { return lastUsed; }
  void setLastUsedTime(Time t) { lastUsed = t; }

  // C++: the trace's id for the worker's current thread, and why that
  // thread ends (set by whoever decides it: finish, revertWorker).
  WorkerId id() const { return id_; }
  Label exitRule = kNoLabel;

 protected:
  Time lastUsed{0};
  WorkerId id_ = 0;
};

class WorkerQueue {
 public:
  virtual ~WorkerQueue() = default;
  virtual int len() const = 0;
  virtual bool isEmpty() const = 0;
  // Puts an idle worker back; errQueueIsFull when the ring has no slot.
  virtual std::error_code insert(Worker* w) = 0;
  // Takes an idle worker out, or nullptr.
  virtual Worker* detach() = 0;
  // Removes and returns the workers idle since `now - duration` or earlier.
  // Go reads time.Now() here; the pool passes its clock's time. The span
  // points into the queue and stays valid until the next refresh.
  virtual std::span<Worker* const> refresh(Nanos duration, Time now) = 0;
  // Sends every idle worker the exit signal and empties the queue.
  virtual void reset() = 0;
};

enum class queueType { queueTypeStack = 1 << 0, queueTypeLoopQueue = 1 << 1 };

// A stack (with room reserved for `size`), or a ring of exactly `size` slots.
std::unique_ptr<WorkerQueue> newWorkerQueue(queueType qType, int size);

}  // namespace poolscope::ants
