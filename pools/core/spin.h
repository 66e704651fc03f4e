// Spin before parking, as Go's runtime does and OS threads do not.
//
// A goroutine that blocks on an empty channel costs Go about 200 ns: its
// thread looks for other work, spinning a while before it sleeps. A C++
// thread that waits on a condition variable sleeps in the kernel at once,
// and waking it is a system call plus, on a VM, waking a halted vCPU (3 to
// 40 µs). A design that hands every task to a parked worker (fasthttp, ants)
// pays that on every task unless its worker spins a little first, which is
// what this is for. Like Go, it never spins on a single CPU: there the
// awaited sender cannot run while the receiver spins.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <thread>

#include "pools/core/clock.h"
#include "pools/core/go/park.h"
#include "pools/core/sync.h"

namespace poolscope {

// How long a waiter spins before it parks: longer than a submitter's turn
// around a dispatch loop, shorter than a wake-up costs.
inline constexpr std::chrono::microseconds kSpinBeforePark{20};

// True if Go would spin here: gomaxprocs() > 1 (read once; under a
// Scheduler, its machine's CPUs).
bool may_spin();

// Under a Scheduler: spins in rounds that each hold one of its CPUs, so that
// a spinner costs what it would on the modelled machine and lets the thread
// it waits for run.
bool scheduled_spin_until(Scheduler& s, std::move_only_function<bool()> ready);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// How many threads may spin in spin_until at once in a real run:
// max(1, gomaxprocs() / 2), Go's cap on spinning Ms. Go's findRunnable
// (runtime/proc.go) lets an M spin only while 2 * sched.nmspinning <
// gomaxprocs - sched.npidle, so however many goroutines wait, at most half
// the Ps have a spinning thread; the others park at once. Without that cap
// every idle worker spins: 10,000 idle ants workers each yielding to
// another spinner kept the workers with tasks off the CPUs (issue 53, item
// 5; docs/performance.md). Read once.
inline int max_spinners() {
  static const int cap = std::max(1, go::gomaxprocs() / 2);
  return cap;
}

// The threads spinning in spin_until now (a real run's; a Scheduler's
// spinners are not counted: they hold its modelled CPUs instead).
inline std::atomic<int> spinners_now{0};

// One of the max_spinners() places, held for a scope; false if all were taken.
class SpinnerSlot {
 public:
  SpinnerSlot() {
    int n = spinners_now.load(std::memory_order_relaxed);
    while (n < max_spinners())
      if (spinners_now.compare_exchange_weak(n, n + 1, std::memory_order_relaxed)) {
        held_ = true;
        break;
      }
  }
  ~SpinnerSlot() {
    if (held_) spinners_now.fetch_sub(1, std::memory_order_relaxed);
  }
  SpinnerSlot(const SpinnerSlot&) = delete;
  SpinnerSlot& operator=(const SpinnerSlot&) = delete;
  explicit operator bool() const { return held_; }

 private:
  bool held_ = false;
};

// Spins until `ready()` holds or kSpinBeforePark has passed; returns
// `ready()`'s last answer. The caller parks when it is false. In a real run
// at most max_spinners() threads spin at once; any other asks `ready()` once
// and returns, and its caller parks (Go's rule, above).
template <class Ready>
bool spin_until(Ready ready) {
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
    return scheduled_spin_until(*s, std::move_only_function<bool()>(std::ref(ready)));
  if (!may_spin()) return ready();
  const SpinnerSlot slot;
  if (!slot) return ready();
  const auto deadline = std::chrono::steady_clock::now() + kSpinBeforePark;
  for (;;) {
    for (int i = 0; i < 32; ++i) {
      if (ready()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= deadline) return ready();
    // Let a runnable thread have this CPU: with more threads than CPUs, the
    // one this spinner waits for may be it (Go's passive spin, osyield).
    std::this_thread::yield();
  }
}

// What one bare read of an atomic costs in a loop with nothing else in it
// (a C `for` over a seq_cst load, as Redis' IOThreadMain waits): 1,000,000
// of them took 0.23 ms on this project's machine (AMD EPYC, gcc -O2), in
// picoseconds. A Scheduler (a simulation) charges it; a real run just reads.
inline constexpr std::int64_t kBareReadPicos = 230;

// Under a Scheduler: `reads` bare reads' worth of CPU, in rounds, asking
// ready() after each.
bool scheduled_spin_reads(Scheduler& s, std::int64_t reads, std::move_only_function<bool()> ready);

// Reads `ready()` up to `reads` times with nothing in between (no pause, no
// yield, whatever the CPU count), as a C loop over an atomic load does;
// returns its last answer. A spin measured in reads, not in time: the one
// for an original that counts its loop.
template <class Ready>
bool spin_reads(std::int64_t reads, Ready ready) {
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
    return scheduled_spin_reads(*s, reads, std::move_only_function<bool()>(std::ref(ready)));
  for (std::int64_t j = 0; j < reads; ++j)
    if (ready()) return true;
  return ready();
}

// Holds this thread's CPU for `d`: a design's own modelled work (a command
// executed, a request's event handled) that is not a task. A real run
// busy-loops on the steady clock; a Scheduler holds one of its CPUs for `d`.
void burn_cpu(Nanos d);

// spin_until with `lock` released, so that the awaited thread can take it;
// returns with `lock` held again. The caller checks its condition again
// under the lock before it parks: it may have come true since the spin.
template <class Lock, class Ready>
void spin_unlocked(Lock& lock, Ready ready) {
  lock.unlock();
  spin_until(ready);
  lock.lock();
}

}  // namespace poolscope
