// Go's sync.Mutex: a lock whose Lock spins a little before it sleeps.
//
//   Go                              here
//   var mu sync.Mutex               go::Mutex mu;
//   mu.Lock(), mu.Unlock()          mu.lock(), mu.unlock()   (so std::lock_guard and go::Cond take it)
//   mu.TryLock()                    mu.try_lock()
//
// Go's Lock, when the mutex is held by a running goroutine, spins up to 4
// times 30 PAUSEs (runtime_canSpin / runtime_doSpin: more than one CPU;
// Go also wants a P running besides its own) before it parks on the mutex's semaphore.
// poolscope's Mutex (a std::mutex) goes to the kernel at once: every
// contended lock is a futex wait, and the unlock that follows a futex wake,
// two system calls for a lock held a few dozen nanoseconds. fasthttp's
// submitter and workers meet on their pool's lock on every task (getCh,
// release): see docs/performance.md, "fasthttp with 2 workers". Go's
// starvation mode (a waiter blocked over 1 ms gets the lock handed to it)
// is not modelled: the kernel's futex queue is what a sleeper waits in.
//
// Under a Scheduler (a simulation) it is the Scheduler's Mutex, unchanged:
// no spin, no try first, the same scheduling points as before.
#pragma once

#include "pools/core/spin.h"
#include "pools/core/sync.h"

namespace poolscope::go {

class Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() {
    if (this_thread::scheduler()) [[unlikely]]
      return m_.lock();
    if (m_.try_lock()) return;  // Go's fast path: one CompareAndSwap
    if (may_spin()) {
      // runtime_canSpin's iter < active_spin (4), each a procyield(active_spin_cnt = 30).
      for (int iter = 0; iter < 4; ++iter) {
        for (int i = 0; i < 30; ++i) cpu_relax();
        if (m_.try_lock()) return;
      }
    }
    m_.lock();  // runtime_SemacquireMutex: sleep until an Unlock wakes this one
  }
  bool try_lock() { return m_.try_lock(); }
  void unlock() { m_.unlock(); }

 private:
  poolscope::Mutex m_;
};

}  // namespace poolscope::go
