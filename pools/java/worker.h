// ThreadPoolExecutor.Worker: one pool thread with its first task and its
// count of completed tasks, and a small non-reentrant lock the worker holds
// while it runs a task. The lock is how the pool tells busy workers from
// idle ones: interruptIdleWorkers interrupts only the workers it can
// tryLock, and getActiveCount counts the locked ones. Its state is -1 until
// runWorker starts (a new worker cannot be interrupted), then 0 (unlocked)
// or 1 (locked).
// C++: Java builds the lock on AbstractQueuedSynchronizer; this one is an
// atomic int that waits with atomic wait/notify.
#pragma once

#include <atomic>
#include <memory>
#include <optional>

#include "pools/core/clock.h"
#include "pools/java/thread_pool_executor.h"

namespace poolscope::java {

class ThreadPoolExecutor::Worker {
 public:
  // Java: Worker(Runnable firstTask), which asks the pool's thread factory
  // for its thread.
  // C++: the worker gets its first task from addWorker once it is added (so
  // that a failed addWorker leaves the task with the caller).
  Worker(ThreadPoolExecutor& pool, WorkerId id);

  void lock();
  bool tryLock();
  void unlock();
  bool isLocked() const { return state.load() != 0; }

  // The worker thread's interrupt status (interrupt.h). interrupt() also
  // wakes the queue's waiters so that this worker notices.
  void interrupt();
  bool isInterrupted() const { return interruptStatus.is_set(); }
  bool interrupted() { return interruptStatus.test_and_clear(); }  // Thread.interrupted()
  void interruptIfStarted();

  // C++: the thread's OS thread starts as the worker is made (launch), where
  // Java's factory only makes it, so that an OS refusal reads as a null from
  // the factory. Its body first waits for start() (Thread.start(); Java's
  // NEW state), or for abandon() if addWorker backs out, which ends the
  // thread without running the worker.
  void start();
  void abandon();

  const WorkerId id;
  std::optional<UnstartedThread> thread;  // null if the thread factory failed
  Runnable firstTask;
  std::atomic<std::int64_t> completedTasks{0};  // written by its own thread only
  InterruptFlag interruptStatus;
  Label exitRule = kNoLabel;  // C++: why getTask let the worker go, for the trace

 private:
  void run();  // Runnable.run(): runWorker(this)

  enum : int { kNew, kStarted, kAbandoned };
  ThreadPoolExecutor& pool_;
  std::atomic<int> state{-1};  // the lock
  std::atomic<int> lifecycle_{kNew};
};

}  // namespace poolscope::java
