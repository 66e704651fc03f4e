// What the translated JSR-166 TCK tests share: JSR166TestCase's delays
// (used on the manual clock only, so no assertion depends on machine
// speed), its latch, PoolCleaner and task helpers, in C++.
#pragma once

#include <latch>
#include <stdexcept>
#include <string>

#include "tests/java/rig.h"

namespace poolscope::java::tck {

using namespace std::chrono_literals;
using java::test::Rig;

// JSR166TestCase: SHORT_DELAY_MS = 50 (times the timeout factor, 1),
// LONG_DELAY_MS = SHORT_DELAY_MS * 200, LONGER_DELAY_MS = 2 * LONG_DELAY_MS.
inline constexpr Nanos SHORT_DELAY_MS = 50ms;
inline constexpr Nanos LONG_DELAY_MS = SHORT_DELAY_MS * 200;
inline constexpr Nanos LONGER_DELAY_MS = 2 * LONG_DELAY_MS;
inline const std::string TEST_STRING = "a test string";

// CountDownLatch, with JSR166TestCase's await(latch).
class CountDownLatch {
 public:
  explicit CountDownLatch(std::ptrdiff_t n) : l_(n), n_(n) {}
  void countDown() {
    if (n_.fetch_sub(1) > 0) l_.count_down();
  }
  long getCount() const { return std::max<long>(0, n_.load()); }
  void await() { l_.wait(); }

 private:
  std::latch l_;
  std::atomic<long> n_;
};

// PoolCleaner: on leaving the test, releases the tasks waiting on `release`
// and shuts the pool down, waiting for it (cleaner(p, done) in the TCK).
class PoolCleaner {
 public:
  explicit PoolCleaner(ThreadPoolExecutor& p, CountDownLatch* release = nullptr) : p_(p), release_(release) {}
  ~PoolCleaner() {
    if (release_) release_->countDown();
    p_.close();
  }

 private:
  ThreadPoolExecutor& p_;
  CountDownLatch* release_;
};

// The TCK's Callable<String> StringTask and NPETask.
inline std::move_only_function<std::string()> StringTask(std::string s = TEST_STRING) {
  return [s] { return s; };
}
inline std::move_only_function<std::string()> NPETask() {
  return []() -> std::string { throw NullPointerException(); };
}

// NoOpREHandler.
class NoOpREHandler final : public RejectedExecutionHandler {
 public:
  SubmitResult rejected_execution(Runnable&, ThreadPoolExecutor&) override { return SubmitResult::accept(); }
};

// SimpleThreadFactory: new Thread(r).
class SimpleThreadFactory final : public ThreadFactory {
 public:
  std::optional<UnstartedThread> newThread(std::move_only_function<void()> r) override {
    return inner_.newThread(std::move(r));
  }

 private:
  DefaultThreadFactory inner_;
};

// An executor on the rig's manual clock: new ThreadPoolExecutor(core, max,
// keepAlive, MILLISECONDS, queue[, factory][, handler]).
inline std::unique_ptr<ThreadPoolExecutor> make(
    Rig& rig, int core, int max, Nanos keepAlive, std::unique_ptr<BlockingQueue> q,
    std::shared_ptr<ThreadFactory> f = std::make_shared<DefaultThreadFactory>(),
    std::shared_ptr<RejectedExecutionHandler> h = std::make_shared<AbortPolicy>()) {
  return std::make_unique<ThreadPoolExecutor>(core, max, keepAlive, std::move(q), std::move(f), std::move(h),
                                              rig.target());
}

// Checks that a callable throws ExecutionException whose cause is E.
template <class E, class F>
bool throwsExecutionExceptionCausedBy(F&& f) {
  try {
    f();
  } catch (const ExecutionException& ee) {
    try {
      std::rethrow_exception(ee.cause());
    } catch (const E&) {
      return true;
    } catch (...) {
      return false;
    }
  }
  return false;
}

}  // namespace poolscope::java::tck
