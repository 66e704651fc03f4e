// A thread's interrupt status, as Java has it (Thread.interrupt(),
// Thread.interrupted(), LockSupport.park/unpark): cooperative, never forced.
// A pool that can interrupt its running tasks (Java's shutdownNow and
// Future.cancel(true)) sets the running worker's flag; a task that sleeps
// with sleep_interruptibly() sees it and ends its sleep early, as a Java task
// in Thread.sleep does. On threads nobody interrupts it is the clock's sleep.
//
// C++: threads have no interrupt status, so each thread has an
// InterruptFlag: a pool worker's is the one its design makes current while
// it runs tasks (set_current_interrupt), any other thread's is a
// thread_local of its own.
#pragma once

#include <atomic>
#include <mutex>

#include "pools/core/clock.h"

namespace poolscope {

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
  Mutex m_;
  CondVar wake_;
  bool permit_ = false;  // guarded by m_
};

// Thread.currentThread()'s interrupt status: the running worker's flag on a
// pool thread, the thread's own elsewhere.
InterruptFlag& current_interrupt();
// A design's worker makes its flag current while it runs (nullptr: back to
// the thread's own).
void set_current_interrupt(InterruptFlag* flag);

// Thread.sleep on `clock`: returns false, the status cleared, if the thread
// is interrupted before or while it sleeps; true once `d` has passed.
bool sleep_interruptibly(Clock& clock, Nanos d);

}  // namespace poolscope
