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
#include <cstdint>

#include "pools/core/clock.h"
#include "pools/core/spin.h"

namespace poolscope::ants {

class Cond {
 public:
  // Go's Wait parks the goroutine, which its thread does not: it spins a
  // while first (pools/core/spin.h). So does this one, with the lock let go,
  // and returns as soon as any Signal or Broadcast has come: at worst a
  // spurious wake-up, which every caller re-checks anyway.
  template <class Lock>
  void Wait(Lock& lock) {
    const std::uint64_t seen = signals_.load();
    lock.unlock();
    spin_until([&] { return signals_.load(std::memory_order_acquire) != seen; });
    lock.lock();
    waiters_.fetch_add(1);
    if (signals_.load() == seen) cv_.wait(lock);
    waiters_.fetch_sub(1);
  }
  void Signal() {
    signals_.fetch_add(1);
    if (waiters_.load() > 0) cv_.notify_one();
  }
  void Broadcast() {
    signals_.fetch_add(1);
    if (waiters_.load() > 0) cv_.notify_all();
  }

 private:
  CondVar cv_;
  std::atomic<int> waiters_{0};
  std::atomic<std::uint64_t> signals_{0};  // Signals and Broadcasts so far, for the spinning waiter
};

}  // namespace poolscope::ants
