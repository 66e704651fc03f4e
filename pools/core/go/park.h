// Parker: a thread blocked in a channel operation or a select, Go's parked
// goroutine (gopark / goready). One object per blocked call, on its stack.
//
// The spin-before-park policy lives here, once: a goroutine that blocks costs
// Go about 200 ns because its thread spins a while looking for work before
// it sleeps; a C++ thread that waits on a condition variable sleeps in the
// kernel at once, and waking it costs a system call plus, on a VM, waking a
// halted vCPU (3 to 40 µs). So a parker spins first (spin_until,
// pools/core/spin.h: kSpinBeforePark, never when gomaxprocs() is 1, where the
// thread it waits for cannot run while it spins; Go does not spin there either).
//
// The protocol. A waker (the other side of the channel, holding the
// channel's lock) claims the parker for one case with claim(); the first
// claim wins, so a select blocked on two channels is completed by exactly
// one of them. The winner writes the value, releases the channel's lock,
// then calls ready() (once ready, the woken thread may return and destroy
// the channel, as a Go function does with its own `done` channel). The
// parked thread returns only after ready() has let go of the parker, so the
// parker may live on its stack.
#pragma once

#include <atomic>
#include <mutex>

#include "pools/core/clock.h"

namespace poolscope::go {

class Parker {
 public:
  static constexpr int kWaiting = -1;
  static constexpr int kTimedOut = -2;

  // A parker that will wait with park_until() must say so before any waker
  // can see it.
  explicit Parker(bool timed = false) : timed_(timed) {}

  // The waker's side, under the channel's lock: true if this call won the
  // parker for case `which`.
  bool claim(int which) {
    int expected = kWaiting;
    return claim_.compare_exchange_strong(expected, which, std::memory_order_acq_rel);
  }
  // The waker's side, after a successful claim, once the value is written
  // and the channel's lock released.
  void ready();

  // The parked thread's side: blocks until claimed and ready; returns the case.
  int park();
  // As park(), but gives up when `clock` reaches `deadline`: returns
  // kTimedOut if no waker claimed it first.
  int park_until(Clock& clock, Time deadline);

 private:
  // An untimed park sleeps on `wake_` itself (a futex): kAwake until the
  // waker's ready() makes it kReady; kAsleep once the parked thread sleeps.
  // A timed park sleeps on cv_ with the clock instead (so that a manual
  // clock drives it), and ready() notifies that under m_.
  enum : int { kAwake, kReady, kAsleep };
  bool on_cv() const;
  std::atomic<int> claim_{kWaiting};
  std::atomic<int> wake_{kAwake};
  const bool timed_;
  Mutex m_;
  CondVar cv_;
};

// Go's GOMAXPROCS: the GOMAXPROCS environment variable when it holds a
// positive number, else the CPUs this process may run on (its affinity mask,
// which is what Go's runtime counts). Read once.
int gomaxprocs();

}  // namespace poolscope::go
