#include "pools/core/go/park.h"

#include <sched.h>

#include <cstdlib>
#include <string>

#include "pools/core/spin.h"

namespace poolscope::go {

void Parker::ready() {
  std::lock_guard g(m_);
  ready_ = true;
  // Under m_: the parked thread cannot see ready_, return and destroy the
  // parker before this notify is done with it.
  cv_.notify_one();
}

int Parker::park() {
  spin_until([&] { return state_.load(std::memory_order_acquire) != kWaiting; });
  std::unique_lock lock(m_);
  cv_.wait(lock, [&] { return ready_; });
  return state_.load(std::memory_order_relaxed);
}

int Parker::park_until(Clock& clock, Time deadline) {
  spin_until([&] { return state_.load(std::memory_order_acquire) != kWaiting; });
  std::unique_lock lock(m_);
  while (!ready_) {
    if (cv_.wait_until(lock, clock, deadline) == std::cv_status::timeout && !ready_) {
      if (claim(kTimedOut)) return kTimedOut;
      // A waker won the race with the deadline: take what it gives.
      cv_.wait(lock, [&] { return ready_; });
    }
  }
  return state_.load(std::memory_order_relaxed);
}

int gomaxprocs() {
  static const int n = [] {
    if (const char* env = std::getenv("GOMAXPROCS")) {
      char* end = nullptr;
      long v = std::strtol(env, &end, 10);
      if (end != env && *end == '\0' && v > 0 && v < (1 << 20)) return static_cast<int>(v);
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
    return CPU_COUNT(&set);
  }();
  return n;
}

}  // namespace poolscope::go
