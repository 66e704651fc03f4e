#include "pools/core/go/park.h"

#include <cstdlib>
#include <string>

#include "pools/core/platform.h"
#include "pools/core/scheduler.h"
#include "pools/core/spin.h"

namespace poolscope::go {

// Under a Scheduler (a simulation) every park takes the timed path: its Mutex
// and CondVar are the Scheduler's, where the futex wait of the untimed path
// would be invisible.
bool Parker::on_cv() const { return timed_ || this_thread::scheduler(); }

void Parker::ready() {
  if (on_cv()) {
    std::lock_guard g(m_);
    wake_.store(kReady, std::memory_order_release);
    // Under m_: the parked thread cannot see kReady, return and destroy the
    // parker before this notify is done with it.
    cv_.notify_one();
  } else if (wake_.exchange(kReady, std::memory_order_acq_rel) == kAsleep) {
    wake_.notify_one();  // it sleeps until this: it cannot be gone yet
  }
}

int Parker::park() {
  if (on_cv()) return park_until(default_clock(), Time::max());
  if (!spin_until([&] { return wake_.load(std::memory_order_acquire) == kReady; })) {
    int awake = kAwake;
    if (wake_.compare_exchange_strong(awake, kAsleep, std::memory_order_acq_rel))
      do wake_.wait(kAsleep, std::memory_order_acquire);
      while (wake_.load(std::memory_order_acquire) != kReady);
  }
  return claim_.load(std::memory_order_acquire);
}

int Parker::park_until(Clock& clock, Time deadline) {
  if (spin_until([&] { return wake_.load(std::memory_order_acquire) == kReady; })) {
    std::lock_guard g(m_);  // ready() may still hold it: wait until it is done with the parker
    return claim_.load(std::memory_order_acquire);
  }
  std::unique_lock lock(m_);
  while (wake_.load(std::memory_order_acquire) != kReady) {
    if (cv_.wait_until(lock, clock, deadline) == std::cv_status::timeout &&
        wake_.load(std::memory_order_acquire) != kReady) {
      if (claim(kTimedOut)) return kTimedOut;
      // A waker won the race with the deadline: take what it gives, waiting
      // for its ready() without a deadline. A timed wait whose deadline has
      // passed returns at once without letting go of m_, so looping on it
      // would keep ready() from ever taking m_ (a spin that held gammazero's
      // dispatcher and the submitter that woke it, about one real run in 200).
      while (wake_.load(std::memory_order_acquire) != kReady) cv_.wait(lock);
    }
  }
  return claim_.load(std::memory_order_acquire);
}

int gomaxprocs() {
  if (Scheduler* s = this_thread::scheduler()) [[unlikely]]
    return s->cpus();  // the modelled machine's
  static const int n = [] {
    if (const char* env = std::getenv("GOMAXPROCS")) {
      char* end = nullptr;
      long v = std::strtol(env, &end, 10);
      if (end != env && *end == '\0' && v > 0 && v < (1 << 20)) return static_cast<int>(v);
    }
    return platform::usable_cpus();
  }();
  return n;
}

}  // namespace poolscope::go
