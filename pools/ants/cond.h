// Go's sync.Cond, as ants uses it: cond = sync.NewCond(p.lock) on the spin
// lock; Wait with the lock held; Signal and Broadcast with or without it.
//
// Go's Wait takes a ticket while it holds the lock, and any Signal after
// that ticket wakes it, even one that comes before it parks. Here the ticket
// is the count of signals seen under the lock: the waiter sleeps only while
// that count is unchanged, and it checks and sleeps under the Cond's own
// mutex, which a notifier takes too. So no Signal is lost, whether or not
// the notifier holds the pool's lock (ants' Tune and Release do not).
// Go's Signal costs one atomic load when nobody waits; counting the sleepers
// keeps that fast path. Unlike Go's, this Wait may return spuriously (after
// a Signal meant for another waiter); every wait in ants re-checks its
// condition, so that is an extra retry.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "pools/core/spin.h"

namespace poolscope::ants {

class Cond {
 public:
  // Go's Wait parks the goroutine, which its thread does not: it spins a
  // while first (pools/core/spin.h), with the lock let go.
  template <class Lock>
  void Wait(Lock& lock) {
    const std::uint64_t ticket = signals_.load();
    lock.unlock();
    auto signalled = [&] { return signals_.load(std::memory_order_acquire) != ticket; };
    if (!spin_until(signalled)) {
      std::unique_lock sleep(m_);
      sleepers_.fetch_add(1);
      cv_.wait(sleep, signalled);
      sleepers_.fetch_sub(1);
    }
    lock.lock();
  }
  // Both are seq_cst, as Wait's fetch_add and load: either a notifier sees
  // the sleeper, or the sleeper sees the new signal count.
  void Signal() {
    signals_.fetch_add(1);
    if (sleepers_.load() > 0) {
      std::lock_guard g(m_);
      cv_.notify_one();
    }
  }
  void Broadcast() {
    signals_.fetch_add(1);
    if (sleepers_.load() > 0) {
      std::lock_guard g(m_);
      cv_.notify_all();
    }
  }

 private:
  std::mutex m_;  // orders a sleeper's check-and-sleep against notifications
  std::condition_variable cv_;
  std::atomic<int> sleepers_{0};
  std::atomic<std::uint64_t> signals_{0};  // Signals and Broadcasts so far: the tickets
};

}  // namespace poolscope::ants
