// Java's thread interrupt status, and the two waits the port needs beside
// the queues': Thread.sleep (a task's) and LockSupport.park (a
// Future.get()'s). shutdown(), the setters and tryTerminate interrupt idle
// workers to wake them from workQueue.take()/poll(), which then throw
// InterruptedException so that getTask re-reads the pool's state and
// settings; shutdownNow() and Future.cancel(true) interrupt busy ones too,
// and a task that sleeps with sleep_for() below sees it, as a Java task in
// Thread.sleep does.
//
// C++: threads have no interrupt status, so each thread has an
// InterruptFlag: a worker's is its Worker's (runWorker makes it the current
// one), any other thread's is a thread_local of its own. Java's
// Thread.interrupt() unparks just that thread; here the interrupter sets the
// flag and wakes what the thread may be waiting on: its own park (sleep,
// Future.get) at once, and the queue's waiters through
// BlockingQueue::wake_takers, where each one checks its own flag.
#pragma once

#include <atomic>
#include <mutex>

#include "pools/core/clock.h"
#include "pools/java/exceptions.h"

namespace poolscope::java {

class InterruptFlag {
 public:
  // Thread.interrupt(), as far as the flag goes: sets it and unparks the thread.
  void set() {
    flag_.store(true, std::memory_order_release);
    std::lock_guard g(m_);
    wake_.notify_all();
  }
  bool is_set() const { return flag_.load(std::memory_order_acquire); }
  // Thread.interrupted(): reads and clears the status.
  bool test_and_clear() { return flag_.exchange(false, std::memory_order_acq_rel); }

  // LockSupport.unpark(thread): gives the thread a permit, waking its park.
  void unpark() {
    std::lock_guard g(m_);
    permit_ = true;
    wake_.notify_all();
  }
  // LockSupport.parkUntil on `clock`: returns when unparked (using the
  // permit), when interrupted (the status stays set), at `deadline`, or
  // spuriously; callers re-check what they wait for.
  void park_until(Clock& clock, Time deadline) {
    std::unique_lock g(m_);
    if (!permit_ && !is_set() && clock.now() < deadline) wake_.wait_until(g, clock, deadline);
    permit_ = false;
  }

 private:
  std::atomic<bool> flag_{false};
  std::mutex m_;
  CondVar wake_;
  bool permit_ = false;  // guarded by m_
};

// Thread.currentThread()'s interrupt status: the running worker's flag on a
// pool thread, the thread's own elsewhere.
InterruptFlag& current_interrupt();
// C++: runWorker's, while the worker runs (nullptr: back to the thread's own).
void set_current_interrupt(InterruptFlag* flag);

// What Lock.lockInterruptibly() and Condition.await() do on entry and on
// every wake-up: an interrupted thread stops waiting, its status cleared.
inline void throw_if_interrupted(InterruptFlag& self) {
  if (self.test_and_clear()) throw InterruptedException();
}

// Thread.sleep(millis), on `clock`: throws InterruptedException (the status
// cleared) if the thread is interrupted before or while it sleeps. Task
// bodies use it where a Java task would call Thread.sleep, so that
// shutdownNow() and Future.cancel(true) end the sleep as they do in Java.
inline void sleep_for(Clock& clock, Nanos d) {
  InterruptFlag& self = current_interrupt();
  const Time deadline = clock.now() + d;
  for (;;) {
    throw_if_interrupted(self);
    if (clock.now() >= deadline) return;
    self.park_until(clock, deadline);
  }
}

// Condition.await(): waits until signalled; throws if interrupted.
template <class Lock>
void await(CondVar& cond, Lock& lock, InterruptFlag& self) {
  throw_if_interrupted(self);
  cond.wait(lock);
  throw_if_interrupted(self);
}

// Condition.awaitNanos(): as await(), but on `clock` and until `deadline`.
template <class Lock>
void await_until(CondVar& cond, Lock& lock, Clock& clock, Time deadline, InterruptFlag& self) {
  throw_if_interrupted(self);
  cond.wait_until(lock, clock, deadline);
  throw_if_interrupted(self);
}

}  // namespace poolscope::java
