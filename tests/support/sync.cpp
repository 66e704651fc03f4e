#include "tests/support/sync.h"

#include <thread>

namespace poolscope::test {

Event await_event(TraceLog& log, const TraceLog::Pred& pred, const std::string& what) {
  auto e = log.wait_for(pred, kSafetyLimit);
  if (!e) FAIL("no trace event within the safety limit: " << what);
  return *e;
}

void await_condition(const std::function<bool()>& cond, const std::string& what) {
  auto deadline = std::chrono::steady_clock::now() + kSafetyLimit;
  while (!cond()) {
    if (std::chrono::steady_clock::now() > deadline) FAIL("condition not reached within the safety limit: " << what);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void Gate::open() {
  {
    std::lock_guard g(m_);
    open_ = true;
  }
  cv_.notify_all();
}

bool Gate::is_open() const {
  std::lock_guard g(m_);
  return open_;
}

void Gate::pass() {
  arrived_.fetch_add(1);
  std::unique_lock lock(m_);
  // Not a Catch assertion: this runs on pool threads, where Catch may not report.
  if (!cv_.wait_for(lock, kGateLimit, [&] { return open_; })) std::terminate();
}

std::function<void()> Gate::task() {
  return [this] { pass(); };
}

void Gate::await_arrivals(int n) {
  await_condition([&] { return arrived_.load() >= n; }, std::to_string(n) + " tasks at the gate");
}

}  // namespace poolscope::test
