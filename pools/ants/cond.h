// Go's sync.Cond, as ants uses it: cond = sync.NewCond(p.lock) on the spin
// lock; Wait with the lock held; Signal and Broadcast with or without it.
//
// Go's Signal costs one atomic load when nobody waits; a
// condition_variable_any's notify always takes its internal mutex. Counting
// the waiters keeps that fast path. A waiter counts itself while it holds
// the lock, just before it sleeps, so a notification can only be skipped
// when no caller is waiting yet: the same window in which Go's is lost too.
// Unlike Go's, a C++ condition variable may also wake spuriously; every wait
// in ants re-checks its condition, so a spurious wake-up is an extra retry.
#pragma once

#include <atomic>

#include "pools/core/clock.h"

namespace poolscope::ants {

class Cond {
 public:
  template <class Lock>
  void Wait(Lock& lock) {
    waiters_.fetch_add(1);
    cv_.wait(lock);
    waiters_.fetch_sub(1);
  }
  void Signal() {
    if (waiters_.load() > 0) cv_.notify_one();
  }
  void Broadcast() {
    if (waiters_.load() > 0) cv_.notify_all();
  }

 private:
  CondVar cv_;
  std::atomic<int> waiters_{0};
};

}  // namespace poolscope::ants
