#include "pools/gammazero/pacer.h"

#include <stdexcept>

namespace poolscope::gammazero {

Pacer::Pacer(Nanos delay, Clock& clock) : clock_(clock), delay_(delay), loop_("pacer", [this] { run(); }) {}

Pacer::~Pacer() {
  stop();
  loop_.join();
}

Task Pacer::pace(Task task) {
  return [this, task = std::move(task)]() mutable {
    next();
    task();
  };
}

void Pacer::next() {
  // p.gate <- struct{}{}
  std::unique_lock lock(m_);
  if (stopped_) throw std::logic_error("pacer: Next after Stop");
  const std::uint64_t ticket = arrived_++;
  loop_cv_.notify_one();
  caller_cv_.wait(lock, [&] { return passed_ > ticket || stopped_; });
  if (passed_ <= ticket) throw std::logic_error("pacer: stopped while waiting in Next");
}

void Pacer::stop() {
  {
    std::lock_guard g(m_);
    stopped_ = true;  // close(p.gate)
  }
  loop_cv_.notify_all();
  sleep_cv_.notify_all();
  caller_cv_.notify_all();
}

void Pacer::pause() {
  std::unique_lock lock(m_);
  caller_cv_.wait(lock, [&] { return !paused_; });  // p.pause <- struct{}{}
  paused_ = true;                                   // p.paused <- struct{}{}
  caller_cv_.notify_all();                          // a resume() may be waiting for this
}

void Pacer::resume() {
  {
    std::unique_lock lock(m_);
    caller_cv_.wait(lock, [&] { return paused_; });  // <-p.paused; <-p.pause
    paused_ = false;
  }
  loop_cv_.notify_all();
  caller_cv_.notify_all();
}

bool Pacer::is_paused() const {
  std::lock_guard g(m_);
  return paused_;
}

// Lets callers through the gate no faster than one per delay: receiving from
// the gate is the "tick" that releases one caller.
void Pacer::run() {
  std::unique_lock lock(m_);
  for (;;) {
    // for range p.gate
    loop_cv_.wait(lock, [&] { return arrived_ > passed_ || stopped_; });
    if (stopped_) return;
    ++passed_;
    caller_cv_.notify_all();
    // time.Sleep(p.delay), on the injected clock (Go's sleep is not cut short by Stop)
    Time wake_at = clock_.now() + delay_;
    if (sleep_cv_.wait_until(lock, clock_, wake_at, [&] { return stopped_; })) return;
    // p.pause <- struct{}{}; <-p.pause: wait here while paused
    loop_cv_.wait(lock, [&] { return !paused_ || stopped_; });
  }
}

}  // namespace poolscope::gammazero
