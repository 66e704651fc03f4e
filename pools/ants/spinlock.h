// pkg/sync/spinlock.go: the lock that guards each pool's worker queue. A
// compare-and-swap on one word; a loser yields its time slice 1, 2, 4, 8,
// then 16 times between attempts (exponential back-off, capped at 16 since
// v2.4.7; it was 64 before). Not reentrant, not fair.
//
// Go's runtime.Gosched() hands the processor to another goroutine, which is
// cheap; this_thread::yield() asks the OS scheduler, which is not, so
// contention costs more here than in Go. The lock is BasicLockable, so the
// pool's go::Cond (pools/core/go/cond.h) waits on it exactly as Go's
// sync.NewCond(p.lock) does.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

#include "pools/core/sync.h"

namespace poolscope::ants {

class SpinLock {
 public:
  static constexpr int maxBackoff = 16;

  void lock() noexcept {
    int backoff = 1;
    for (std::uint32_t unlocked = 0; !state_.compare_exchange_strong(unlocked, 1, std::memory_order_acquire);
         unlocked = 0) {
      for (int i = 0; i < backoff; ++i) this_thread::yield();
      if (backoff < maxBackoff) backoff <<= 1;
    }
  }
  void unlock() noexcept { state_.store(0, std::memory_order_release); }

 private:
  std::atomic<std::uint32_t> state_{0};
};

}  // namespace poolscope::ants
