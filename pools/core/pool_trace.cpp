#include "pools/core/pool_trace.h"

namespace poolscope {

namespace rules {
Label pool_closed() {
  static const Label l = intern_label("pool-closed", "the pool was shut down: submissions are refused");
  return l;
}
Label thread_create_failed() {
  static const Label l = intern_label("thread-create-failed", "the OS refused to create another thread");
  return l;
}
Label graceful() {
  static const Label l = intern_label("graceful", "graceful shutdown: everything accepted runs");
  return l;
}
Label now() {
  static const Label l = intern_label("now", "immediate shutdown: queued tasks are dropped");
  return l;
}
}  // namespace rules

PoolTrace::PoolTrace(const TraceTarget& target, std::string_view design)
    : clock_(target.clock ? target.clock : &default_clock()),
      stream_(target.stream),
      name_(target.name.empty() ? std::string(design) : target.name) {
  if (!stream_) return;
  TimeBase base;
  if (auto* steady = dynamic_cast<SteadyClock*>(clock_)) {
    // Real time: events carry only a tick, turned into this clock's time by
    // the consumer from one pair of readings taken here.
    real_time_ = true;
    const auto s1 = std::chrono::steady_clock::now().time_since_epoch().count();
    base.time0 = clock_->now().count();
    const auto s2 = std::chrono::steady_clock::now().time_since_epoch().count();
    base = TimeBase{true, base.time0, s1 + (s2 - s1) / 2, steady->scale()};
  }
  id_ = stream_->add_pool(name_, std::string(design), base);
}

Accounting PoolTrace::accounting() const {
  // Read the outcomes before `submitted`: every outcome follows its submission,
  // so a concurrent read never shows more settled than submitted.
  Accounting a;
  a.dropped = dropped_.load(std::memory_order_acquire);
  a.refused = refused_.load(std::memory_order_acquire);
  a.threw = threw_.load(std::memory_order_acquire);
  a.completed = completed_.load(std::memory_order_acquire);
  a.submitted = submitted_.load(std::memory_order_acquire);
  return a;
}

}  // namespace poolscope
