// Java's thread interrupt status, as far as the pool uses it. shutdown(),
// the setters and tryTerminate interrupt idle workers to wake them from
// workQueue.take()/poll(), which then throw InterruptedException so that
// getTask re-reads the pool's state and settings.
//
// C++ threads have no interrupt status, so each worker carries an
// InterruptFlag and passes it to the queue it waits on. Java's
// Thread.interrupt() unparks just that thread; here the interrupter sets the
// flag and wakes the queue's waiters (BlockingQueue::wake_takers), and each
// one checks its own flag.
#pragma once

#include <atomic>

#include "pools/core/clock.h"
#include "pools/java/exceptions.h"

namespace poolscope::java {

class InterruptFlag {
 public:
  void set() { flag_.store(true, std::memory_order_release); }
  bool is_set() const { return flag_.load(std::memory_order_acquire); }
  // Thread.interrupted(): reads and clears the status.
  bool test_and_clear() { return flag_.exchange(false, std::memory_order_acq_rel); }

 private:
  std::atomic<bool> flag_{false};
};

// What Lock.lockInterruptibly() and Condition.await() do on entry and on
// every wake-up: an interrupted thread stops waiting, its status cleared.
inline void throw_if_interrupted(InterruptFlag& self) {
  if (self.test_and_clear()) throw InterruptedException();
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
