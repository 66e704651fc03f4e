// gammazero/workerpool (workerpool.go at 22a7e8d, v1.1.3): one dispatcher
// goroutine between the submitters and the workers. Submit hands the task to
// the dispatcher, which gives it to a ready worker, or starts a worker if
// fewer than maxWorkers run, or puts it on an unbounded waiting queue. So
// Submit never waits for a worker: the pool limits how many tasks run at
// once, not how many wait. When no task arrived for a whole idle timeout,
// the dispatcher stops one ready worker per tick.
//
// Three queues, as in workerpool.go:
//   taskQueue     submitters -> dispatcher   unbuffered channel: Submit returns once the dispatcher has the task
//   waitingQueue  inside the dispatcher       unbounded FIFO (deque.h), only the dispatcher touches it
//   workerQueue   dispatcher -> workers       unbuffered channel: ready workers wait on it, first come first served
//
// Read workerpool.cpp beside workerpool.go: the same functions in the same
// order (the API, then dispatch, worker, stop, processWaitingQueue,
// killIdleWorker, runQueuedTasks), on Go's channels and select
// (pools/core/go). The fields keep Go's names; what C++ adds ends in an
// underscore. Where C++ differs, a `// C++:` comment says so; in short:
// goroutines are threads (a refused thread is retried, not fatal), a task
// that panics (throws) is recorded and its worker carries on, and the
// destructor does StopWait if nobody stopped the pool.
#pragma once

#include <atomic>
#include <initializer_list>
#include <mutex>
#include <stop_token>
#include <system_error>

#include "pools/core/go/chan.h"
#include "pools/core/go/once.h"
#include "pools/core/go/thread_group.h"
#include "pools/core/go/time.h"
#include "pools/core/pool_trace.h"
#include "pools/core/thread.h"
#include "pools/gammazero/deque.h"
#include "pools/gammazero/options.h"
#include "pools/gammazero/rules.h"

namespace poolscope::gammazero {

class WorkerPool {
 public:
  // New(maxWorkers, options...): maxWorkers < 1 becomes 1 ("there must be at
  // least one worker"). Starts the dispatcher; no worker starts before a task.
  explicit WorkerPool(int maxWorkers, std::initializer_list<Option> options = {}, const TraceTarget& target = {});
  // C++: Go has no destructor (forgetting Stop leaks the dispatcher); a C++
  // object must join its threads, so this does StopWait if no stop was called.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Size: maxWorkers.
  int size() const { return maxWorkers; }
  // Stop: running tasks finish; the waiting queue is abandoned (each task a
  // task_dropped event); returns once every worker has exited.
  void stop() { stop(false); }
  // StopWait: every queued task runs before the workers stop.
  void stop_wait() { stop(true); }
  // Stopped: true as soon as a stop has begun.
  bool is_stopped() const;
  // Do: hands `task` to the dispatcher and returns; never waits for a worker.
  // An empty task is a no-op. After Stop, ErrStopped.
  std::error_code do_(Task task);  // Go's Do ("do" is a C++ keyword)
  // Submit: Go panics with ErrStopped after Stop. C++: it returns it, as Do.
  std::error_code submit(Task task) { return do_(std::move(task)); }
  // SubmitWait: submits `task` and waits until it has run. C++: it returns
  // ErrStopped after Stop (Go panics), and also returns if the task threw or
  // was abandoned by Stop (Go would wait forever).
  std::error_code submit_wait(Task task);
  // WaitingQueueSize: tasks in the waiting queue (Go's atomic mirror of its
  // length). After Stop it still counts the abandoned tasks, as Go's does.
  int waiting_queue_size() const { return waiting.load(std::memory_order_relaxed); }
  // Pause: sends maxWorkers pause tasks, each of which holds its worker until
  // `ctx` is cancelled (C++: a std::stop_token plays Go's context) or the
  // pool stops, and returns once all of them run. Tasks submitted meanwhile
  // wait in the queue. A second Pause waits until the first is cancelled;
  // after stop, Pause returns at once.
  void pause(std::stop_token ctx);

  // C++: the state poolscope reports (Go keeps it in dispatch's locals).
  Counters counters() const;
  Nanos idle_timeout() const { return idleTimeout; }
  PoolTrace& trace() { return trace_; }
  const PoolTrace& trace() const { return trace_; }

 private:
  struct empty {};  // Go's struct{}
  // C++: what travels on workerQueue: Go's func(), with its trace id and the
  // rule that sent it, so the worker that takes it (only it knows which
  // worker that is) can trace the hand-off, or for nil, why it stops.
  struct handed {
    Job task;
    Label rule = kNoLabel;
  };

  void dispatch();
  void worker(WorkerId id, handed task, Time idleSince);
  void stop(bool wait);
  bool processWaitingQueue();
  bool killIdleWorker();
  void runQueuedTasks();
  // C++: the helpers for what Go writes in one line.
  bool startWorker(go::ThreadGroup& wg, Job& task, Label rule);    // go worker(task, ...); false if the OS refused
  bool retryRefusedWorker(go::ThreadGroup& wg, int& workerCount);  // a worker for the queue's head, after a refusal
  std::int64_t readyWorkers() const;                               // for the trace of a tick
  void traceTick(bool idle, std::int64_t ready, bool killed);
  void pushWaiting(Job task, Label rule);

  PoolTrace trace_;
  const int maxWorkers;
  const Nanos idleTimeout;
  go::Chan<Job> taskQueue;
  go::Chan<handed> workerQueue;
  go::Chan<empty> stoppedChan;  // closed by dispatch as it returns
  go::Chan<empty> stopSignal;
  Deque<Job> waitingQueue;  // the dispatcher's alone
  mutable Mutex stopLock;
  go::Once stopOnce;
  bool stopped = false;  // under stopLock
  std::atomic<int> waiting{0};
  std::atomic<bool> wait{false};

  std::atomic<int> workerCount_{0};  // C++: a mirror of dispatch's workerCount, for counters()
  std::atomic<int> abandoned_{0};    // C++: of `waiting`, the tasks Stop abandoned (queued no more)
  go::Timer timeout_;                // C++: made by New, so that the first tick does not depend on when dispatch runs
  go::Once joined_;                  // C++: the first stop() joins the dispatcher's thread, the others wait for it
  Thread dispatcher_;
};

}  // namespace poolscope::gammazero
