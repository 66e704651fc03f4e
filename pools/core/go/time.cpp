#include "pools/core/go/time.h"

namespace poolscope::go {

Ticker::Ticker(Clock& clock, Nanos period) : clock_(clock), period_(period), next_(clock.now() + period) {}

bool Ticker::wait() {
  std::unique_lock lock(m_);
  while (!stopped_) {
    Time now = clock_.now();
    if (now >= next_) {
      // Keep the grid origin + k*period; skip the ticks a slow receiver missed.
      auto missed = (now - next_) / period_;
      next_ += period_ * (missed + 1);
      return true;
    }
    cv_.wait_until(lock, clock_, next_);
  }
  return false;
}

void Ticker::stop() {
  std::lock_guard g(m_);
  stopped_ = true;
  cv_.notify_all();
}

void Ticker::reset(Nanos period) {
  std::lock_guard g(m_);
  period_ = period;
  next_ = clock_.now() + period;
  cv_.notify_all();
}

Nanos Ticker::period() const {
  std::lock_guard g(m_);
  return period_;
}

}  // namespace poolscope::go
