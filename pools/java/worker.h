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
#include "pools/core/clock.h"
#include <list>
#include <mutex>
#include <optional>

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
  bool isLocked() const { return state_.load() != 0; }

  // The worker thread's interrupt status (interrupt.h). interrupt() also
  // wakes the queue's waiters so that this worker notices.
  void interrupt();
  bool isInterrupted() const { return interruptStatus.is_set(); }
  bool interrupted() { return interruptStatus.test_and_clear(); }  // Thread.interrupted()
  void interruptIfStarted();

  // C++: Thread.start(). Our thread runs as soon as the factory makes it, so
  // its body first waits for start() (Java's NEW state), or for abandon() if
  // addWorker backs out, which ends the thread without running the worker.
  void start();
  void abandon();

  const WorkerId id;
  std::optional<Thread> thread;  // null if the thread factory failed
  Runnable firstTask;
  std::atomic<std::int64_t> completedTasks{0};  // written by its own thread only
  InterruptFlag interruptStatus;
  Label exitRule = kNoLabel;  // C++: why getTask let the worker go, for the trace

 private:
  friend class WorkerThreads;
  void run();  // Runnable.run(): runWorker(this)

  enum : int { kNew, kStarted, kAbandoned };
  ThreadPoolExecutor& pool_;
  std::atomic<int> state_{-1};  // the lock
  std::atomic<int> lifecycle_{kNew};
  std::list<Worker>::iterator self_;  // its place in WorkerThreads
};

// C++: Java's threads are garbage-collected when they end; ours must be
// joined by another thread. Each Worker lives here from its creation until
// its thread has been joined; addWorker joins the threads that have ended,
// close() waits for and joins them all.
class ThreadPoolExecutor::WorkerThreads {
 public:
  // Java's `new Worker(firstTask)`; throws what the thread factory throws.
  Worker& create(ThreadPoolExecutor& pool, WorkerId id);
  void finished(Worker& w);  // the worker's last act on its own thread
  void discard(Worker& w);   // a worker that never got a thread
  void joinFinished();
  void joinAll();  // once no new worker can be created (TERMINATED)

 private:
  Mutex m_;
  CondVar changed_;
  std::list<Worker> all_;
  std::list<Worker> finished_;
  Mutex joining_;  // one joinAll at a time: a thread is joined once
};

}  // namespace poolscope::java
